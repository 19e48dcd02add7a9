"""A button's custom_id is the client's: a seated player can copy one of their game's ids and
press it in another server. Every family that names a game refuses it there, from one place
(bot/adapter/registry.py), and nothing happens to the game."""

from __future__ import annotations

import pytest

from bot.ui import ids
from tests.e2e.support.helpers import (
    buttons,
    labels,
    open_hand,
    plain,
    play_to_end,
    start_game,
    text_of,
    whose_turn,
)
from tests.e2e.support.play import bot_message, game_id_of, playable
from tests.e2e.support.replays import UNKNOWN as NO_REPLAY

NOT_HERE = "That game was not played here. /steal history lists the ones that were."
NO_RECORD = "I have no record of that game here. Only games finished here have one."

OTHER_SERVER = "That button belongs to a game somewhere else: nothing happened here."


@pytest.fixture
def two_servers(simcord_env):
    """ann and bob are members of servers A and B; their game is in A."""
    env = simcord_env
    a, b = env.create_guild("A"), env.create_guild("B")
    users = [env.create_user(n) for n in ("ann", "bob")]
    in_a = [a.add_member(u) for u in users]
    in_b = [b.add_member(u) for u in users]
    return a.create_text_channel("games"), in_a, b.create_text_channel("games"), in_b


def the_same(member, members):
    return next(m for m in members if m.name == member.name)


async def test_a_move_copied_to_another_server_is_not_played(simcord_env, two_servers):
    room_a, in_a, room_b, in_b = two_servers
    table = await start_game(room_a, in_a)
    game_id = game_id_of(table)
    player = whose_turn(table, in_a)
    hand = await open_hand(table, player)
    move_id = playable(hand)[0]["custom_id"]
    version = simcord_env.bot.sessions.table_of(game_id).version
    crafted = bot_message(simcord_env, room_b, [move_id, ids.hint(game_id, version)])

    for custom_id in (move_id, ids.hint(game_id, version)):
        result = await the_same(player, in_b).click(crafted, custom_id=custom_id)
        assert result.ephemeral and text_of(result.response).startswith(OTHER_SERVER)

    assert simcord_env.bot.sessions.table_of(game_id).version == version  # nothing played
    assert await simcord_env.bot.storage.games.moves(game_id) == []
    # In its own server the same button plays.
    await player.click(hand, custom_id=move_id)
    assert simcord_env.bot.sessions.table_of(game_id).version > version


async def test_lobby_buttons_copied_to_another_server_do_nothing(simcord_env, two_servers):
    room_a, in_a, room_b, in_b = two_servers
    ann, bob = in_a
    lobby = (await ann.slash(room_a, "steal new")).response
    join = next(b["custom_id"] for b in buttons(lobby) if b.get("label") == "Join")
    lobby_id = ids.parse(join).game_id
    crafted = bot_message(simcord_env, room_b, [join, ids.lobby("start", lobby_id)])

    result = await the_same(bob, in_b).click(crafted, custom_id=join)
    assert text_of(result.response).startswith(OTHER_SERVER)
    result = await the_same(ann, in_b).click(crafted, custom_id=ids.lobby("start", lobby_id))
    assert text_of(result.response).startswith(OTHER_SERVER)
    assert simcord_env.bot.sessions.lobby_of(lobby_id).seats == [str(ann.id)]  # bob not in
    assert "Join" in labels(lobby)  # still a lobby: not started


async def test_a_replay_or_record_of_another_servers_game_is_unknown_running_or_finished(
    simcord_env, two_servers
):
    """docs/playing.md#replays: a replay button or number from another server gets "I have no
    replay of that game here", whether that game still runs there or has finished: the answer
    says nothing of another server's games (docs/privacy.md)."""
    room_a, in_a, room_b, in_b = two_servers
    table = await start_game(room_a, in_a)
    game_id = game_id_of(table)
    ann_in_b = the_same(in_a[0], in_b)
    replay, record, rematch = ids.replay(game_id, 0), ids.record(game_id), ids.rematch(game_id)
    crafted = bot_message(simcord_env, room_b, [replay, record, rematch])

    async def answers() -> list[str]:
        results = [
            await ann_in_b.click(crafted, custom_id=replay),
            await ann_in_b.slash(room_b, "steal replay", game=game_id),
            await ann_in_b.click(crafted, custom_id=record),
            await ann_in_b.click(crafted, custom_id=rematch),
        ]
        assert all(r.ephemeral for r in results)
        return [plain(text_of(r.response)) for r in results]

    unknown = [NO_REPLAY, NO_REPLAY, NO_RECORD, NOT_HERE]
    assert await answers() == unknown  # still running in A
    await play_to_end(table, in_a)
    assert await answers() == unknown  # finished in A
    assert not simcord_env.bot.sessions.lobbies  # no rematch lobby opened in B
    assert crafted.content == "crafted"  # nothing of the game was shown


def test_every_family_that_names_a_game_is_checked():
    """The check covers a family by its template: one that names a game cannot skip it. The
    families of finished games are checked by their handlers, which read them from storage and
    answer another server's game as an unknown one."""
    from bot.adapter.registry import FINISHED_GAMES, NAMES_A_GAME

    naming = {kind for kind, t in ids.TEMPLATES.items() if "(?P<game>" in t.pattern}
    assert naming == NAMES_A_GAME | FINISHED_GAMES
    assert {"replay", "record", "rematch"} == FINISHED_GAMES
    assert {"lobby", "table", "move", "hint", "pick", "card", "back", "confirm"} <= NAMES_A_GAME
