"""Deleting a person's data (forget) and a server's (purge), on both backends: every table
that holds a user id or a name is checked, read whole (issue 24, item 21)."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import select

from bot.engine import new_game, preset, replay, to_dict
from bot.engine.playout import play_out
from bot.storage import StillPlaying, Storage
from bot.storage.__main__ import main as cli
from bot.storage.schema import TABLES
from tests.storage.play import finish

ANN, BOB, CAT = "100000000000000001", "100000000000000002", "100000000000000003"
NAMES = {ANN: "Ann Secretname", BOB: "Bob", CAT: "Cat"}
HOME, AWAY = 11, 22  # two servers


async def everything(storage) -> dict[str, list[str]]:
    """Every row of every table, as text: what a person's id or name could hide in."""
    found = {}
    for table in TABLES:
        rows = await storage.fetchall(select(table))
        found[table.name] = [repr(tuple(r)) for r in rows]
    return found


def holding(rows: dict[str, list[str]], text: str) -> dict[str, int]:
    """Table -> how many of its rows hold `text`."""
    counts = {name: sum(text in r for r in found) for name, found in rows.items()}
    return {name: n for name, n in counts.items() if n}


async def finished(storage, guild_id: int, seats: list[str], seed: int) -> int:
    game = play_out(new_game(preset("standard"), seats, seed=seed), random.Random(seed))
    row = await storage.games.create(guild_id, 5, seats[0], {}, state=to_dict(game))
    assert await finish(storage, row.id, game, names={s: NAMES[s] for s in seats})
    return row.id


@pytest.fixture
async def played(storage):
    """ann played with bob here and with cat in another server; she hosted a game that was
    cancelled (its closing notice still owed); cat sits in a lobby here; both servers have
    settings."""
    here = await finished(storage, HOME, [ANN, BOB], 1)
    there = await finished(storage, AWAY, [CAT, ANN], 2)
    cancelled = await storage.games.create(HOME, 6, ANN, {}, seats=[ANN, BOB])
    closing = {"by": ANN, "players": [ANN, BOB], "reason": "cancelled"}
    assert await storage.games.cancel(cancelled.id, owed=[("closed", closing)])
    lobby = await storage.games.create(HOME, 7, CAT, {}, seats=[CAT])
    for guild in (HOME, AWAY):
        await storage.settings.set(guild, "turn_seconds", 60)
    return here, there, cancelled.id, lobby.id


async def test_forget_leaves_no_trace_of_the_person_in_any_table(storage, played):
    here, there, cancelled, _ = played
    before = await everything(storage)
    assert set(holding(before, ANN)) >= {"games", "history", "history_players", "players"}
    assert holding(before, NAMES[ANN]) == {"players": 2}

    done = await storage.forgetting.forget(ANN)

    after = await everything(storage)
    assert holding(after, ANN) == {} and holding(after, NAMES[ANN]) == {}
    assert (done.players, done.history, done.games) == (2, 2, 3)
    # Her places stay, under "former:<seat>": the others' games still read and replay.
    mine = await storage.history.get(here)
    assert mine.seats == ("former:1", BOB) and mine.record["seats"] == ["former:1", BOB]
    assert (await storage.history.get(there)).seats == (CAT, "former:2")
    replay(mine.record)
    assert [e.game_id for e in await storage.history.by_player(BOB)] == [here]
    assert await storage.history.by_player(ANN) == []
    assert (await storage.games.get(cancelled)).host_id == "former:1"
    (owed,) = [i for i in await storage.outbox.pending() if i.game_id == cancelled]
    assert owed.payload["by"] == "former:1" and owed.payload["players"] == ["former:1", BOB]
    # Everyone else is as they were.
    assert (await storage.stats.get(HOME, BOB)).name == "Bob"
    assert holding(after, BOB) == holding(before, BOB)


