"""Issue 24: the database failing under a write, on both backends. A move whose acknowledgement
was lost counts; a move that really failed changes nothing; a hint, forfeit or back made on an
old copy of the game is refused, and a failed or uncertain write leaves no stale copy."""

import pytest

from bot.session import SaveFailed
from bot.storage import Storage

from .conftest import play_turn, table_for


@pytest.fixture
async def storage(database):
    s = await Storage.open(database)
    yield s
    await s.close()


def lose_the_ack(monkeypatch, storage, times=1):
    """storage.games.save_move commits, then raises as if the connection failed before its
    acknowledgement came back (the first `times` calls)."""
    real, lost = storage.games.save_move, []

    async def committed_then_lost(*args, **kwargs):
        await real(*args, **kwargs)
        if len(lost) < times:
            lost.append(args[3])  # the move's number
            raise ConnectionResetError("connection lost after the commit")

    monkeypatch.setattr(storage.games, "save_move", committed_then_lost)
    return lost


# ----- item 4: a move whose acknowledgement was lost


async def test_a_move_committed_whose_acknowledgement_was_lost_counts(make, storage, monkeypatch):
    s = make()
    table = await table_for(s)
    lost = lose_the_ack(monkeypatch, storage)
    played = await play_turn(s, table.game_id)  # told: played, as storage says
    assert lost == [1] and played.version == 1 and table.version == 1
    assert len(await storage.games.moves(table.game_id)) == 1
    for _ in range(3):  # and the game goes on: no StaleVersion
        await play_turn(s, table.game_id)
    assert table.version == (await storage.games.get(table.game_id)).version == 4


async def test_a_move_whose_outcome_cannot_be_read_is_unsure_then_reread(
    make, storage, monkeypatch
):
    s = make()
    table = await table_for(s)
    lose_the_ack(monkeypatch, storage)
    real_get = storage.games.get
    reads = []

    async def down_get(game_id):
        if not reads:
            reads.append(game_id)
            raise ConnectionRefusedError("the database is down")
        return await real_get(game_id)

    monkeypatch.setattr(storage.games, "get", down_get)
    with pytest.raises(SaveFailed) as refused:
        await play_turn(s, table.game_id)
    assert refused.value.key == "error.save_unsure"
    assert table.stale and table.version == 0  # this copy is not trusted
    # The next use reads the game again: the move was saved, so it shows as played.
    hand = await s.hand(table.game_id, "a")
    assert not table.stale and table.version == hand.version == 1
    await play_turn(s, table.game_id)
    assert (await storage.games.get(table.game_id)).version == 2


async def test_a_move_that_really_failed_changes_nothing_and_the_next_works(make, storage, outage):
    s = make()
    table = await table_for(s)
    outage.during("save_move", times=99)  # on PostgreSQL the save tries a fresh connection
    for _ in range(3):
        try:
            await play_turn(s, table.game_id)
        except SaveFailed as refused:
            assert refused.key == "error.save_failed"
    stored = await storage.games.get(table.game_id)
    assert table.version == stored.version == len(await storage.games.moves(table.game_id))
    assert not table.stale


# ----- item 14b: hint, forfeit and back write only over the state they were worked out at


async def second_writer_moves(make, storage, game_id):
    """Another copy of the game (a second process, or this one before a lost write) plays a
    move: the first copy is now behind storage."""
    other = make()
    await other.restore()
    await other.load(game_id)
    await play_turn(other, game_id)
    await other.close()


@pytest.mark.parametrize("change", ["forfeit", "hint"])
async def test_a_change_made_on_an_old_copy_is_refused_and_the_copy_read_again(
    make, storage, change
):
    s = make()
    table = await table_for(s)
    game_id, behind = table.game_id, table.version
    user = table.seats[table.turn]
    await second_writer_moves(make, storage, game_id)
    stored = await storage.games.get(game_id)
    with pytest.raises(SaveFailed):
        if change == "forfeit":
            await s.forfeit(game_id, user)
        else:
            await s.hint(game_id, user, behind)
    after = await storage.games.get(game_id)
    assert after.state == stored.state and after.version == behind + 1  # nothing overwritten
    assert table.stale
    hand = await s.hand(game_id, user)  # read again: the other move is there
    assert hand.version == behind + 1 and not table.stale


async def test_a_forfeit_that_fails_leaves_the_table_to_be_read_again(make, storage, outage):
    s = make()
    table = await table_for(s)
    outage.during("update")
    with pytest.raises(SaveFailed):
        await s.forfeit(table.game_id, "b")
    assert table.stale and table.forfeited == set()
    await s.forfeit(table.game_id, "b")  # storage is back: read again, then saved
    assert table.forfeited == {1} and not table.stale
