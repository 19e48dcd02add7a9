"""What a group-DM game costs Discord (issue 36's acceptance): requests per move, through the
bot token (none) and through interaction tokens, for 2 and 4 players at a human pace; and the
longest idle time before it pauses. The figures print with -s:

    .venv/bin/python -m pytest -p no:randomly -q -n0 -s tests/e2e/play/test_group_dm_requests.py
"""

from __future__ import annotations

import pytest

from tests.e2e.support.gdm_play import bot_token_calls, play_one, play_to_end, start, table_of
from tests.e2e.support.group_dm import TokenPlace
from tests.e2e.support.helpers import table_text

PACE = 20.0  # seconds between two moves: a person reading the table, then clicking


@pytest.mark.parametrize("players", [2, 4])
async def test_requests_per_move_at_a_human_pace(simcord_env, monkeypatch, players):
    env = simcord_env
    people = [env.create_user(n) for n in ("ann", "bob", "cat", "dan")[:players]]
    gdm = TokenPlace.group_dm(env, monkeypatch, people, installer=people[0])
    await start(gdm, people)
    before = gdm.total
    moves = await play_to_end(gdm, people, pace=PACE)
    per_move = (gdm.total - before) / moves
    tables = sum(1 for m in gdm.seen_by(people[0]) if "moved" in table_text(m))
    print(
        f"\n{players} players, a move every {PACE:.0f} s: {moves} moves, "
        f"{len(bot_token_calls(gdm))} bot-token requests, "
        f"{per_move:.2f} interaction requests a move ({gdm.total - before} in all), "
        f"{sum(gdm.followups.values())} follow-ups, the table reposted {tables} times, "
        f"at most {max(gdm.followups.values())} follow-ups from one token"
    )
    assert bot_token_calls(gdm) == [] and gdm.over_cap == []
    assert per_move < 6  # the click's answer, the table's edit, a ping, another's hand


@pytest.mark.bot_options(turn_seconds=None)  # nobody played for: the pause alone ends the wait
async def test_the_longest_idle_time_before_a_pause(simcord_env, monkeypatch):
    """After the last click, the game waits until its anchor (or a fresher token) is about
    to run out: then it pauses."""
    env = simcord_env
    people = [env.create_user(n) for n in ("ann", "bob")]
    gdm = TokenPlace.group_dm(env, monkeypatch, people, installer=people[0])
    await start(gdm, people)
    await play_one(gdm, people, {})
    sessions = env.bot.app.sessions
    table = sessions.table_of(sessions.channels[gdm.channel_id])
    last = sessions.clock()
    while not table.paused:
        await env.advance_time(5)
        assert sessions.clock() - last < 16 * 60
    idle = sessions.clock() - last
    print(f"\nidle before the pause: {idle / 60:.1f} min ({idle:.0f} s after the last click)")
    assert "⏸ Paused" in table_text(table_of(gdm, people[0]))
    assert 12 * 60 <= idle <= 14 * 60
