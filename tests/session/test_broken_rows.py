"""Issue 24 at a restore, on both backends: a stored row that cannot be read is set aside,
the rest restored, and an admin may end it; a restored game's rules, its row not read yet."""

import pytest
from sqlalchemy import select, update

from bot.session.models import NotLoaded
from bot.storage import Storage
from bot.storage.schema import games

from .conftest import CHANNEL, GUILD, RULES, table_for
from .helpers import table_in


@pytest.fixture
async def storage(database):
    s = await Storage.open(database)
    yield s
    await s.close()


# ----- item 7: a stored row that cannot be read


async def status_of(storage, game_id):
    (row,) = await storage.fetchall(select(games.c.status).where(games.c.id == game_id))
    return row.status


async def spoil(storage, game_id, **columns):
    async with storage.transaction() as db:
        await db.execute(update(games).where(games.c.id == game_id).values(**columns))


async def test_a_row_that_cannot_be_read_is_set_aside_and_the_rest_restored(make, storage):
    s1 = make()
    await s1.open_lobby(GUILD, CHANNEL, "a", RULES)
    await s1.join(CHANNEL, "b")
    bad = (await s1.start(CHANNEL, "a")).game_id
    good = (await s1.open_lobby(GUILD, CHANNEL + 1, "c", RULES)).game_id
    lobby = (await s1.open_lobby(GUILD, CHANNEL + 2, "d", RULES)).game_id
    await s1.close()
    await spoil(storage, bad, seats="not json")
    await spoil(storage, lobby, rules="{")

    s2 = make()
    assert await s2.restore() == [good]  # start-up goes on
    assert await status_of(storage, lobby) == await status_of(storage, bad) == "broken"
    assert [i for i, _ in await storage.games.broken(GUILD)] == [bad, lobby]
    new = [  # their channels take a new lobby at once
        (await s2.open_lobby(GUILD, channel, f"e{channel}", RULES)).game_id
        for channel in (CHANNEL, CHANNEL + 2)
    ]
    await s2.close()
    s3 = make()  # and after every restart: the broken rows stay aside
    assert sorted(await s3.restore()) == sorted([good, *new])


async def test_an_admin_ends_a_broken_game(make, storage):
    s1 = make()
    game_id = (await table_for(s1)).game_id
    await s1.close()
    await spoil(storage, game_id, seats="[")
    s2 = make()
    assert await s2.restore() == []
    assert await s2.broken(GUILD) == [(game_id, CHANNEL)]
    assert not await s2.end_broken(GUILD + 1, game_id)  # not another server's
    assert await s2.end_broken(GUILD, game_id)
    assert await s2.broken(GUILD) == []
    assert await status_of(storage, game_id) == "cancelled"


# ----- item 1: a restored game's rules


async def test_the_rules_of_a_restored_game_not_read_yet(make, storage):
    s1 = make()
    await table_for(s1)
    await s1.close()
    s2 = make()
    await s2.restore()
    table = table_in(s2, CHANNEL)
    with pytest.raises(NotLoaded):
        s2.rules_in(CHANNEL)
    assert await s2.rules_here(CHANNEL) == RULES
    assert table.loaded
