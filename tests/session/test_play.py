import asyncio

import pytest

from bot.engine import Move, legal_moves
from bot.session import MoveRefused, NotInGame, NotYourTurn, SaveFailed, StaleHand
from tests.engine.helpers import my_turn, record_moves

from .conftest import GUILD, play_turn, table_for


async def test_whole_game_to_history(make, storage, notes):
    s = make()
    table = await table_for(s)
    game_id = table.game_id
    played = None
    for _ in range(500):
        played = await play_turn(s, game_id)
        if played.ended:
            break
    assert played is not None and played.ended and played.game.over
    # A finished game keeps its history record, which holds every move; its rows are gone.
    assert await storage.games.moves(game_id) == []
    row = await storage.games.get(game_id)
    assert row.status == "finished"
    assert row.state is None and row.version == played.version
    entry = await storage.history.get(game_id)
    assert entry is not None and entry.seats == ("a", "b") and entry.forfeited == ()
    assert len(record_moves(entry.record)) == played.version
    assert (await storage.stats.get(GUILD, "a")) is not None
    assert notes.kinds().count("moved") == played.version
    assert notes.kinds()[-1] == "game_over"
    assert game_id not in s.tables


async def test_refusals_leave_the_game_unchanged(make, storage):
    s = make()
    table = await table_for(s)
    game_id = table.game_id
    mover = table.seats[table.turn]
    other = table.seats[1 - table.turn]
    hand = await s.hand(game_id, mover)
    assert hand.legal and hand.version == 0 and my_turn(hand.view)
    assert (await s.hand(game_id, other)).legal == ()
    before = table.game.copy()

    with pytest.raises(NotInGame):
        await s.play(game_id, "stranger", hand.legal[0], 0)
    with pytest.raises(NotInGame):
        await s.hand(game_id, "stranger")
    with pytest.raises(StaleHand):
        await s.play(game_id, mover, hand.legal[0], 1)
    with pytest.raises(NotYourTurn):
        await s.play(game_id, other, hand.legal[0], 0)
    missing = next(c for c in table.game.rules.card_deck.cards if c not in hand.view.hand)
    with pytest.raises(MoveRefused) as info:
        await s.play(game_id, mover, Move(missing, "trail"), 0)
    assert info.value.key == "error.move_refused" and info.value.reason

    assert table.game == before and table.version == 0
    assert (await storage.games.get(game_id)).version == 0
    await s.play(game_id, mover, hand.legal[0], 0)
    assert table.version == 1


async def test_concurrent_plays_one_wins(make, storage):
    s = make()
    table = await table_for(s)
    mover = table.seats[table.turn]
    hand = await s.hand(table.game_id, mover)
    results = await asyncio.gather(
        s.play(table.game_id, mover, hand.legal[0], hand.version),
        s.play(table.game_id, mover, hand.legal[0], hand.version),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert sum(isinstance(r, StaleHand) for r in results) == 1
    assert table.version == 1 and len(await storage.games.moves(table.game_id)) == 1


async def test_save_failure_keeps_the_old_state(make, storage, monkeypatch):
    s = make()
    table = await table_for(s)
    mover = table.seats[table.turn]
    hand = await s.hand(table.game_id, mover)
    before = table.game

    async def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(storage.games, "save_move", broken)
    with pytest.raises(SaveFailed) as info:
        await s.play(table.game_id, mover, hand.legal[0], hand.version)
    assert info.value.key == "error.save_failed"
    assert table.game is before and table.version == 0
    assert table.game.moves == [] and legal_moves(table.game) == list(hand.legal)
    monkeypatch.undo()
    played = await s.play(table.game_id, mover, hand.legal[0], hand.version)
    assert played.version == 1
    assert (await storage.games.get(table.game_id)).version == 1


async def test_closed_storage_is_a_save_failure(make, storage):
    s = make()
    table = await table_for(s)
    mover = table.seats[table.turn]
    hand = await s.hand(table.game_id, mover)
    await storage.close()
    with pytest.raises(SaveFailed):
        await s.play(table.game_id, mover, hand.legal[0], hand.version)
    assert table.version == 0 and table.game.moves == []
