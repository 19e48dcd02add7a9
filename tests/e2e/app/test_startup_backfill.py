"""Start-up after an upgrade that left the stats card's rows to work out (issue 32, item 14):
the games are restored and played at once, the rows are worked out in the background, and the
stats card says they are not complete until then."""

from __future__ import annotations

import asyncio

from simcord.backend.errors import SetupError
from sqlalchemy import insert

from bot.storage.schema import stats_backfill
from bot.storage.tallies import Tallies
from tests.e2e.conftest import BOTH_BACKENDS, make_bot
from tests.e2e.support.boards import finish
from tests.e2e.support.helpers import play_one, start_game, table_text
from tests.e2e.support.screens import text

pytestmark = BOTH_BACKENDS
PENDING = "still being worked out"


async def test_a_game_is_restored_and_played_while_the_stats_are_worked_out(
    simcord_env, db_path, guild, channel, players, monkeypatch
):
    env, two = simcord_env, players[:2]
    ann, bob = two
    names = {str(ann.id): ann.name, str(bob.id): bob.name}
    for _ in range(2):  # counted games: Ann has a stats card
        seats = (str(ann.id), str(bob.id))
        await finish(env.bot.storage, guild.id, channel.id, seats, names, winner_first=True)
    table = await start_game(channel, two)
    hands: dict = {}
    await play_one(table, two, hands)
    # As an upgrade leaves the database: the guild's rows are still to be worked out. The
    # work is held at a gate until the test opens it.
    async with env.bot.storage.transaction() as db:
        await db.execute(insert(stats_backfill).values(guild_id=guild.id))
    gate, real = asyncio.Event(), Tallies.backfill
    in_start_up: list[bool] = []

    async def held(self, *args):
        try:
            await env.external_wait(gate.wait(), reason="the stats backfill is held")
        except SetupError:  # not the bot's background work: start-up itself waits on it
            in_start_up.append(True)
            raise
        return await real(self, *args)

    monkeypatch.setattr(Tallies, "backfill", held)
    await env.bot.app.presenter.close()
    await env.restart_bot(make_bot(db_path))

    assert in_start_up == []  # start-up did not wait for the rows
    # The game is back and plays on while the rows wait.
    before = table_text(table)
    await play_one(table, two, hands)
    assert table_text(table) != before
    assert await env.bot.storage.tallies.pending() == [guild.id]
    card = await ann.slash(channel, "steal stats")
    assert PENDING in text(card.response)

    gate.set()
    await env.advance_time(1)
    assert await env.bot.storage.tallies.pending() == []
    card = await ann.slash(channel, "steal stats")
    assert PENDING not in text(card.response) and "Rank is by rating" in text(card.response)
