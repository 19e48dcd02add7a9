"""Playing through SimCord as the tests do: open a hand, pick a move, read what the bot
stored and sent."""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from simcord.results import InteractionResult, ResponseMessage

from bot.adapter.presenter import worker
from bot.engine import active
from bot.ui import ids
from tests.e2e.conftest import make_bot

from .helpers import (
    buttons,
    fields,
    hand_cards,
    moves_of,
    title,
)


def game_id_of(table) -> int:
    (my_hand,) = [b for b in buttons(table) if b.get("label") == "My hand"]
    action = ids.parse(my_hand["custom_id"])
    assert action is not None
    return action.game_id


async def open_hand(member, table) -> ResponseMessage:
    result = await member.click(table, label="My hand")
    assert result.ephemeral, result
    return result.response


def playable(hand) -> list[dict[str, Any]]:
    return [b for b in moves_of(hand) if not b.get("disabled")]


async def choose(member, hand, n: int = 0) -> InteractionResult:
    """Click the hand's n-th playable move: the click that makes the move."""
    return await member.click(hand, custom_id=playable(hand)[n]["custom_id"])


async def stored_moves(env, game_id: int) -> list[dict[str, Any]]:
    return await env.bot.storage.games.moves(game_id)


@contextlib.contextmanager
def quick(env, seconds: float = 0.4):
    """Lower SimCord's settle timeout for the operations inside, so a bot sleep longer than
    `seconds` (a retry delay, the 1 s away delay, the 2 s defer budget) stays parked until
    `advance_time` instead of being waited out in real time. Its wall-clock fallback remains,
    so what the test does next must start within (sleep - seconds) real seconds."""
    before = env.settle_timeout
    env.settle_timeout = seconds
    try:
        yield
    finally:
        env.settle_timeout = before


# How much longer the presenter's retries wait in the tests that take `slower_retries`.
SLOWER = 12


def slower_retries(monkeypatch) -> None:
    """The presenter's retries (0.5, 2, 5 s, ...) wait SLOWER times as long: every one is then
    beyond SimCord's settle horizon (5 s), so it fires on advance_time only, never on the wall
    clock, and a click need not end within a lowered settle limit (`quick`, which a busy
    machine overran). Three retries so scaled (96 s) stay within the 120 s turn timer."""
    monkeypatch.setattr(worker, "RETRIES", tuple(SLOWER * s for s in worker.RETRIES))
    monkeypatch.setattr(worker, "OWED_RETRIES", tuple(SLOWER * s for s in worker.OWED_RETRIES))


def bot_message(env, channel, custom_ids: list[str]) -> ResponseMessage:
    """A message authored by the bot, carrying buttons with arbitrary custom_ids: what a
    modified client (or an id from an older bot version) can make the bot receive."""
    rows = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "label": f"b{i + j}", "custom_id": cid}
                for j, cid in enumerate(custom_ids[i : i + 5])
            ],
        }
        for i in range(0, len(custom_ids), 5)
    ]
    stored = env.backend.create_message(
        channel.id, env.backend.bot_user.id, "crafted", components=rows, broadcast=False
    )
    return ResponseMessage(env, stored)


def by_bot_token(env, table) -> None:
    """From now on the game's table is edited with the bot's token, as once its Start click's
    token has run out (14 minutes) or after a restart: the route these tests make fail."""
    env.bot.app.presenter.channels[game_id_of(table)].table_token = None


def table_patches(env, channel, message_id: int) -> int:
    path = f"/channels/{channel.id}/messages/{message_id}"
    return sum(1 for r in env.http_requests if r.method == "PATCH" and r.path == path)


PLAYOFF_CLASSIC = 20261142  # and this one (classic, 2 players) needs a playoff


async def with_seed(env, db_path, seed: int) -> None:
    await env.restart_bot(make_bot(db_path, seed_source=lambda: seed))


def command_syncs(env) -> list:
    return [r for r in env.http_requests if r.method == "PUT" and "/commands" in r.path]


def crafted_click_target(env, channel, custom_id: str) -> ResponseMessage:
    """A bot message carrying a button with `custom_id`: what an old or modified client can
    still send after the bot took the real button away."""
    rows = [{"type": 1, "components": [
        {"type": 2, "style": 4, "label": "stale", "custom_id": custom_id}]}]  # fmt: skip
    stored = env.backend.create_message(
        channel.id, env.backend.bot_user.id, "crafted", components=rows, broadcast=False
    )
    return ResponseMessage(env, stored)


def one_move_left(env, game_id: int) -> bool:
    """The next move ends the game (no playoff in standard): one card in hand, none to deal."""
    game = active(env.bot.sessions.table(game_id).game)
    return not game.stock and sum(len(h) for h in game.hands) == 1


# ----- reading hands and tables (tests/e2e/app's reliability tests)


def hand_line(message) -> str:
    """The "Your cards: ..." line of a hand message."""
    return " ".join(hand_cards(message))


def card_ids(message) -> list[str]:
    return [b["custom_id"] for b in buttons(message)]


def last_moves(table) -> list[str]:
    return fields(table).get("Last moves", "").splitlines()


async def move_button(env, member, hand) -> tuple[Any, str]:
    """The message and custom_id of a button that plays a move at once."""
    return hand, playable(hand)[0]["custom_id"]


def table_messages(channel) -> list[discord.Message]:
    """The channel's table messages, oldest first."""
    return [m for m in channel.history() if (title(m) or "").startswith("Steal")]


def latest_table(channel) -> discord.Message:
    tables = table_messages(channel)
    assert tables, "no table in the channel"
    return tables[-1]
