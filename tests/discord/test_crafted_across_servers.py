"""A button's custom_id is the client's: a seated player can copy one of their game's ids and
press it in another server. Every family that names a game refuses it there, from one place
(bot/adapter/registry.py), and nothing happens to the game."""

from __future__ import annotations

import pytest

from bot.ui import ids

from .helpers import buttons, labels, open_hand, start_game, text_of, whose_turn
from .play import bot_message, game_id_of, playable

OTHER_SERVER = "That button belongs to a game in another server: nothing happened here."


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


def test_every_family_that_names_a_game_is_checked():
    """The check covers a family by its template: one that names a game cannot skip it."""
    from bot.adapter.registry import NAMES_A_GAME

    naming = {kind for kind, t in ids.TEMPLATES.items() if "(?P<game>" in t.pattern}
    assert naming == NAMES_A_GAME
    assert {"lobby", "table", "move", "hint", "pick", "card", "back", "confirm"} <= NAMES_A_GAME
