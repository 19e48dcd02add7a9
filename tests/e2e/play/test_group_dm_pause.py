"""A group-DM game with no click for 15 minutes (issue 36, item 2): its tokens run out, so it
pauses before they do, nobody is played for, and the first click on its table resumes it. No
token ever sends a sixth follow-up."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import BOTH_BACKENDS
from tests.e2e.support.gdm_play import play_one, play_to_end, start, table_of
from tests.e2e.support.group_dm import TokenPlace
from tests.e2e.support.helpers import buttons, table_text, whose_turn

# A turn longer than a token's life: only the pause can stop the game from waiting.
pytestmark = pytest.mark.bot_options(turn_seconds=20 * 60)


@BOTH_BACKENDS
async def test_a_pause_after_15_idle_minutes_then_a_resume_by_a_click(simcord_env, monkeypatch):
    env = simcord_env
    ann, bob = env.create_user("ann"), env.create_user("bob")
    gdm = TokenPlace.group_dm(env, monkeypatch, [ann, bob], installer=ann)
    await start(gdm, [ann, bob])
    sessions = env.bot.app.sessions
    table = sessions.table_of(sessions.channels[gdm.channel_id])
    assert "Paused" not in table_text(table_of(gdm, ann))

    await env.advance_time(15 * 60)  # no click: every token of the game ran out
    shown = table_of(gdm, ann)
    assert "⏸ Paused" in table_text(shown) and table.paused
    await env.advance_time(30 * 60)  # past the turn's deadline: nobody is played for
    assert table.version == 0 and table.forfeited == set() and table.autos == {}

    player = whose_turn(shown, [ann, bob])
    mine = next(b["custom_id"] for b in buttons(shown) if ":table:hand:" in b["custom_id"])
    await gdm.click(player, shown, custom_id=mine)  # the first click on it
    resumed = table_of(gdm, ann)
    assert "▶ Resumed" in table_text(resumed) and not table.paused
    assert table.deadline is not None and table.deadline > env.bot.app.sessions.clock() + 60
    await play_one(gdm, [ann, bob], {})
    assert table.version == 1
    assert gdm.bot_token_calls() == [] and gdm.refused == [] and env.errors == []


@BOTH_BACKENDS
async def test_no_token_ever_sends_a_sixth_followup(simcord_env, monkeypatch):
    """Four players at a slow pace: many turn pings and reposts, each a follow-up of some
    click's token; none of them a sixth of its token."""
    env = simcord_env
    people = [env.create_user(n) for n in ("ann", "bob", "cat", "dan")]
    gdm = TokenPlace.group_dm(env, monkeypatch, people, installer=people[0])
    await start(gdm, people)
    await play_to_end(gdm, people, pace=45.0)
    assert sum(gdm.followups.values()) > 10  # pings and reposts did go as follow-ups
    assert gdm.over_cap == [] and max(gdm.followups.values()) <= 5
    assert gdm.bot_token_calls() == [] and env.errors == []


@pytest.mark.bot_options(turn_seconds=30)
async def test_timed_moves_ping_through_one_token_at_most_five_times(simcord_env, monkeypatch):
    """One click, then nobody: the turn timer plays for everyone, and every turn ping would
    go through that click's token, the only one alive; it sends five at most."""
    env = simcord_env
    people = [env.create_user(n) for n in ("ann", "bob", "cat", "dan")]
    gdm = TokenPlace.group_dm(env, monkeypatch, people, installer=people[0])
    await start(gdm, people)
    await play_one(gdm, people, {})
    sessions = env.bot.app.sessions
    table = sessions.table_of(sessions.channels[gdm.channel_id])
    for _ in range(20):  # a turn at a time: each settles within its own limit when busy
        await env.advance_time(30)
    assert table.version > 8  # timed moves
    assert gdm.over_cap == [] and max(gdm.followups.values()) == 5
    assert gdm.bot_token_calls() == [] and env.errors == []


@pytest.mark.bot_options(lobby_seconds=None)  # a lobby that never expires
async def test_a_lobby_outlives_its_tokens_and_a_click_still_starts_it(simcord_env, monkeypatch):
    env = simcord_env
    ann, bob = env.create_user("ann"), env.create_user("bob")
    gdm = TokenPlace.group_dm(env, monkeypatch, [ann, bob], installer=ann)
    lobby = (await gdm.slash(ann, "steal new")).response
    await env.advance_time(20 * 60)  # every token ran out: nothing to show, nothing broken
    await gdm.click(bob, lobby, label="Join")
    await gdm.click(ann, lobby, label="Start")
    await play_one(gdm, [ann, bob], {})
    assert gdm.bot_token_calls() == [] and env.errors == []


@BOTH_BACKENDS
@pytest.mark.bot_options(lobby_seconds=20 * 60)  # it runs out after every token did
async def test_a_lobby_past_its_time_closes_at_the_first_click(simcord_env, monkeypatch):
    """Its expiry found no token to say so, so it waited; the first click on it closes it
    then, saying why, rather than letting anyone join or start a lobby past its time."""
    env = simcord_env
    ann, bob = env.create_user("ann"), env.create_user("bob")
    gdm = TokenPlace.group_dm(env, monkeypatch, [ann, bob], installer=ann)
    lobby = (await gdm.slash(ann, "steal new")).response
    await env.advance_time(25 * 60)
    sessions = env.bot.app.sessions
    assert sessions.channels.get(gdm.channel_id) is not None  # still open: nothing said it
    await gdm.click(bob, lobby, label="Join")
    words = table_text(lobby)
    assert "lobby closed" in words and "Nobody started this game within 20 min" in words
    assert buttons(lobby) == [] and sessions.channels.get(gdm.channel_id) is None
    assert (await gdm.slash(bob, "steal new")).response is not None  # the place is free
    assert gdm.bot_token_calls() == [] and gdm.refused == [] and env.errors == []
