import pytest

from tests.e2e.support.helpers import play_to_end, start_game, table_text

# Whole games through the buttons: every preset and every player count, but not all 15
# combinations (tests/engine/test_properties.py plays all 15 in the engine, and any rules).
# These five, with the games other tests play to the end through Discord, cover
#   standard with 2 (test_results, and many more), 3 (test_timers_and_restarts, across a
#   restart), 4;
#   classic with 2 (test_results, with a playoff), 3;   friendly with 2, 3 (test_results);
#   casita with 4, rubamazzo with 3: counterclockwise only shows with 3 or more players.
GAMES = [("standard", 4), ("classic", 3), ("casita", 4), ("rubamazzo", 3), ("friendly", 2)]


@pytest.mark.parametrize(("rules", "n"), GAMES)
async def test_whole_games(simcord_env, channel, players, n, rules):
    table = await start_game(channel, players[:n], rules=rules)
    moves = await play_to_end(table, players[:n])
    print(n, rules, moves, table_text(table))


# On PostgreSQL one of them: what a game stores does not depend on its rules, and the whole
# games of test_results, test_timers_and_restarts and the others run on both backends.
@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_a_whole_game_on_postgresql(simcord_env, database, channel, players):
    await test_whole_games(simcord_env, channel, players, 4, "standard")
