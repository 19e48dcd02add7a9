"""Play a scripted game in the local playground and screenshot it with headless Chromium.

    .venv/bin/python scripts/screenshots.py [--chromium /usr/bin/chromium] [--out docs/screenshots]
        [--language es]

Writes lobby.png, table.png, hand.png, hint-phone.png (360 px wide), end.png, table-phone.png
(the table at 360 px), table-light.png (Discord's light theme) and table-italian.png (a
Rubamazzo game: the Italian deck, in Italian). Needs Chromium; tests never run this.

SimCord's preview is dark only: the light shot overrides its colour variables with Discord's
light palette (scripts/shots.py).
"""

from __future__ import annotations

import asyncio
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402
from shots import arguments, capture  # noqa: E402

from bot.client import StealBot  # noqa: E402
from bot.domain.options import Options  # noqa: E402
from bot.playground import GUILD_ID, build_world  # noqa: E402

SEED = 20261129  # the same deal every run, so the pictures only change when the bot does
TURN = re.compile(r"^[^:\n]*: \*\*(.+?)\*\*", re.MULTILINE)  # "Turn: **ann**", any language
WIDTH, HEIGHT = 1000, 1300
PHONE = 360  # px: a small phone's width


def walk(message) -> list[dict]:
    """Every component of a message, nested ones (a V2 layout's) included, as JSON."""
    out: list[dict] = []

    def visit(items) -> None:
        for item in items:
            c = item if isinstance(item, dict) else item.to_dict()
            out.append(c)
            visit(c.get("components") or [])
            if isinstance(c.get("accessory"), dict):
                visit([c["accessory"]])

    visit(message.components)
    return out


def enabled(message) -> list[dict]:
    """The enabled buttons of a message (discord.Message or SimCord ResponseMessage)."""
    return [c for c in walk(message) if c.get("type") == 2 and not c.get("disabled")]


def words(message) -> str:
    """What a V2 message says: its text displays; else its content."""
    shown = [c["content"] for c in walk(message) if c.get("type") == 10]
    return "\n".join(shown) if shown else (message.content or "")


def click_id(message, op: str) -> str:
    """A lobby or table button's custom_id by what it does (labels depend on the language)."""
    return next(b["custom_id"] for b in enabled(message) if f":{op}:" in b["custom_id"])


def whose_turn(table, members):
    match = TURN.search(words(table))
    return next((m for m in members if m.name == match.group(1)), None) if match else None


def is_over(table) -> bool:
    return any(":record:" in b.get("custom_id", "") for b in enabled(table))


async def play_one(table, members, hands) -> None:
    """The player to act clicks their hand's first move (one click a move)."""
    player = whose_turn(table, members)
    hand = hands.get(player.id)
    if hand is None or not enabled(hand):  # none yet, or it moved to a newer message
        hand = hands[player.id] = (
            await player.click(table, custom_id=click_id(table, "hand"))
        ).response
    move = next(b for b in enabled(hand) if ":move:" in b["custom_id"])
    await player.click(hand, custom_id=move["custom_id"])


async def main(chromium: str, out: Path, language: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())
    options = Options(turn_seconds=None, lobby_seconds=None, seed_source=lambda: SEED)
    bot = StealBot(tmp / "playground.db", options=options, sync=True)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, members = build_world(env)
            ann, bob, cat = members
            if language != "en":  # public messages in that language
                await bot.storage.settings.set(GUILD_ID, "language", language)

            async def shot(name: str, width: int = WIDTH, *, light: bool = False) -> None:
                target = out / f"{name}.png"
                await capture(
                    env, channel, members, chromium, target, tmp / "chrome", width, HEIGHT,
                    light=light,
                )  # fmt: skip

            lobby = (await ann.slash(channel, "steal new")).response
            await bob.click(lobby, custom_id=click_id(lobby, "join"))
            await cat.click(lobby, custom_id=click_id(lobby, "join"))
            await shot("lobby")
            await ann.click(lobby, custom_id=click_id(lobby, "start"))
            table = lobby
            hands: dict = {}
            # A round and a bit, so the table shows bundles and a last move, on ann's turn.
            moves = 0
            while moves < 4 or whose_turn(table, members) is not ann:
                await play_one(table, members, hands)
                moves += 1
            await shot("table")
            await shot("table-phone", PHONE)  # the table at a phone's width
            await shot("table-light", light=True)
            hands[ann.id] = (await ann.click(table, custom_id=click_id(table, "hand"))).response
            await shot("hand")
            await ann.click(hands[ann.id], custom_id=click_id(hands[ann.id], "hint"))
            await shot("hint-phone", PHONE)  # the hint's answer, at a phone's width
            moves = 0
            while not is_over(table):
                await play_one(table, members, hands)
                moves += 1
                if moves > 400:
                    raise SystemExit("the game did not end")
            await shot("end")

            # A Rubamazzo game, in Italian: the Italian deck's suits and ranks.
            await bot.storage.settings.set(GUILD_ID, "language", "it")
            lobby = (await ann.slash(channel, "steal new", rules="rubamazzo")).response
            await bob.click(lobby, custom_id=click_id(lobby, "join"))
            await cat.click(lobby, custom_id=click_id(lobby, "join"))
            await ann.click(lobby, custom_id=click_id(lobby, "start"))
            table, hands = lobby, {}
            for _ in range(5):
                await play_one(table, members, hands)
            await shot("table-italian")
    finally:
        if bot.storage is not None:
            await bot.storage.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    args = arguments(__doc__, language={"default": "en", "choices": ("en", "es", "fr", "it")})
    asyncio.run(main(args.chromium, args.out, args.language))
