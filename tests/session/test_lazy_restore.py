"""Lazy restore: start-up registers each game and arms its timer without reading its state;
the game is read on its first use (a click, a hand, its timer), and plays, times out and
finishes as before. On both backends: what is read, and when, is storage's business."""

import asyncio
import logging

import pytest

from bot.engine import legal_moves
from bot.session import NoGame, Sessions
from bot.session import restore as restore_module
from bot.storage import Storage

from .conftest import CHANNEL, GUILD, RULES, play_turn, table_for, wait_for
from .helpers import table_in

TIMED = {"turn_seconds": 600}  # a game with a deadline: restored unread


@pytest.fixture
async def storage(database):
    s = await Storage.open(database)
    yield s
    await s.close()


@pytest.fixture
def decoded(monkeypatch):
    """How many stored games Sessions has decoded (engine states rebuilt)."""
    calls: list[int] = []
    real = restore_module.from_dict

    def counting(data):
        calls.append(1)
        return real(data)

    monkeypatch.setattr(restore_module, "from_dict", counting)
    return calls


async def started(make, moves: int = 3, **options) -> tuple[int, object]:
    s1 = make(**{**TIMED, **options})
    await s1.remember(GUILD, "a", "Ann")
    table = await table_for(s1, ("a", "b"))
    for _ in range(moves):
        await play_turn(s1, table.game_id)
    game = table.game
    await s1.close()
    return table.game_id, game


async def test_a_restored_game_is_read_on_its_first_use_and_plays_to_its_end(
    make, storage, decoded
):
    game_id, before = await started(make)
    s2: Sessions = make(**TIMED)
    assert await s2.restore() == [game_id]
    table = table_in(s2, CHANNEL)  # routed by channel and by id
    assert table is s2.table(game_id) and table.seats == ("a", "b") and table.version == 3
    assert not table.loaded and decoded == [] and table.timer is not None
    assert s2.names_in(GUILD) == {}

    user = before.seats[before.turn]
    hand = await s2.hand(game_id, user)  # the first use reads it, once, with its names
    assert table.loaded and len(decoded) == 1 and s2.names_in(GUILD) == {"a": "Ann"}
    assert table.game == before and hand.version == 3 and hand.legal
    for _ in range(500):
        if (await play_turn(s2, game_id)).ended:
            break
    assert len(decoded) == 1
    assert (await storage.history.get(game_id)) is not None
    assert (await storage.games.get(game_id)).status == "finished"
    assert s2.live_in(CHANNEL) is None


async def test_a_click_on_a_restored_game_reads_it(make, decoded):
    game_id, before = await started(make)
    s2 = make(**TIMED)
    await s2.restore()
    user = before.seats[before.turn]
    move = legal_moves(before)[0]
    played = await s2.play(game_id, user, move, 3)  # no hand asked for first
    assert played.version == 4 and s2.table(game_id).version == 4 and len(decoded) == 1


async def test_a_restored_game_times_out_after_a_restart(make, storage, decoded):
    game_id, before = await started(make, turn_seconds=60)
    await storage.games.update(game_id, deadline=0.0)  # ran out while the bot was down
    s2 = make(turn_seconds=60, restore_grace=0)
    await s2.restore()
    table = s2.table(game_id)
    await wait_for(lambda: table.version == 4)  # its timer read it and played for the seat
    [*_, last] = await storage.games.moves(game_id)
    assert last["auto"] is True and last["seat"] == before.turn
    assert len(decoded) == 1


async def test_a_cancel_needs_no_read(make, storage, decoded):
    game_id, _ = await started(make)
    s2 = make(**TIMED)
    await s2.restore()
    assert await s2.cancel(CHANNEL, "a") == game_id
    assert decoded == [] and s2.live_in(CHANNEL) is None
    assert (await storage.games.get(game_id)).status == "cancelled"


async def test_a_game_that_cannot_be_read_fails_on_first_use(make, storage, caplog):
    game_id, before = await started(make)
    row = await storage.games.get(game_id)
    await storage.games.update(
        game_id, state={**row.state, "hands": "garbage"}, version=row.version
    )
    s2 = make(**TIMED)
    assert await s2.restore() == [game_id]  # not read yet
    with caplog.at_level(logging.ERROR), pytest.raises(NoGame):
        await s2.hand(game_id, "a")  # the player is told there is no game
    assert f"could not restore game {game_id}" in caplog.text
    assert s2.table_of(game_id) is None and s2.live_in(CHANNEL) is None  # dropped, channel free
    assert (await storage.games.get(game_id)).status == "broken"  # set aside: free after restarts
    with pytest.raises(NoGame):
        await s2.play(game_id, "a", legal_moves(before)[0], 3)