async def test_forget_in_one_server_keeps_the_others(storage, played):
    here, there, _, _ = played
    await storage.forgetting.forget(ANN, HOME)
    assert await storage.stats.get(HOME, ANN) is None
    assert (await storage.stats.get(AWAY, ANN)).name == NAMES[ANN]
    assert (await storage.history.get(here)).seats == ("former:1", BOB)
    assert (await storage.history.get(there)).seats == (CAT, ANN)


async def test_nobody_is_forgotten_while_seated_in_a_live_game(storage, played):
    *_, lobby = played
    before = await everything(storage)
    with pytest.raises(StillPlaying) as raised:
        await storage.forgetting.forget(CAT)
    assert raised.value.game_ids == [lobby]
    assert await storage.forgetting.playing(CAT) == [lobby]
    assert await everything(storage) == before


async def test_a_user_id_must_be_digits(storage):
    for bad in ("", "ai:easy:1", "1 OR 1=1", "%", "1" * 21):
        with pytest.raises(ValueError):
            await storage.forgetting.forget(bad)


async def test_purge_deletes_every_row_of_the_server_and_nothing_else(storage, played):
    here, there, cancelled, lobby = played
    await storage.forgetting.schedule_purge(HOME, 100.0)
    others = holding(await everything(storage), CAT)

    rows = await storage.forgetting.purge_guild(HOME)

    assert rows > 0
    for game_id in (here, cancelled, lobby):
        assert await storage.games.get(game_id) is None
    assert await storage.history.get(here) is None
    assert await storage.history.by_guild(HOME) == []
    assert await storage.stats.get(HOME, ANN) is None and await storage.stats.get(HOME, BOB) is None
    assert (await storage.settings.get(HOME)).values["turn_seconds"] == 120  # the default again
    assert await storage.forgetting.pending_purges() == {}
    assert [i for i in await storage.outbox.pending() if i.game_id == cancelled] == []
    # The other server keeps everything; bob, who played only here, is gone entirely.
    assert (await storage.history.get(there)).seats == (CAT, ANN)
    assert (await storage.settings.get(AWAY)).values["turn_seconds"] == 60
    after = await everything(storage)
    # Only his global rating stays: earned on the global ladder, not the server's (/steal
    # forget-me deletes it: tests/storage/test_ladder.py).
    assert holding(after, BOB) == {"global_ratings": 1}
    assert holding(after, CAT)["history"] == others["history"]


async def test_a_pending_purge_is_kept_cancelled_and_listed(storage):
    forgetting = storage.forgetting
    await forgetting.schedule_purge(HOME, 100.0)
    await forgetting.schedule_purge(HOME, 900.0)  # removed again: the first date stands
    await forgetting.schedule_purge(AWAY, 200.0)
    assert await forgetting.pending_purges() == {HOME: 100.0, AWAY: 200.0}
    assert await forgetting.cancel_purge(HOME)
    assert not await forgetting.cancel_purge(HOME)
    assert await forgetting.pending_purges() == {AWAY: 200.0}


def test_the_operators_cli_forgets_a_person(database, capsys):
    """`python -m bot.storage forget USER_ID`: what the operator runs on a request."""

    async def seed() -> int:
        async with await Storage.open(database) as storage:
            return await finished(storage, HOME, [ANN, BOB], 3)

    async def read() -> tuple:
        async with await Storage.open(database) as storage:
            entry = await storage.history.get(game_id)
            return await storage.stats.get(HOME, ANN), entry.seats, await everything(storage)

    game_id = asyncio.run(seed())
    assert cli(["forget", "not-an-id", "--database", database]) == 2
    assert cli(["forget", ANN, "--database", database]) == 0
    said = capsys.readouterr().out
    assert f"forgot {ANN} in every server: 1 stats rows deleted" in said
    stats, seats, rows = asyncio.run(read())
    assert stats is None and seats == ("former:1", BOB)
    assert holding(rows, ANN) == {} and holding(rows, NAMES[ANN]) == {}
