"""A server with a seeded leaderboard and history, for the board, stats and history tests."""

from __future__ import annotations

import random
import re

from simcord.results import ResponseMessage

from bot.engine import new_game, preset, to_dict
from bot.engine.playout import play_out
from tests.storage.play import finish as finish_game

from .screens import text

ROW = re.compile(r"(`#\d+`|🥇|🥈|🥉) (?:👉 __)?(.+?)(?:__)? · (.+)")
COLUMNS = [
    re.compile(p)
    for p in (r"([\d,]+) rating", r"(\d+) games?", r"(\d+) wins?", r"(\d+)% won", r"(\d+) cards?")
]
MEDALS = {"🥇": 1, "🥈": 2, "🥉": 3}

# Seeded players (ids that are no Discord member's) and the tables they finished games at.
SEEDED = {str(100 + i): f"p{i:02}" for i in range(1, 13)}


TABLES = [
    ("101", "102"), ("103", "104"), ("105", "106"), ("107", "108"), ("109", "110"),
    ("111", "112"), ("101", "103", "105"), ("102", "104"), ("106", "108", "110"),
    ("101", "112"), ("107", "109", "111"), ("103", "110"), ("104", "111", "112", "105"),
]  # fmt: skip


def rows(message, below: bool = False) -> list[tuple[int, str, str, int, int, int, int]]:
    """The leaderboard's rows: (rank, name, rating, games, wins, win %, cards); those of the
    page, or (below) the asker's own row shown under it."""
    lines = text(message).replace("**", "").splitlines()
    if "…" in lines:
        lines = lines[lines.index("…") + 1 :] if below else lines[: lines.index("…")]
    elif below:
        return []
    out = []
    for line, below_it in zip(lines, [*lines[1:], ""], strict=True):
        if line.startswith(("`#", *MEDALS)):
            m = ROW.fullmatch(line)
            assert m and below_it.startswith("-# "), (line, below_it)
            rank, name, first = m.groups()
            columns = f"{first} · {below_it[3:]}"  # the sorted column, then the others
            numbers = []
            for column in COLUMNS:
                found = column.findall(columns)
                assert len(found) == 1, (column, columns)
                numbers.append(found[0])
            place = MEDALS.get(rank) or int(rank.strip("`#"))
            out.append((place, name, numbers[0], *map(int, numbers[1:])))
    return out


async def seed(storage, guild_id: int, channel_id: int, tables=TABLES) -> list[int]:
    """Finish engine games straight through storage, as the session layer does at a game's
    end: quicker than playing them through the buttons. Returns the game ids."""
    out = []
    for n, seats in enumerate(tables):
        game = play_out(new_game(preset("standard"), list(seats), seed=n), random.Random(n))
        row = await storage.games.create(guild_id, channel_id, seats[0], {}, state=to_dict(game))
        assert await finish_game(storage, row.id, game, names=SEEDED)
        out.append(row.id)
    return out


async def finish(storage, guild_id, channel_id, seats, names, winner_first: bool) -> None:
    """One finished game between `seats`, the first seat winning (or losing)."""
    for n in range(50):
        game = play_out(new_game(preset("standard"), list(seats), seed=n), random.Random(n))
        if (game.result.ranking[0] == (0,)) == winner_first:
            break
    row = await storage.games.create(guild_id, channel_id, seats[0], {}, state=to_dict(game))
    assert await finish_game(storage, row.id, game, names=names)


def bot_message(env, channel, custom_ids: list[str]) -> ResponseMessage:
    """A bot message carrying buttons with any custom_ids: what a modified client, or a button
    of another server's message, can make the bot receive."""
    row = [
        {"type": 2, "style": 2, "label": f"b{i}", "custom_id": cid}
        for i, cid in enumerate(custom_ids)
    ]
    stored = env.backend.create_message(
        channel.id, env.backend.bot_user.id, "crafted", components=[{"type": 1, "components": row}]
    )
    return ResponseMessage(env, stored)
