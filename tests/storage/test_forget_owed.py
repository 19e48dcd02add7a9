"""What a forgotten person could still hide in, on both backends (issue 32, items 9 and 10):
a tournament's settings (its champion, the manager who cancelled it) and a season's
announcement still owed in the outbox (its top three's ids and names)."""

from __future__ import annotations

from sqlalchemy import select

from bot.domain import ratings
from bot.engine import to_dict
from bot.storage.schema import TABLES
from bot.ui import boards
from tests.storage.play import finish

from .helpers import clear_win, find_game

ANN, BOB, CAT = "100000000000000001", "100000000000000002", "100000000000000003"
NAMES = {ANN: "Ann Secretname", BOB: "Bob Keeper", CAT: "Cat Keeper"}
GUILD, AWAY = 11, 22


async def holding(storage, text: str) -> dict[str, int]:
    """Table -> how many of its rows hold `text`, over every table."""
    found = {}
    for table in TABLES:
        rows = await storage.fetchall(select(table))
        n = sum(text in repr(tuple(r)) for r in rows)
        if n:
            found[table.name] = n
    return found


async def test_a_tournaments_champion_and_canceller_are_forgotten(storage):
    cup = await storage.tournaments.create(
        GUILD, 5, "Cup", CAT, format="swiss", table_size=2, rounds=1, preset="standard", seed=1
    )
    for who in (ANN, BOB):
        await storage.tournaments.join(cup.id, who, 0.0)
    assert await storage.tournaments.start(cup.id)
    assert await storage.tournaments.end(cup.id, "finished", champion=ANN)
    # Ann, a manager here, cancelled a tournament she never entered.
    other = await storage.tournaments.create(
        GUILD, 6, "Other", BOB, format="swiss", table_size=2, rounds=1, preset="standard", seed=1
    )
    assert await storage.tournaments.end(other.id, "cancelled", by=ANN)
    away = await storage.tournaments.create(
        AWAY, 7, "Away", BOB, format="swiss", table_size=2, rounds=1, preset="standard", seed=1
    )
    assert await storage.tournaments.end(away.id, "cancelled", by=ANN)

    await storage.forgetting.forget(ANN, GUILD)

    won = await storage.tournaments.get(cup.id)
    mine = {x.entrant for x in await storage.tournaments.entrants(cup.id)} - {BOB}
    assert won.settings["champion"] == mine.pop() != ANN  # her former entrant's id
    assert (await storage.tournaments.get(other.id)).settings["by"] == "former:0"
    assert (await storage.tournaments.get(away.id)).settings["by"] == ANN  # another server
    # What a restart reads to post an end it missed names nobody.
    ends = await storage.tournaments.unannounced_ends(0.0)
    assert ANN not in {x.settings.get("champion") for x in ends if x.guild_id == GUILD}
    await storage.forgetting.forget(ANN)
    assert await holding(storage, ANN) == {}


async def played(storage, guild: int, seats: tuple[str, ...]) -> int:
    game = find_game(len(seats), clear_win, seats=list(seats))
    row = await storage.games.create(
        guild, 10 + guild, game.seats[0], game.rules.to_dict(), state=to_dict(game)
    )
    await finish(storage, row.id, game, names={s: NAMES[s] for s in seats})
    return row.id


async def test_a_season_announcement_still_owed_names_nobody_forgotten(storage):
    # Here, the announcement is owed to a game Ann did not sit in (a lobby opened since);
    # away, to her own game.
    await played(storage, GUILD, (ANN, BOB, CAT))
    lobby = await storage.games.create(GUILD, 77, BOB, {}, seats=[BOB])
    await played(storage, AWAY, (ANN, BOB))
    for guild in (GUILD, AWAY):
        ended = await storage.seasons.end(
            guild, 1, 100.0, ratings.soft_reset, owed=("season", {"lang": None})
        )
        assert ended is not None and ANN in [s.player.user_id for s in ended.top]
    owed = {i.payload["guild_id"]: i for i in await storage.outbox.pending()}
    assert owed[GUILD].game_id == lobby.id
    assert {name for _, _, name, _, _ in owed[GUILD].payload["top"]} == set(NAMES.values())

    await storage.forgetting.forget(ANN, GUILD)
    owed = {i.payload["guild_id"]: i for i in await storage.outbox.pending()}
    assert ANN not in repr(owed[GUILD].payload) and NAMES[ANN] not in repr(owed[GUILD].payload)
    assert NAMES[ANN] in repr(owed[AWAY].payload)  # another server: not asked
    shown = repr(boards.season_over("en", owed[GUILD].payload).view.to_components())
    assert "former player" in shown and NAMES[BOB] in shown and NAMES[ANN] not in shown
    assert len(owed[GUILD].payload["top"]) == 3  # her place stays, as "former player"

    await storage.forgetting.forget(ANN)  # everywhere: her own game's announcement too
    assert await holding(storage, ANN) == {} and await holding(storage, NAMES[ANN]) == {}
    [away] = [i for i in await storage.outbox.pending() if i.payload["guild_id"] == AWAY]
    assert NAMES[BOB] in repr(away.payload)
