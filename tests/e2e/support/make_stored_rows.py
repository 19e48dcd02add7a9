"""Makes tests/session/fixtures/stored_rows.json: the games rows' JSON columns (state, match,
options) as the bot wrote them before the match and a table's setup were typed values, for
tests/session/test_stored_rows.py. Not a test (no test_ name): run it once, by name,

    .venv/bin/python -m pytest -n0 -p no:randomly tests/e2e/support/make_stored_rows.py

It was run at commit 14d0f9e, and its output is committed; do not remake it with a newer bot
(the point is text the old code wrote)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import discord
import pytest

from tests.e2e.conftest import make_bot
from tests.e2e.support.helpers import is_over, newest_table, play_one, play_to_end

OUT = Path(__file__).parents[2] / "session" / "fixtures" / "stored_rows.json"
TURN = 15


@pytest.fixture
def simcord_bot(db_path):
    return make_bot(db_path, bot_delay=0.0, away_delay=0.0)


def rows(path: Path) -> list[dict[str, str | None]]:
    con = sqlite3.connect(path)
    try:
        query = "SELECT id, status, state, match, options FROM games ORDER BY id"
        return [
            {"id": i, "status": s, "state": st, "match": m, "options": o}
            for i, s, st, m, o in con.execute(query).fetchall()
        ]
    finally:
        con.close()


async def test_write_the_rows(simcord_env, db_path, guild, channel, players):
    seen: dict[tuple, dict] = {}

    def keep() -> None:
        for row in rows(db_path):
            seen.setdefault((row["state"], row["match"], row["options"]), row)

    ann, bob, cat = players[:3]
    # A lobby of a match, with its settings and the server's options.
    lobby = await ann.slash(channel, "steal new", games=3, scoring="cards")
    keep()
    await bob.click(lobby.response, label="Join")
    await ann.click(lobby.response, label="Start")
    table = lobby.response
    hands: dict = {}
    for _ in range(3):
        await play_one(table, [ann, bob], hands)
    keep()  # a match's first game under way
    await play_to_end(table, [ann, bob])
    table = newest_table(simcord_env, channel)
    for _ in range(3):
        await play_one(table, [ann, bob], {})
    keep()  # its second game, one result in
    await play_to_end(table, [ann, bob])
    table = newest_table(simcord_env, channel)
    await play_to_end(table, [ann, bob])
    assert is_over(table)
    keep()  # the match over
    # A tournament's table: its options carry the tournament's keys.
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(simcord_env.create_user("boss"), roles=[mods])
    hall = guild.create_text_channel("hall")
    await boss.slash(hall, "steal tournament new", name="Typed Cup", table_size=2,
                     rounds=1, turn_timer=TURN)  # fmt: skip
    for p in (bob, cat):
        await p.slash(hall, "steal tournament join")
    await boss.slash(hall, "steal tournament start")
    for _ in range(3):
        await simcord_env.advance_time(TURN + 1)
        keep()
    # A single game, with the server's settings changed (no turn timer, pings off).
    await boss.slash(channel, "steal-admin set", setting="pings", value="off")
    await boss.slash(channel, "steal-admin set", setting="turn_timer", value="off")
    single = await ann.slash(channel, "steal new")
    await bob.click(single.response, label="Join")
    await ann.click(single.response, label="Start")
    keep()
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(list(seen.values()), indent=1) + "\n", encoding="utf-8")
