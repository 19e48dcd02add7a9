import pytest

from .helpers import play_to_end, start_game, table_text


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("rules", ["standard", "classic", "casita", "rubamazzo", "friendly"])
async def test_whole_games(simcord_env, channel, players, n, rules):
    table = await start_game(channel, players[:n], rules=rules)
    moves = await play_to_end(table, players[:n])
    print(n, rules, moves, table_text(table))
