"""The stats card's figures read from rated_games (written with each finish) are the figures
the card used to replay from the server's whole history; and an upgraded database's rows,
worked out from its history at start-up, are the rows the finishes would have written."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from sqlalchemy import delete, func, insert, select

from bot.domain import ratings as stats
from bot.domain import server_settings
from bot.domain.options import DEFAULTS
from bot.domain.seats import is_ai
from bot.engine import new_game, preset, to_dict
from bot.engine.playout import play_out
from bot.session import Sessions
from bot.session.records import Records
from bot.storage import Storage
from bot.storage.schema import history, rated_games, stats_backfill
from tests.storage.play import finish

GUILD = 1
PEOPLE = [f"u{i}" for i in range(5)]
BOTS = ["ai:easy:1", "ai:medium:1"]
FIXTURE = Path(__file__).with_name("fixtures") / "schema7.db"
DECK = "french52"  # the standard preset's, which the games here are played with
SETTINGS = server_settings.defaults(server_settings.make_settings(DEFAULTS))


@pytest.fixture
async def storage(database: str):
    """Storage on each backend, with every server setting (the app's defaults)."""
    s = await Storage.open(database, setting_defaults=SETTINGS)
    yield s
    await s.close()


async def play_history(storage: Storage, seed: int, games: int, ai_counts: bool) -> None:
    """`games` random finished games in GUILD among PEOPLE and BOTS, counted as the session
    counts them (games with AI only if `ai_counts`)."""
    await storage.settings.set(GUILD, "ai_counts", ai_counts)
    rng = random.Random(seed)
    for _ in range(games):
        seats = rng.sample(PEOPLE + BOTS, rng.randint(2, 4))
        game = play_out(new_game(preset("standard"), seats, seed=rng.randrange(10**9)), rng)
        row = await storage.games.create(
            GUILD, 1, seats[0], game.rules.to_dict(), state=to_dict(game)
        )
        with_ai = any(is_ai(s) for s in seats)
        counted = ai_counts or not with_ai
        unrated = {s for s in seats if is_ai(s)}
        assert await finish(storage, row.id, game, counted=counted, unrated=unrated)


async def replayed_figures(storage: Storage, user: str, ai_counts: bool) -> stats.Figures:
    """The card's figures as /steal stats worked them out before rated_games: the whole
    history replayed (the favourite capture now from counted games only)."""
    player = await storage.stats.get(GUILD, user)
    entries = await storage.history.all(GUILD)
    counted = [e for e in entries if ai_counts or not any(is_ai(s) for s in e.seats)]
    games = [(e.seats, e.places) for e in counted]
    trend = stats.rating_trend(games, user, player.games, player.rating, is_ai)
    mine = [(e.record, e.seats.index(user)) for e in counted if user in e.seats]
    return stats.Figures(trend, stats.favourite_capture(mine[-stats.FAVOURITE_GAMES :]))


@pytest.mark.parametrize(("seed", "ai_counts"), [(1, False), (2, True), (3, True)])
async def test_the_stored_figures_are_the_replayed_ones(storage, seed, ai_counts):
    await play_history(storage, seed, 24, ai_counts)
    records = Records(storage)
    compared = 0
    for user in PEOPLE:
        player = await storage.stats.get(GUILD, user)
        if player is None or player.games == 0:
            continue
        assert await records.figures(player, DECK) == await replayed_figures(
            storage, user, ai_counts
        )
        compared += 1
    assert compared >= 3


async def test_more_games_than_the_trend_shows_and_a_reset(storage):
    await play_history(storage, 7, 40, True)
    records = Records(storage)
    for user in PEOPLE:
        player = await storage.stats.get(GUILD, user)
        if player.games > stats.TREND_GAMES:
            break
    figures = await records.figures(player, DECK)
    assert len(figures.trend) == stats.TREND_GAMES + 1 and figures.trend[-1] == player.rating
    assert figures == await replayed_figures(storage, user, True)
    await storage.stats.reset(GUILD)
    assert await storage.tallies.recent(GUILD, user, 50) == []
    await play_history(storage, 8, 6, True)  # after the reset: only these games
    player = await storage.stats.get(GUILD, user)
    rows = await storage.tallies.recent(GUILD, user, 50)
    assert [r.n for r in rows] == list(range(player.games, 0, -1))
    assert rows[-1].before == (stats.START_MU, stats.START_SIGMA)


async def rows_of(storage: Storage) -> dict:
    found = {}
    for user in PEOPLE:
        for game in await storage.tallies.recent(GUILD, user, 1000):
            found[user, game.n] = game
    return found


@pytest.mark.parametrize("ai_counts", [False, True])
async def test_the_upgrade_works_out_the_rows_the_finishes_write(storage, ai_counts):
    await play_history(storage, 11, 30, ai_counts)
    written = await rows_of(storage)
    assert written
    # As an upgraded database has them: no rows, the guild marked (revision 11).
    async with storage.transaction() as db:
        await db.execute(delete(rated_games))
        await db.execute(insert(stats_backfill).values(guild_id=GUILD))
    assert await storage.tallies.pending() == [GUILD]

    assert await Records(storage).backfill(lambda guild_id: True) == [GUILD]

    assert await storage.tallies.pending() == []
    worked_out = await rows_of(storage)
    assert worked_out.keys() == written.keys()
    for key, game in written.items():
        again = worked_out[key]
        assert (again.game_id, again.captures) == (game.game_id, game.captures)
        assert again.before == pytest.approx(game.before)
        assert again.after == pytest.approx(game.after)
    # Done once: a second start (or another process) finds nothing to do.
    assert await Records(storage).backfill(lambda guild_id: True) == []


async def upgraded(storage: Storage) -> None:
    """As an upgraded database has it: no rows, the guild marked (revision 11)."""
    async with storage.transaction() as db:
        await db.execute(delete(rated_games))
        await db.execute(insert(stats_backfill).values(guild_id=GUILD))


async def test_a_game_finished_while_the_rows_are_worked_out_keeps_them_right(storage):
    # The rows are worked out in the background while games play on (issue 32, item 14).
    await play_history(storage, 11, 20, True)
    await upgraded(storage)
    real = storage.tallies.backfill
    calls = 0

    async def meanwhile(*args):  # a game finishes after the history was read
        nonlocal calls
        calls += 1
        if calls == 1:
            await play_history(storage, 12, 1, True)
        return await real(*args)

    storage.tallies.backfill = meanwhile
    assert await Records(storage).backfill(lambda guild_id: True) == [GUILD]
    del storage.tallies.backfill
    assert calls == 2 and await storage.tallies.pending() == []  # worked out again
    got = await rows_of(storage)
    # The same rows as a backfill that nothing disturbed.
    await upgraded(storage)
    assert await Records(storage).backfill(lambda guild_id: True) == [GUILD]
    want = await rows_of(storage)
    assert {k: g.game_id for k, g in got.items()} == {k: g.game_id for k, g in want.items()}


async def test_a_schema_7_file_gets_its_rows_at_start_up(tmp_path):
    path = tmp_path / "steal.db"
    shutil.copyfile(FIXTURE, path)
    async with await Storage.open(path, setting_defaults=SETTINGS) as storage:
        rows = await storage.fetchall(select(func.distinct(history.c.guild_id)))
        guilds = sorted(r[0] for r in rows)
        assert guilds and await storage.tallies.pending() == guilds
        sessions = Sessions(storage)
        await sessions.restore()  # the games first; the rows in the background
        await sessions.stats_ready()
        await sessions.close()
        assert await storage.tallies.pending() == []
        shown = 0
        for guild in guilds:
            for standing in await storage.stats.all(guild):
                player = standing.player
                mine = await storage.tallies.recent(guild, player.user_id, 1000)
                assert len(mine) <= min(player.games, stats.FAVOURITE_GAMES)
                assert [g.n for g in mine] == list(
                    range(player.games, player.games - len(mine), -1)
                )
                figures = await Records(storage).figures(player, DECK)
                assert figures.trend[-1] == player.rating
                shown += len(mine)
        assert shown > 0
