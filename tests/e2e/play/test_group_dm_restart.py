"""A group-DM game survives a restart like any other (issue 36, item 7): its anchor, the token
that shows its table, is kept in storage, so the restarted bot goes on showing it through that
token; and only the process holding shard 0 (where Discord sends interactions without a
guild) restores it."""

from __future__ import annotations

import pytest

from bot.shards import Shards
from tests.e2e.conftest import BOTH_BACKENDS, make_bot
from tests.e2e.support.gdm_play import bot_token_calls, play_one, play_to_end, start, table_of
from tests.e2e.support.group_dm import TokenPlace
from tests.e2e.support.helpers import buttons, is_over, table_text, whose_turn


async def restart(env, db_path, **options) -> None:
    await env.bot.app.presenter.close()
    await env.restart_bot(make_bot(db_path, **options))


@BOTH_BACKENDS
async def test_a_restart_in_the_middle_of_a_group_dm_game(simcord_env, db_path, monkeypatch):
    env = simcord_env
    people = [env.create_user(n) for n in ("ann", "bob", "cat")]
    gdm = TokenPlace.group_dm(env, monkeypatch, people, installer=people[0])
    await start(gdm, people)
    hands: dict = {}
    for _ in range(4):
        await play_one(gdm, people, hands)
        await env.advance_time(30)
    before = table_text(table_of(gdm, people[0]))
    await restart(env, db_path)
    sessions = env.bot.app.sessions
    game = sessions.channels[gdm.channel_id]
    assert sessions.table_of(game).tokens_only and sessions.anchors.alive(game)
    await play_to_end(gdm, people, pace=20.0)
    assert is_over(table_of(gdm, people[0])) and table_text(table_of(gdm, people[0])) != before
    assert bot_token_calls(gdm) == [] and gdm.refused == [] and gdm.over_cap == []
    assert env.errors == []


@BOTH_BACKENDS
async def test_a_group_dm_game_is_restored_by_the_process_holding_shard_0(
    simcord_env, db_path, monkeypatch
):
    env = simcord_env
    people = [env.create_user(n) for n in ("ann", "bob")]
    gdm = TokenPlace.group_dm(env, monkeypatch, people, installer=people[0])
    await start(gdm, people)
    game = env.bot.app.sessions.channels[gdm.channel_id]
    await restart(env, db_path, sync=False, shards=Shards(2, (1,)))
    assert env.bot.app.sessions.table_of(game) is None  # not this process's
    await restart(env, db_path, sync=False, shards=Shards(2, (0,)))
    assert env.bot.app.sessions.table_of(game) is not None
    await play_one(gdm, people, {})
    assert bot_token_calls(gdm) == [] and env.errors == []


@BOTH_BACKENDS
async def test_a_group_dm_lobby_survives_a_restart(simcord_env, db_path, monkeypatch):
    env = simcord_env
    ann, bob = env.create_user("ann"), env.create_user("bob")
    gdm = TokenPlace.group_dm(env, monkeypatch, [ann, bob], installer=ann)
    lobby = (await gdm.slash(ann, "steal new")).response
    await restart(env, db_path)
    await gdm.click(bob, lobby, label="Join")  # its answer edits the lobby: no other token
    assert "bob" in table_text(lobby)
    await gdm.click(ann, lobby, label="Start")
    await play_one(gdm, [ann, bob], {})
    assert bot_token_calls(gdm) == [] and gdm.refused == [] and env.errors == []


@BOTH_BACKENDS
@pytest.mark.bot_options(turn_seconds=20 * 60)
async def test_a_resumed_game_keeps_its_new_deadline_across_a_restart(
    simcord_env, db_path, monkeypatch
):
    """A resume gives the seat to act a whole turn; that deadline is stored, so a restart
    right after keeps it (not the one from before the pause)."""
    env = simcord_env
    ann, bob = env.create_user("ann"), env.create_user("bob")
    gdm = TokenPlace.group_dm(env, monkeypatch, [ann, bob], installer=ann)
    await start(gdm, [ann, bob])
    sessions = env.bot.app.sessions
    game = sessions.channels[gdm.channel_id]
    await env.advance_time(15 * 60)  # paused
    shown = table_of(gdm, ann)
    assert "⏸ Paused" in table_text(shown)
    mine = next(b["custom_id"] for b in buttons(shown) if ":table:hand:" in b["custom_id"])
    await gdm.click(whose_turn(shown, [ann, bob]), shown, custom_id=mine)
    deadline = sessions.table_of(game).deadline
    assert deadline is not None and deadline > sessions.clock() + 19 * 60
    await restart(env, db_path, turn_seconds=20 * 60)
    (row,) = await env.bot.app.storage.games.rows([game])
    assert row.deadline == pytest.approx(deadline, abs=1)
    assert env.errors == []


@BOTH_BACKENDS
@pytest.mark.bot_options(turn_seconds=20 * 60)
async def test_a_restored_table_nobody_touched_says_it_paused_then_resumed(
    simcord_env, db_path, monkeypatch
):
    """After a restart the table is not read until used; when its anchor is about to die
    all the same, the table still says it paused (through that anchor), and the first
    click on it says it resumed."""
    env = simcord_env
    ann, bob = env.create_user("ann"), env.create_user("bob")
    gdm = TokenPlace.group_dm(env, monkeypatch, [ann, bob], installer=ann)
    await start(gdm, [ann, bob])
    await play_one(gdm, [ann, bob], {})
    await restart(env, db_path, turn_seconds=20 * 60)
    await env.advance_time(15 * 60)  # nobody clicks: the anchor runs out
    shown = table_of(gdm, ann)
    sessions = env.bot.app.sessions
    assert "⏸ Paused" in table_text(shown)
    assert sessions.table_of(sessions.channels[gdm.channel_id]).paused
    mine = next(b["custom_id"] for b in buttons(shown) if ":table:hand:" in b["custom_id"])
    await gdm.click(whose_turn(shown, [ann, bob]), shown, custom_id=mine)
    assert "▶ Resumed" in table_text(table_of(gdm, ann))
    await play_one(gdm, [ann, bob], {})
    assert bot_token_calls(gdm) == [] and gdm.refused == [] and env.errors == []


@BOTH_BACKENDS
@pytest.mark.bot_options(turn_seconds=30)
async def test_a_restart_never_makes_a_token_send_a_sixth_followup(
    simcord_env, db_path, monkeypatch
):
    """One click, then the turn timer plays on, pinging through the game's tokens; after a
    restart they go on through the anchor (its count stored) alone, and none gets Discord's
    refusal of a sixth (the unit tests in tests/adapter/presenter/test_anchor.py show the
    counts that make it so)."""
    env = simcord_env
    people = [env.create_user(n) for n in ("ann", "bob", "cat", "dan")]
    gdm = TokenPlace.group_dm(env, monkeypatch, people, installer=people[0])
    await start(gdm, people)
    await play_one(gdm, people, {})
    await env.advance_time(90)  # timed moves, each pinged
    assert max(gdm.followups.values()) >= 3
    await restart(env, db_path, turn_seconds=30)
    for _ in range(10):  # a turn at a time: each settles within its own limit when busy
        await env.advance_time(30)
    assert gdm.over_cap == [] and max(gdm.followups.values()) <= 5
    assert bot_token_calls(gdm) == [] and env.errors == []
