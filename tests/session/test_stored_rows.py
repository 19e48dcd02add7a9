"""Rows the bot wrote before a match and a game's setup (its options) were typed values, made
with that bot through SimCord (tests/e2e/support/make_stored_rows.py): read as the session reads
them and written back, they are the same text, byte for byte, as storage writes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.domain.match import Match
from bot.domain.options import Options
from bot.domain.table_setup import UNSET, TableSetup
from bot.engine import new_game, preset
from bot.session import Sessions
from bot.session.restore import table_of
from bot.storage import Storage
from bot.storage.live import GameRow
from bot.storage.schema import games
from bot.storage.sql import dumps, encode

ROWS = json.loads((Path(__file__).parent / "fixtures" / "stored_rows.json").read_text("utf-8"))
STATES = [r for r in ROWS if r["state"] is not None]


def game_row(row: dict[str, Any]) -> GameRow:
    """A fixture row as storage reads it (the columns the fixture does not keep made up)."""
    state = json.loads(row["state"]) if row["state"] is not None else None
    seats = tuple(state["seats"]) if state else ("1", "2")
    host = state["session"]["host_id"] if state else seats[0]
    return GameRow(
        id=row["id"], guild_id=1, channel_id=2, host_id=host, status=row["status"],
        seats=seats, rules={}, state=state, version=0, lobby_message_id=None,
        table_message_id=None, ping_message_id=None, deadline=None, max_players=4,
        match=json.loads(row["match"]) if row["match"] is not None else None,
        options=json.loads(row["options"]) if row["options"] is not None else {},
        created_at=0.0, updated_at=0.0,
    )  # fmt: skip


def test_the_fixture_has_every_kind_of_row():
    sessions = [json.loads(r["state"])["session"] for r in STATES]
    matches = [s["match"] for s in sessions if s["match"] is not None]
    assert any(r["match"] is not None for r in ROWS)  # a lobby's match settings
    assert any(m["results"] for m in matches) and any(not m["results"] for m in matches)
    assert any(s["match"] is None for s in sessions)
    options = [json.loads(r["options"]) for r in ROWS]
    assert any("tournament" in o for o in options) and any("lobby_seconds" in o for o in options)
    assert any(o["turn_seconds"] is None for o in options)  # no turn timer: not the bot's


@pytest.mark.parametrize("row", ROWS)
def test_a_game_s_stored_setup_reads_back_the_same(row):
    setup = TableSetup.from_dict(game_row(row).options)
    assert encode("options", setup.to_dict()) == row["options"]


def test_a_setup_tells_no_timer_from_none_given():
    assert TableSetup.from_dict({"turn_seconds": None}).turn_seconds_or(120) is None
    assert TableSetup.from_dict({}).turn_seconds_or(120) == 120
    assert TableSetup.from_dict({}).turn_seconds is UNSET and TableSetup().to_dict() == {}


@pytest.mark.parametrize("row", [r for r in ROWS if r["match"] is not None])
def test_a_lobby_s_stored_match_reads_back_the_same(row):
    match = Match.read(game_row(row).match)
    assert match is not None and encode("match", match.to_dict()) == row["match"]


@pytest.mark.parametrize("row", STATES)
def test_a_game_s_session_reads_back_the_same(row):
    """The session's part of the state (its match among it), through restore's reading and
    the table's `session_dict`, which `state_of` saves."""
    stored = game_row(row)
    assert stored.state is not None
    game = new_game(preset("standard"), stored.seats, seed=1)  # the engine's part is not read
    table = table_of(stored, [], game)
    assert dumps(table.session_dict()) == dumps(stored.state["session"])
    assert f'"session":{dumps(table.session_dict())}' in row["state"]
    assert encode("options", table.setup.to_dict()) == row["options"]


@pytest.fixture
async def any_storage(database: str):
    s = await Storage.open(database)
    yield s
    await s.close()


async def stored(storage: Storage, game_id: int) -> tuple[str | None, str | None, str | None]:
    query = select(games.c.match, games.c.options, games.c.state).where(games.c.id == game_id)
    (row,) = await storage.fetchall(query)
    return row.match, row.options, row.state


async def test_a_match_lobby_and_its_game_are_written_as_the_old_bot_wrote_them(any_storage):
    """The first rows of the fixture, written again through the session on each backend:
    a match's lobby, then its first game started."""
    lobby_row, game_row_ = ROWS[0], ROWS[1]
    assert (lobby_row["status"], game_row_["status"]) == ("lobby", "active")
    options = json.loads(lobby_row["options"])
    host = json.loads(game_row_["state"])["session"]["host_id"]
    s = Sessions(any_storage, options=Options(turn_seconds=None, lobby_seconds=600.0))
    try:
        given = TableSetup.from_dict({k: v for k, v in options.items() if k != "lobby_seconds"})
        lobby = await s.open_lobby(
            1, 10, host, preset("standard"), games=3, scoring="cards", setup=given,
            lobby_seconds=options["lobby_seconds"],
        )  # fmt: skip
        match, written, _ = await stored(any_storage, lobby.game_id)
        assert (match, written) == (lobby_row["match"], lobby_row["options"])
        await s.join(10, "2")
        await s.start(10, host)
        match, written, state = await stored(any_storage, lobby.game_id)
        assert written == game_row_["options"] and match == game_row_["match"]
        assert state is not None
        session = dumps(json.loads(game_row_["state"])["session"])
        assert f'"session":{session}' in state
    finally:
        await s.close()