async def test_load_all_reads_many_and_drops_the_unreadable(make, storage, decoded):
    s1 = make(**TIMED)
    games = []
    for channel in (CHANNEL, CHANNEL + 1):
        await s1.open_lobby(GUILD, channel, "a", RULES)
        await s1.join(channel, "b")
        games.append((await s1.start(channel, "a")).game_id)
    await s1.close()
    good, bad = games
    row = await storage.games.get(bad)
    await storage.games.update(bad, state={**row.state, "version": 999}, version=row.version)
    s2 = make(**TIMED)
    assert sorted(await s2.restore()) == sorted(games)
    await s2.load_all(games)
    assert s2.table(good).loaded and s2.table_of(bad) is None and len(decoded) == 2
    await s2.load_all(games)  # already read: nothing more
    assert len(decoded) == 2


async def test_names_come_with_the_games_in_one_query(make, storage, monkeypatch):
    s1 = make(**TIMED)
    for user in "abcdefgh":
        await s1.remember(GUILD, user, user.upper())
    for channel, (host, guest) in enumerate([("a", "b"), ("c", "d"), ("e", "f")], CHANNEL):
        await s1.open_lobby(GUILD, channel, host, RULES)
        await s1.join(channel, guest)
        await s1.start(channel, host)
    await s1.open_lobby(GUILD, CHANNEL + 3, "g", RULES)  # a lobby is shown at once
    await s1.join(CHANNEL + 3, "h")
    await s1.close()
    queries: list[int] = []
    real = storage.stats.names_of

    async def counted(players):
        queries.append(len(players))
        return await real(players)

    monkeypatch.setattr(storage.stats, "names_of", counted)
    s2 = make(**TIMED)
    restored = await s2.restore()
    assert len(restored) == 4
    assert queries == [2] and s2.names_in(GUILD) == {"g": "G", "h": "H"}
    await s2.load_all(restored)  # what the bot does before showing every table again
    assert queries == [2, 6]
    assert s2.names_in(GUILD) == {u: u.upper() for u in "abcdefgh"}


async def test_an_untimed_game_is_restored_unread_and_plays_on(make, storage, decoded):
    game_id, before = await started(make, turn_seconds=None)  # no turn timer: no deadline
    assert (await storage.games.get(game_id)).deadline is None
    s2 = make(turn_seconds=None)
    assert await s2.restore() == [game_id]
    table = s2.table(game_id)
    assert not table.loaded and decoded == [] and table.timer is None
    user = before.seats[before.turn]
    hand = await s2.hand(game_id, user)
    played = await s2.play(game_id, user, hand.legal[0], hand.version)
    assert played.version == 4 and len(decoded) == 1


async def test_a_game_with_no_deadline_whose_ai_is_to_act_gets_one(clock, make, storage, decoded):
    s1 = make(turn_seconds=None, bot_delay=3600, clock=clock.now)
    await s1.open_lobby(GUILD, CHANNEL, "a", RULES, bots=["easy"])
    table = await s1.start(CHANNEL, "a")
    if table.seats[table.turn] == "a":
        await play_turn(s1, table.game_id)
    ai = table.turn
    await s1.close()
    await storage.games.update(table.game_id, deadline=None)  # as a game saved long ago
    s2 = make(turn_seconds=None, bot_delay=2, clock=clock.now)
    await s2.restore()
    again = s2.table(table.game_id)
    assert again.deadline == clock.now() + 2 and decoded == []  # from the stored state alone
    version = again.version
    await clock.advance(1.9)
    # Not before its deadline: still the call armed at restore, not its task; nothing read.
    assert isinstance(again.timer, asyncio.TimerHandle) and decoded == []
    await clock.advance(0.1)
    await wait_for(lambda: again.version > version)  # the AI played on
    assert (await storage.games.moves(table.game_id))[-1]["seat"] == ai


async def test_a_timer_that_cannot_read_its_game_tries_again(clock, make, storage, monkeypatch):
    game_id, _ = await started(make, turn_seconds=60, clock=clock.now)
    await storage.games.update(game_id, deadline=0.0)  # ran out while the bot was down
    real = storage.games.get
    failed: list[int] = []

    async def flaky(wanted):
        if not failed:
            failed.append(wanted)
            raise RuntimeError("the database is away")
        return await real(wanted)

    monkeypatch.setattr(storage.games, "get", flaky)
    s2 = make(turn_seconds=60, restore_grace=0, retry_seconds=5, clock=clock.now)
    await s2.restore()
    table = s2.table(game_id)
    await wait_for(lambda: table.failures == 1)  # due at once: failed, and armed again
    assert failed == [game_id] and table.deadline == clock.now() + 5
    await clock.advance(4)
    # The retry waits its 5 s: still the call armed, not its task.
    assert isinstance(table.timer, asyncio.TimerHandle) and not table.loaded
    await clock.advance(1)
    await wait_for(lambda: table.version == 4)  # read and played at the second try
    assert failed == [game_id] and table.loaded
