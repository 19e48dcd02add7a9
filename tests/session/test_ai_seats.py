"""AI opponents in the session layer: seating, leaving, their own moves, and stats."""

import asyncio
import random

import pytest

from bot.ai import get_policy
from bot.engine import legal_moves, view
from bot.session import LobbyFull, NotHost, SessionError, auto_move

from .conftest import CHANNEL, GUILD, RULES, wait_for


async def test_bots_are_seated_added_and_removed_by_the_host_only(make):
    s = make()
    lobby = await s.open_lobby(GUILD, CHANNEL, "a", RULES, 4, bots=["easy"])
    assert lobby.seats == ["a", "ai:easy:1"]
    await s.join(CHANNEL, "b")
    with pytest.raises(NotHost):
        await s.add_bot(CHANNEL, "b", "hard")
    await s.add_bot(CHANNEL, "a", "hard")
    assert lobby.seats[-1] == "ai:hard:1"
    with pytest.raises(LobbyFull):
        await s.add_bot(CHANNEL, "a", "medium")
    await s.remove_bot(CHANNEL, "a")
    assert lobby.seats == ["a", "ai:easy:1", "b"]
    assert (await s.storage.games.get(lobby.game_id)).seats == ("a", "ai:easy:1", "b")
    with pytest.raises(LobbyFull):
        await s.open_lobby(GUILD, CHANNEL + 1, "c", RULES, 2, bots=["easy", "easy"])


async def test_the_host_passes_to_a_person_and_bots_never_stay_alone(make, notes):
    s = make()
    lobby = await s.open_lobby(GUILD, CHANNEL, "a", RULES, 4, bots=["medium"])
    await s.join(CHANNEL, "b")
    await s.leave(CHANNEL, "a")
    assert lobby.host_id == "b" and lobby.seats == ["ai:medium:1", "b"]
    assert await s.leave(CHANNEL, "b") is None
    assert "lobby_closed" in notes.kinds()
    with pytest.raises(SessionError):
        await s.remove_bot(CHANNEL, "b")  # no lobby any more


async def test_an_ai_seat_plays_its_own_policy_after_the_bot_delay(make, storage, clock):
    s = make(bot_delay=2, turn_seconds=None, seed_source=lambda: 12344, clock=clock.now)
    await s.open_lobby(GUILD, CHANNEL, "a", RULES, 2, bots=["easy"])
    table = await s.start(CHANNEL, "a")
    assert table.turn == 1  # with this seed the bot opens
    before = table.game
    await clock.advance(1)
    assert table.version == 0 and isinstance(table.timer, asyncio.TimerHandle)  # still waits
    await clock.advance(1)
    await wait_for(lambda: table.version >= 1)
    [move] = await storage.games.moves(table.game_id)
    assert move["auto"] is False and move["seat"] == 1  # its own move, not a stand-in's
    expected = auto_move(before)
    assert expected == auto_move(before) and expected in legal_moves(before)
    rng = random.Random(f"{before.seed}/0/{len(before.moves)}/1")
    assert expected == get_policy("easy").choose(view(before, 1), rng)  # the easy AI's move
    assert (move["card"], move["action"]) == (expected.card, expected.action)
