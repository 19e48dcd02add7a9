"""Timed seasons in the session layer: a server's season ends by itself once its length has
passed since its stored start, whatever restarts came in between, and only in the process
that owns the server."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.domain.server_settings import defaults, make_settings
from bot.engine import to_dict
from bot.session import Sessions
from bot.session.events import SeasonOver
from bot.session.seasons import WEEK
from bot.storage import Storage
from tests.storage.helpers import clear_win, find_game
from tests.storage.play import finish

from .conftest import GUILD, wait_for

DAY = 24 * 3600.0
SEATS = ["100000000000000001", "100000000000000002"]


@pytest.fixture
async def storage(tmp_path: Path):
    s = await Storage.open(tmp_path / "s.db", setting_defaults=defaults(make_settings()))
    yield s
    await s.close()


async def a_finished_game(storage) -> int:
    game = find_game(2, clear_win, seats=SEATS)
    row = await storage.games.create(GUILD, 10, SEATS[0], game.rules.to_dict(), state=to_dict(game))
    await finish(storage, row.id, game, names={SEATS[0]: "Ann", SEATS[1]: "Bo"})
    return row.id


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_a_timed_season_ends_once_its_weeks_have_passed_even_across_a_restart(storage, notes):
    game_id = await a_finished_game(storage)
    clock = Clock(1_000_000.0)
    sessions = Sessions(storage, clock=clock, notify=notes)
    await sessions.records.set_setting(GUILD, "season_length", 1)
    start = clock.now
    assert await sessions.seasons.due() == start + WEEK  # season 1 begins now
    clock.now += 6 * DAY
    assert await sessions.seasons.due() == start + WEEK
    await sessions.close()

    # A restart before the due time: the due time is the stored start's, not the restart's.
    clock.now += 0.9 * DAY
    sessions = Sessions(storage, clock=clock, notify=notes)
    assert await sessions.seasons.due() == start + WEEK
    assert await sessions.seasons.current(GUILD) == 1 and notes.calls == []
    clock.now = start + WEEK + 1
    assert await sessions.seasons.due() == clock.now + WEEK  # ended; season 2 is due next
    assert await sessions.seasons.current(GUILD) == 2
    [(kind, owed_by, event)] = notes.calls
    assert kind == "season_over" and owed_by == game_id
    assert isinstance(event, SeasonOver) and event.payload["season"] == 1
    assert [row[2] for row in event.payload["top"]] in (["Ann", "Bo"], ["Bo", "Ann"])
    assert await sessions.seasons.due() == start + WEEK + 1 + WEEK  # nothing ends twice
    assert len(notes.calls) == 1
    # What it owes is handed back after a restart too, as the outbox keeps it.
    [owed] = [o for o in await sessions.owed() if isinstance(o, SeasonOver)]
    assert owed.item_id == event.item_id and owed.channel_id == 10
    await sessions.announced(owed.item_id)
    assert await sessions.owed() == []
    await sessions.close()


async def test_the_job_ends_an_overdue_season_at_start_up_in_the_owning_process_only(
    storage, notes
):
    await a_finished_game(storage)
    clock = Clock(2_000_000.0)
    await storage.settings.set(GUILD, "season_length", 2)
    await storage.seasons.begin(GUILD, clock.now)
    clock.now += 3 * WEEK  # the bot was down when it was due

    other = Sessions(storage, clock=clock, notify=notes, owns=lambda guild: guild != GUILD)
    assert await other.seasons.due() is None  # another process's server: left alone
    assert await storage.seasons.current(GUILD) is not None
    await other.close()

    sessions = Sessions(storage, clock=clock, notify=notes)
    await sessions.restore()  # starts the job
    await wait_for(lambda: notes.kinds() == ["season_over"])
    assert await sessions.seasons.current(GUILD) == 2
    await sessions.close()
