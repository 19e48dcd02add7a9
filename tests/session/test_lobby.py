import pytest

from bot.domain.table_setup import TableSetup
from bot.session import (
    AlreadyHosting,
    AlreadyRunning,
    AlreadySeated,
    LobbyFull,
    NoGame,
    NoLobby,
    NotEnoughPlayers,
    NotHost,
    NotInGame,
)
from bot.storage import StaleVersion

from .conftest import CHANNEL, GUILD, RULES


async def test_open_join_start(make, storage):
    s = make()
    lobby = await s.open_lobby(GUILD, CHANNEL, 1, RULES)
    assert lobby.seats == ["1"] and lobby.host_id == "1"
    await s.join(CHANNEL, 2)
    row = await storage.games.get(lobby.game_id)
    assert row.status == "lobby" and row.seats == ("1", "2")
    table = await s.start(CHANNEL, 1)
    assert table.game_id == lobby.game_id and table.version == 0
    row = await storage.games.get(lobby.game_id)
    assert row.status == "active" and row.state["seats"] == ["1", "2"]
    assert row.deadline is None  # turn_seconds=None: no timer
    with pytest.raises(NoLobby):
        await s.join(CHANNEL, 3)
    with pytest.raises(AlreadyRunning):
        await s.open_lobby(GUILD, CHANNEL, 3, RULES)


async def test_lobby_rules(make):
    s = make()
    await s.open_lobby(GUILD, CHANNEL, "h", RULES, max_players=3)
    with pytest.raises(AlreadyRunning):
        await s.open_lobby(GUILD, CHANNEL, "x", RULES)
    with pytest.raises(AlreadySeated):
        await s.join(CHANNEL, "h")
    with pytest.raises(NotEnoughPlayers):
        await s.start(CHANNEL, "h")
    await s.join(CHANNEL, "p")
    await s.join(CHANNEL, "q")
    with pytest.raises(LobbyFull):
        await s.join(CHANNEL, "r")
    with pytest.raises(NotHost):
        await s.start(CHANNEL, "p")
    with pytest.raises(NotInGame):
        await s.leave(CHANNEL, "r")
    with pytest.raises(NoLobby):
        await s.join(CHANNEL + 1, "r")
    # another channel is independent
    await s.open_lobby(GUILD, CHANNEL + 1, "r", RULES)


async def test_host_leaving_passes_host_and_last_closes(make, storage):
    s = make()
    lobby = await s.open_lobby(GUILD, CHANNEL, "h", RULES)
    await s.join(CHANNEL, "p")
    await s.join(CHANNEL, "q")
    lobby = await s.leave(CHANNEL, "h")
    assert lobby.host_id == "p" and lobby.seats == ["p", "q"]
    row = await storage.games.get(lobby.game_id)
    assert row.host_id == "p" and row.seats == ("p", "q")
    await s.leave(CHANNEL, "q")
    assert await s.leave(CHANNEL, "p") is None
    assert (await storage.games.get(lobby.game_id)).status == "cancelled"
    await s.open_lobby(GUILD, CHANNEL, "z", RULES)  # the channel is free again


async def test_cancel(make, storage):
    s = make()
    lobby = await s.open_lobby(GUILD, CHANNEL, "h", RULES)
    await s.join(CHANNEL, "p")
    with pytest.raises(NotHost):
        await s.cancel(CHANNEL, "p")
    assert await s.cancel(CHANNEL, "p", is_manager=True) == lobby.game_id
    assert (await storage.games.get(lobby.game_id)).status == "cancelled"
    with pytest.raises(NoGame):
        await s.cancel(CHANNEL, "h")
    await s.open_lobby(GUILD, CHANNEL, "h", RULES)
    await s.join(CHANNEL, "p")
    table = await s.start(CHANNEL, "h")
    with pytest.raises(NotHost):
        await s.cancel(CHANNEL, "p")
    await s.cancel(CHANNEL, "h")
    assert (await storage.games.get(table.game_id)).status == "cancelled"
    with pytest.raises(NoGame):
        await s.hand(table.game_id, "h")


async def test_lobby_expires(make, storage, notes):
    """On the sessions' own clock: a real 50 ms deadline could pass before a busy machine
    read the lobby back."""
    now = [1000.0]
    s = make(lobby_seconds=60, clock=lambda: now[0])
    lobby = await s.open_lobby(GUILD, CHANNEL, "h", RULES)
    assert lobby.timer is not None and not lobby.timer.done()  # its expiry is on its way
    assert (await storage.games.get(lobby.game_id)).deadline is not None
    now[0] += 60  # its deadline: the expiry's wait (deadline - clock) is over at once
    await s.lobby_ops._lobby_timer(lobby)
    assert "lobby_expired" in notes.kinds()
    assert (await storage.games.get(lobby.game_id)).status == "cancelled"
    with pytest.raises(NoLobby):
        await s.join(CHANNEL, "p")


async def test_started_lobby_does_not_expire(make, storage, notes):
    """On the sessions' own clock, not the wall clock: a real 50 ms deadline expired the
    lobby before a busy machine had started it."""
    now = [1000.0]
    s = make(lobby_seconds=60, clock=lambda: now[0])
    lobby = await s.open_lobby(GUILD, CHANNEL, "h", RULES)
    timer = lobby.timer
    await s.join(CHANNEL, "p")
    table = await s.start(CHANNEL, "h")
    assert timer is not None and (timer.cancelling() or timer.cancelled())  # start stopped it
    now[0] += 61  # past the deadline, the expiry finds a started game and leaves it
    await s.lobby_ops._lobby_timer(lobby)
    assert "lobby_expired" not in notes.kinds()
    assert (await storage.games.get(table.game_id)).status == "active"


async def test_lobby_save_failure_changes_nothing(make, storage, monkeypatch):
    s = make()
    lobby = await s.open_lobby(GUILD, CHANNEL, "h", RULES)

    async def broken(*args, **kwargs):
        raise StaleVersion("disk on fire")

    monkeypatch.setattr(storage.games, "update", broken)
    from bot.session import SaveFailed

    with pytest.raises(SaveFailed):
        await s.join(CHANNEL, "p")
    assert lobby.seats == ["h"]


async def test_opening_a_lobby_is_one_transaction(make, storage, monkeypatch):
    """A lobby is saved whole or not at all: its seats, deadline, seat limit, match and
    options go in with the row."""
    s = make(lobby_seconds=300)
    real = storage.connection.transaction
    opened = []

    def counting():
        opened.append(1)
        return real()

    monkeypatch.setattr(storage.connection, "transaction", counting)
    lobby = await s.open_lobby(GUILD, CHANNEL, 1, RULES, 3, games=3, setup=TableSetup(pings=False))

    assert len(opened) == 1
    row = await storage.games.get(lobby.game_id)
    assert row.max_players == 3 and row.match == lobby.match.to_dict() and row.deadline is not None
    assert row.options == {"pings": False, "lobby_seconds": 300}


async def test_one_open_lobby_per_host_per_server(make):
    s = make()
    await s.open_lobby(GUILD, CHANNEL, 1, RULES)
    with pytest.raises(AlreadyHosting) as refused:
        await s.open_lobby(GUILD, CHANNEL + 1, 1, RULES)
    assert refused.value.channel_id == CHANNEL
    await s.open_lobby(GUILD + 1, CHANNEL + 2, 1, RULES)  # another server is another matter
    await s.open_lobby(GUILD, CHANNEL + 3, 2, RULES)  # and so is another host
