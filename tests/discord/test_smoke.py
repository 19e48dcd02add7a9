from .helpers import play_to_end, start_game


async def test_two_player_game(simcord_env, channel, players):
    table = await start_game(channel, players[:2])
    moves = await play_to_end(table, players[:2])
    print(moves, table.embeds[0].to_dict())
