"""Tournaments in storage, on both backends: sign-up, rounds seated once, a table's game and
result written once, and a forgotten person or purged server leaving no trace."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.domain.tournament import DONE, PLAYING, SEATED
from bot.engine import new_game, preset, to_dict
from bot.storage import ChannelTaken
from bot.storage.schema import tournament_entrants, tournament_tables, tournaments

ANN, BOB, CAT = "100000000000000001", "100000000000000002", "100000000000000003"
GUILD, CHANNEL = 11, 5


async def new(storage, **kw):
    defaults = {"format": "swiss", "table_size": 2, "rounds": 2, "preset": "standard", "seed": 7}
    return await storage.tournaments.create(GUILD, CHANNEL, "Cup", ANN, **{**defaults, **kw})


async def test_sign_up_join_leave_and_the_list(storage):
    cup = await new(storage, counted=False, signup_ends=2000.0, settings={"lang": "fr"})
    assert (cup.status, cup.round, cup.counted, cup.settings) == (
        "signup",
        0,
        False,
        {"lang": "fr"},
    )
    assert await storage.tournaments.join(cup.id, ANN, 3.5)
    assert not await storage.tournaments.join(cup.id, ANN, 3.5)  # once
    assert await storage.tournaments.join(cup.id, BOB, 1.0)
    assert await storage.tournaments.join_many(cup.id, [("bot:easy:1", 0.0), (BOB, 0.0)]) == 1
    assert await storage.tournaments.leave(cup.id, BOB)  # in the sign-up: the row goes
    assert not await storage.tournaments.leave(cup.id, BOB)
    assert [x.entrant for x in await storage.tournaments.entrants(cup.id)] == [ANN, "bot:easy:1"]
    other = await new(storage)
    assert [x.id for x in await storage.tournaments.by_guild(GUILD)] == [other.id, cup.id]
    assert [x.id for x in await storage.tournaments.open()] == [cup.id, other.id]
    await storage.tournaments.set_message(cup.id, 99)
    await storage.tournaments.update_settings(cup.id, champion=ANN)
    got = await storage.tournaments.get(cup.id)
    assert got.message_id == 99 and got.settings == {"lang": "fr", "champion": ANN}


async def test_rounds_are_seated_once_and_tables_played_once(storage):
    cup = await new(storage)
    for who in (ANN, BOB, CAT):
        await storage.tournaments.join(cup.id, who, 0.0)
    assert not await storage.tournaments.seat_round(cup.id, 1, [[ANN, BOB]], [CAT])  # not running
    assert await storage.tournaments.start(cup.id, rounds=3)
    assert not await storage.tournaments.start(cup.id)
    assert not await storage.tournaments.join(cup.id, "100000000000000004", 0.0)  # too late
    assert await storage.tournaments.seat_round(cup.id, 1, [[ANN, BOB]], [CAT])
    assert not await storage.tournaments.seat_round(cup.id, 1, [[BOB, CAT]], [ANN])  # again
    assert not await storage.tournaments.seat_round(cup.id, 3, [[BOB, CAT]], [ANN])  # skips one
    byes, table = await storage.tournaments.tables(cup.id, 1)
    assert (byes.table_no, byes.entrants, byes.status) == (0, (CAT,), "bye")
    assert (table.table_no, table.entrants, table.status) == (1, (ANN, BOB), SEATED)
    assert (await storage.tournaments.get(cup.id)).rounds == 3

    assert await storage.tournaments.set_thread(cup.id, 1, 1, 500) == 500
    assert await storage.tournaments.set_thread(cup.id, 1, 1, 501) == 500  # the first stays
    game = new_game(preset("standard"), [ANN, BOB], seed=1)
    kw = {"guild_id": GUILD, "channel_id": 500, "host_id": ANN, "rules": {},
          "state": to_dict(game), "deadline": None, "options": {"tournament": cup.id}}  # fmt: skip
    game_id, made = await storage.tournaments.start_table(cup.id, 1, 1, **kw)
    assert made and await storage.tournaments.start_table(cup.id, 1, 1, **kw) == (game_id, False)
    row = await storage.games.get(game_id)
    assert (row.status, row.channel_id, row.options) == ("active", 500, {"tournament": cup.id})
    assert (await storage.tournaments.table_of_game(game_id)).status == PLAYING
    result = {"places": [0, 1], "cards": [30, 22]}
    assert await storage.tournaments.record(cup.id, 1, 1, result)
    assert not await storage.tournaments.record(cup.id, 1, 1, {"places": [1, 0], "cards": [0, 0]})
    done = await storage.tournaments.table_of_game(game_id)
    assert (done.status, done.result) == (DONE, result)

    assert await storage.tournaments.seat_round(cup.id, 2, [[BOB, CAT]], [ANN])
    await storage.tournaments.set_thread(cup.id, 2, 1, 500)
    with pytest.raises(ChannelTaken):  # the game of round 1 is still live in thread 500
        await storage.tournaments.start_table(cup.id, 2, 1, **kw)
    assert (await storage.tournaments.tables(cup.id, 2))[1].game_id is None  # nothing written

    assert await storage.tournaments.leave(cup.id, CAT)  # running: dropped, the row stays
    assert [x.dropped for x in await storage.tournaments.entrants(cup.id)] == [False, False, True]
    assert await storage.tournaments.end(cup.id, "finished", champion=ANN)
    assert not await storage.tournaments.end(cup.id, "cancelled")
    got = await storage.tournaments.get(cup.id)
    assert (got.status, got.settings["champion"]) == ("finished", ANN)
    assert await storage.tournaments.open() == []


async def rows_holding(storage, text: str) -> dict[str, int]:
    found = {}
    for table in (tournaments, tournament_entrants, tournament_tables):
        rows = await storage.fetchall(select(table))
        n = sum(text in repr(tuple(r)) for r in rows)
        if n:
            found[table.name] = n
    return found


async def test_forgetting_a_person_and_purging_a_server_cover_tournaments(storage):
    cup = await new(storage)
    for who in (ANN, BOB, CAT):
        await storage.tournaments.join(cup.id, who, 0.0)
    await storage.tournaments.start(cup.id)
    await storage.tournaments.seat_round(cup.id, 1, [[ANN, BOB]], [CAT])
    # Played: a table whose game has not started refuses the forget (test_tournament_faults).
    await storage.tournaments.record(cup.id, 1, 1, {"places": [0, 1], "cards": [30, 22]})
    elsewhere = await storage.tournaments.create(
        99, 6, "Away", BOB, format="knockout", table_size=2, rounds=1, preset="standard", seed=1
    )
    await storage.tournaments.join(elsewhere.id, ANN, 0.0)
    assert set(await rows_holding(storage, ANN)) == {
        "tournaments", "tournament_entrants", "tournament_tables"
    }  # fmt: skip

    await storage.forgetting.forget(ANN, GUILD)  # in one server: the other keeps her
    assert await rows_holding(storage, ANN) == {"tournament_entrants": 1}
    entrants = await storage.tournaments.entrants(cup.id)
    assert [(x.entrant, x.dropped) for x in entrants] == [
        ("former:1", True), (BOB, False), (CAT, False)
    ]  # fmt: skip
    assert (await storage.tournaments.get(cup.id)).host_id == "former:0"
    assert (await storage.tournaments.tables(cup.id, 1))[1].entrants == ("former:1", BOB)
    await storage.forgetting.forget(BOB)  # everywhere; a second former entrant, numbered apart
    assert [x.entrant for x in await storage.tournaments.entrants(cup.id)][:2] == [
        "former:1", "former:2"
    ]  # fmt: skip
    assert await rows_holding(storage, BOB) == {}

    late = await storage.tournaments.create(
        GUILD, 7, "Roll Call", CAT, format="swiss", table_size=2, rounds=1, preset="standard",
        seed=1, check_in=True,
    )  # fmt: skip
    for who in (BOB, CAT, ANN):
        await storage.tournaments.join(late.id, who, 0.0, checked_in=who != ANN)
    assert await storage.tournaments.check_in(late.id, ANN)
    assert not await storage.tournaments.check_in(late.id, ANN)  # once
    await storage.tournaments.join(late.id, "404", 0.0)
    await storage.tournaments.start(late.id, absent=["404", ANN])  # Ann checked in: she stays
    assert (await storage.tournaments.get(late.id)).settings["no_check_in"] == ["404"]
    assert "404" not in {x.entrant for x in await storage.tournaments.entrants(late.id)}
    await storage.forgetting.forget("404", GUILD)
    assert (await storage.tournaments.get(late.id)).settings["no_check_in"] == []

    assert await storage.forgetting.purge_guild(GUILD) >= 5
    assert [x.id for x in await storage.tournaments.open()] == [elsewhere.id]
