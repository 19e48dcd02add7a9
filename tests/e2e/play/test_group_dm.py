"""A game in a group DM (issue 36, item 2): the bot is no member there, so the game runs on
interaction tokens alone, and the bot token is never used, not even once."""

from __future__ import annotations

from tests.e2e.conftest import BOTH_BACKENDS
from tests.e2e.support.gdm_play import play_to_end, start, table_of
from tests.e2e.support.group_dm import TokenPlace
from tests.e2e.support.helpers import is_over, table_text, title


@BOTH_BACKENDS
async def test_a_three_player_game_by_clicks_uses_no_bot_token(simcord_env, monkeypatch):
    ann, bob, cat = (simcord_env.create_user(n) for n in ("ann", "bob", "cat"))
    gdm = TokenPlace.group_dm(simcord_env, monkeypatch, [ann, bob, cat], installer=ann)
    await start(gdm, [ann, bob, cat])  # bob and cat never installed the app
    moves = await play_to_end(gdm, [ann, bob, cat], pace=20.0)
    table = table_of(gdm, bob)
    assert moves > 10 and is_over(table) and "game over" in title(table), table_text(table)
    assert gdm.bot_token_calls() == [] and gdm.refused == []
    assert gdm.over_cap == [] and max(gdm.followups.values()) <= 5
    # Recorded with no server, on the group's own board (its channel).
    storage = simcord_env.bot.app.storage
    rows = await storage.fetchall("SELECT guild_id, board_id, channel_id FROM history")
    assert [tuple(r) for r in rows] == [(None, gdm.channel_id, gdm.channel_id)]
    # A rematch from the end screen: the group's game, found on its board.
    again = await gdm.click(cat, table, label="Rematch")
    assert not again.ephemeral and "Players (3/" in table_text(again.response), again
    assert gdm.bot_token_calls() == [] and simcord_env.errors == []


@BOTH_BACKENDS
async def test_a_friend_who_did_not_install_the_app_joins_by_a_click(simcord_env, monkeypatch):
    ann, bob = simcord_env.create_user("ann"), simcord_env.create_user("bob")
    gdm = TokenPlace.group_dm(simcord_env, monkeypatch, [ann, bob], installer=ann)
    lobby = (await gdm.slash(ann, "steal new")).response
    assert not lobby.ephemeral and "Players (1/" in table_text(lobby)
    joined = await gdm.click(bob, lobby, label="Join")
    assert not joined.ephemeral
    assert "Players (2/" in table_text(lobby) and "bob" in table_text(lobby)
    assert gdm.bot_token_calls() == [] and simcord_env.errors == []


@BOTH_BACKENDS
async def test_a_game_in_a_server_where_only_a_player_installed_the_app(
    simcord_env, monkeypatch, channel, players
):
    """The bot is no member of that server: the same tokens-only game, on the server's
    board, whatever permissions the bot would lack there."""
    two = players[:2]
    here = TokenPlace.user_server(simcord_env, monkeypatch, channel, two, installer=two[0])
    await start(here, two)
    await play_to_end(here, two, pace=20.0)
    assert is_over(table_of(here, two[0]))
    assert here.bot_token_calls() == [] and here.refused == [] and here.over_cap == []
    assert simcord_env.errors == []


async def test_a_cancelled_group_dm_game_says_so_through_its_anchor(simcord_env, monkeypatch):
    ann, bob = simcord_env.create_user("ann"), simcord_env.create_user("bob")
    gdm = TokenPlace.group_dm(simcord_env, monkeypatch, [ann, bob], installer=ann)
    await start(gdm, [ann, bob])
    table = table_of(gdm, ann)
    asked = await gdm.slash(ann, "steal cancel")
    await gdm.click(ann, asked.response, label="Yes, cancel the game")
    assert "cancelled" in table_text(table).lower(), table_text(table)
    assert gdm.bot_token_calls() == [] and gdm.refused == [] and simcord_env.errors == []
