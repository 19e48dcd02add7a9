import random
from itertools import count

from bot.engine import new_game, preset, replay, to_dict
from bot.engine.playout import play_out

from .play import finish


def played(seats, seed):
    return play_out(new_game(preset("standard"), seats, seed=seed), random.Random(seed))


async def test_history_lists_by_guild_and_by_player_newest_first(storage):
    ticks = count(1000)
    storage.clock = lambda: float(next(ticks))
    tables = [
        (1, ["a", "b"]),
        (1, ["b", "c", "d"]),
        (2, ["a", "c"]),
        (1, ["a", "d"]),
        (2, ["b", "a"]),
    ]
    ids = []
    for seed, (guild, seats) in enumerate(tables):
        game = played(seats, seed)
        row = await storage.games.create(guild, 10 + seed, seats[0], {}, state=to_dict(game))
        assert await finish(storage, row.id, game)
        ids.append(row.id)

    guild1 = await storage.history.by_guild(1)
    assert [e.game_id for e in guild1] == [ids[3], ids[1], ids[0]]
    assert [e.game_id for e in await storage.history.by_guild(1, limit=2, offset=1)] == [
        ids[1],
        ids[0],
    ]
    assert [e.game_id for e in await storage.history.by_player("a")] == [
        ids[4],
        ids[3],
        ids[2],
        ids[0],
    ]
    assert [e.game_id for e in await storage.history.by_player("a", board_id=2)] == [ids[4], ids[2]]
    assert [e.game_id for e in await storage.history.by_player("a", limit=1, offset=1)] == [ids[3]]
    assert await storage.history.by_player("nobody") == []

    entry = await storage.history.get(ids[1])
    assert (entry.guild_id, entry.channel_id, entry.seats) == (1, 11, ("b", "c", "d"))
    assert entry.finished_at < guild1[0].finished_at
    game = replay(entry.record)  # the stored record is a complete, valid engine record
    assert entry.record["result"] == game.result.to_dict()
    assert entry.winners == tuple(game.seats[s] for s in game.result.winners)
    assert await storage.history.get(999) is None
