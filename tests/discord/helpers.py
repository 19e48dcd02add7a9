"""Acting as players: open a lobby, join, start, and play through the buttons people see."""

from __future__ import annotations

import re
from typing import Any

from simcord.components import walk_components

# "Turn: **ann**", "Turno: **ann**", "Tour : **ann**": the bold name after the first colon.
TURN = re.compile(r"^[^:\n]*:\s*\*\*(.+?)\*\*")


def components(message) -> list[dict[str, Any]]:
    """Every component of a message (discord.Message or SimCord ResponseMessage), nested ones
    too (Components V2 layouts), in order, as Discord sends them."""
    tree = [c if isinstance(c, dict) else c.to_dict() for c in message.components]
    return list(walk_components(tree))


def buttons(message) -> list[dict[str, Any]]:
    """Every button of a message, in order."""
    return [c for c in components(message) if c.get("type") == 2]


def text_of(message) -> str:
    """A message's words: its content, or its layout's text displays."""
    texts = [c["content"] for c in components(message) if c.get("type") == 10]
    return "\n".join(texts) if texts else (message.content or "")


def hand_cards(hand) -> list[str]:
    """The cards a hand lists under its picture: "Your cards: 9♡ 4♡ ..."."""
    line = next(x for x in text_of(hand).splitlines() if x.startswith("Your cards: "))
    return line.removeprefix("Your cards: ").split()


def moves_of(message) -> list[dict[str, Any]]:
    """A hand's move buttons (each plays its move in one click)."""
    return [b for b in buttons(message) if ":move:" in (b.get("custom_id") or "")]


def labels(message) -> list[str]:
    return [b.get("label") for b in buttons(message)]


def cards_of(message) -> list[dict[str, Any]]:
    """A hand's greyed card buttons (shown while it is not the player's turn)."""
    return [b for b in buttons(message) if ":card:" in (b.get("custom_id") or "")]


def enabled(message) -> list[dict[str, Any]]:
    return [b for b in buttons(message) if not b.get("disabled")]


def table_text(message) -> str:
    embed = message.embeds[0]
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}: {f.value}" for f in embed.fields]
    return "\n".join(parts)


async def start_game(channel, members, **options):
    """The first member opens a lobby, the others join with the button, the host starts.
    Returns the table message (the lobby message, turned into the table)."""
    host, *others = members
    result = await host.slash(channel, "steal new", **options)
    lobby = result.response
    for m in others:
        await m.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    return lobby


def newest_table(env, channel):
    """A live view of the newest message with a My hand button (a match's next game)."""
    from simcord.results import ResponseMessage

    newest = next(m for m in reversed(channel.history()) if "My hand" in labels(m))
    return ResponseMessage(env, env.backend.get_message(channel.id, newest.id))


def is_over(table) -> bool:
    """The table has turned into the end screen (the one with a Record button)."""
    return any(":record:" in (b.get("custom_id") or "") for b in buttons(table))


def whose_turn(table, members):
    match = TURN.search(table.embeds[0].description or "")
    if match is None:
        return None
    return next(m for m in members if m.name == match.group(1))


async def open_hand(table, player):
    """The player clicks the table's My hand: their hand message."""
    mine = next(b["custom_id"] for b in buttons(table) if ":table:hand:" in b["custom_id"])
    return (await player.click(table, custom_id=mine)).response


async def play_one(table, members, hands) -> None:
    """The player to act clicks the first move their hand offers (one click a move)."""
    player = whose_turn(table, members)
    assert player is not None, table_text(table)
    hand = hands.get(player.id)
    if hand is None or not buttons(hand):  # none yet, or it moved to a newer message
        hand = hands[player.id] = await open_hand(table, player)
    move = next((b for b in moves_of(hand) if not b.get("disabled")), None)
    assert move is not None, text_of(hand)
    await player.click(hand, custom_id=move["custom_id"])


async def play_to_end(table, members, limit: int = 400) -> int:
    hands: dict[int, Any] = {}
    moves = 0
    while not is_over(table):
        await play_one(table, members, hands)
        moves += 1
        assert moves < limit, "the game did not end"
    return moves
