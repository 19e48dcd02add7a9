"""What the playground scripts share: a fresh playground, the members' language, and reading
and clicking the bot's messages as a player does (by what a button does: labels change with
the language).

Messages and members are SimCord's (untyped here: `Any`)."""

from __future__ import annotations

import random
import re
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import simcord
import simcord.interactions
from simcord.components import walk_components

from bot.client import StealBot
from bot.domain.options import Options
from bot.engine import new_game, preset, to_dict
from bot.engine.playout import play_out
from bot.playground import build_world, welcome
from bot.session import results
from bot.storage import Storage

SEED = 20261129  # the same deals every run, so the pictures only change when the bot does
TURN = re.compile(r"^[^:\n]*: \*\*(.+?)\*\*", re.MULTILINE)  # "Turn: **ann**", any language
LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr", "it": "it"}

# The members' Discord language (SimCord sends en-US): hands and replies are in the reader's.
_locale = {"value": "en-US"}
_real_payload = simcord.interactions.base_payload


def _base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
    made, payload = _real_payload(backend, **kwargs)
    payload["locale"] = _locale["value"]
    return made, payload


def members_speak(locale: str) -> None:
    """From now on the members' clicks and commands say `locale` (e.g. "es-ES")."""
    _locale["value"] = locale
    simcord.interactions.base_payload = _base_payload


@contextmanager
def scratch() -> Iterator[Path]:
    """A temporary folder (databases, Chromium's profile), removed after."""
    tmp = Path(tempfile.mkdtemp())
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@asynccontextmanager
async def playground(
    database: Path, *, seed: int | None = SEED, greet: bool = False
) -> AsyncIterator[tuple[StealBot, Any, Any, list[Any]]]:
    """The bot on a fresh simulated server: (bot, env, channel, members). `seed`: every deal
    the same (None: random); `greet`: the welcome line first, so the page is not empty."""
    options = Options(turn_seconds=None, lobby_seconds=None)
    if seed is not None:
        options = Options(turn_seconds=None, lobby_seconds=None, seed_source=lambda: seed)
    bot = StealBot(database, options=options, sync=True)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, members = build_world(env)
            if greet:
                await welcome(bot, channel.id)
            yield bot, env, channel, members
    finally:
        if bot.storage is not None:
            await bot.storage.close()


def storage_of(bot: StealBot) -> Storage:
    assert bot.storage is not None, "the bot is not started"
    return bot.storage


def parts(message: Any) -> list[dict[str, Any]]:
    """Every component of a message, nested ones (a V2 layout's) included, as JSON."""
    tree = [c if isinstance(c, dict) else c.to_dict() for c in message.components]
    return list(walk_components(tree))


def enabled(message: Any) -> list[dict[str, Any]]:
    """The enabled buttons of a message (discord.Message or SimCord ResponseMessage)."""
    return [c for c in parts(message) if c.get("type") == 2 and not c.get("disabled")]


def moves(hand: Any, *, playable: bool = False) -> list[dict[str, Any]]:
    """A hand's move buttons (`playable`: the enabled ones only)."""
    return [
        c
        for c in parts(hand)
        if c.get("type") == 2 and ":move:" in c.get("custom_id", "")
        and not (playable and c.get("disabled"))
    ]  # fmt: skip


def words(message: Any) -> str:
    """What a V2 message says: its text displays; else its content."""
    shown = [c["content"] for c in parts(message) if c.get("type") == 10]
    return "\n".join(shown) if shown else str(message.content or "")


def click_id(message: Any, op: str) -> str:
    """A lobby or table button's custom_id by what it does (labels depend on the language)."""
    return next(str(b["custom_id"]) for b in enabled(message) if f":{op}:" in b["custom_id"])


def whose_turn(table: Any, members: Sequence[Any]) -> Any:
    """The member to act (None: nobody, the game is over)."""
    match = TURN.search(words(table))
    return next((m for m in members if m.name == match.group(1)), None) if match else None


def is_over(table: Any) -> bool:
    return any(":record:" in b.get("custom_id", "") for b in enabled(table))


async def open_hand(table: Any, player: Any) -> Any:
    """`player` clicks My hand: their hand."""
    return (await player.click(table, custom_id=click_id(table, "hand"))).response


async def start(channel: Any, people: Sequence[Any], **options: Any) -> Any:
    """The first of `people` opens a lobby (/steal new with `options`), the others join, the
    host starts: the table (the lobby's message)."""
    host, *others = people
    lobby = (await host.slash(channel, "steal new", **options)).response
    for m in others:
        await m.click(lobby, custom_id=click_id(lobby, "join"))
    await host.click(lobby, custom_id=click_id(lobby, "start"))
    return lobby


async def play_one(table: Any, members: Sequence[Any], hands: dict[int, Any]) -> None:
    """The player to act clicks their hand's first move (one click a move); `hands` keeps
    each member's open hand."""
    player = whose_turn(table, members)
    hand = hands.get(player.id)
    if hand is None or not moves(hand, playable=True):  # none yet, or moved to a newer one
        hand = hands[player.id] = await open_hand(table, player)
    await player.click(hand, custom_id=moves(hand, playable=True)[0]["custom_id"])


async def history(
    storage: Storage, channel: Any, members: Sequence[Any], others: Sequence[str], games: int
) -> None:
    """A server with some history: `games` finished two-player games, two in three between
    the members, the others with `others` (made-up players) too."""
    names = {str(m.id): str(m.name) for m in members}
    names.update({str(900 + i): n for i, n in enumerate(others)})
    people = list(names)
    rng = random.Random(SEED)
    for n in range(games):
        seats = rng.sample(people[: len(members)] if n % 3 else people, 2)
        await finish(storage, channel.guild.id, channel.id, seats, names, n)


async def finish(
    storage: Storage,
    guild_id: int,
    channel_id: int,
    seats: Sequence[str],
    names: Mapping[str, str],
    seed: int,
) -> None:
    """A standard game between `seats`, played out at random and saved as finished: history
    for the boards and the stats."""
    game = play_out(new_game(preset("standard"), list(seats), seed=seed), random.Random(seed))
    row = await storage.games.create(guild_id, channel_id, seats[0], {}, state=to_dict(game))
    await results.finish(storage, row.id, guild_id, game, names=names)
