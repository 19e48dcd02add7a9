"""Discord's global limit (50 bot-token requests a second per bot, across every process) is
what a busy bot runs out of; interaction endpoints (callbacks, /webhooks/{app}/{token}/...)
are exempt. At a human pace a move costs at most one global request, the table edit, and none
while Start's token lives (it edits the table): pings go only where they help, through a
click's interaction token, and are deleted through it. SQLite only: what a move costs Discord
is the same on either backend."""

from __future__ import annotations

import pytest

from bot.adapter.presenter.intake import NUDGE_AFTER
from tests.e2e.support.helpers import (
    buttons,
    is_over,
    labels,
    moves_of,
    open_hand,
    play_one,
    start_game,
    text_of,
    whose_turn,
)
from tests.e2e.support.play import game_id_of

PING = "your turn in Steal the Bundle!"
PACE = 6.0  # seconds between moves: people thinking


def is_global(path: str) -> bool:
    """A bot-token request: anything but an interaction callback or an interaction webhook."""
    return not (path.startswith("/interactions/") or path.startswith("/webhooks/"))


def global_requests(env, since: int = 0) -> list[str]:
    return [f"{r.method} {r.path}" for r in env.http_requests[since:] if is_global(r.path)]


def the_table(env, channel):
    """A live view of the newest message with a My hand button that is not a turn ping."""
    from simcord.results import ResponseMessage

    newest = next(
        m for m in reversed(channel.history()) if "My hand" in labels(m) and PING not in m.content
    )
    return ResponseMessage(env, env.backend.get_message(channel.id, newest.id))


def pings(channel) -> list:
    return [m for m in channel.history() if PING in m.content]


async def test_a_three_player_game_costs_at_most_one_global_request_a_move(
    simcord_env, channel, players
):
    env, three = simcord_env, players[:3]
    before = len(env.http_requests)
    table = await start_game(channel, three)
    first = whose_turn(table, three)
    (ping,) = pings(channel)  # nobody has a hand open yet: the first player is pinged
    assert ping.content.startswith(first.mention) and "My hand" in [
        b["label"] for b in buttons(ping)
    ]

    hands: dict = {}
    moves = 0
    while not is_over(table):
        player = whose_turn(table, three)
        hand = hands.get(player.id)
        if hand is None:  # their first turn: pinged with My hand, as they had no hand open
            assert pings(channel)[-1].content.startswith(player.mention)
            hand = hands[player.id] = await open_hand(table, player)
        seen = {p.id for p in pings(channel)}
        move = next(b for b in moves_of(hand) if not b.get("disabled"))
        await player.click(hand, custom_id=move["custom_id"])
        moves += 1
        await env.advance_time(PACE)
        nxt = whose_turn(table, three)
        if nxt is not None and nxt.id in hands:  # their open hand woke up: no new ping
            assert "**Your turn**" in text_of(hands[nxt.id])
            assert not [p for p in pings(channel) if p.id not in seen]

    spent = global_requests(env, before)
    per_move = len(spent) / moves
    print(f"\n{moves} moves, {len(spent)} global requests: {per_move:.2f} a move")
    assert per_move <= 1.0, (per_move, spent[:10])
    assert not [r for r in spent if r.startswith(f"PATCH /channels/{channel.id}/")]  # see below
    assert len(pings(channel)) <= 1  # old pings were deleted (through their tokens)


async def test_an_idle_player_is_nudged(simcord_env, channel, players):
    env, three = simcord_env, players[:3]
    table = await start_game(channel, three)
    hands = {m.id: await open_hand(table, m) for m in three}
    player = whose_turn(table, three)
    await player.click(hands[player.id], custom_id=moves_of(hands[player.id])[0]["custom_id"])
    nxt = whose_turn(table, three)
    assert "**Your turn**" in text_of(hands[nxt.id])
    assert not pings(channel)  # their open hand woke up: no ping yet

    await env.advance_time(NUDGE_AFTER + 1)  # they sit idle
    (ping,) = pings(channel)
    assert ping.content.startswith(nxt.mention)
    assert buttons(ping) == []  # their hand is open: nothing to click here


async def test_no_ping_for_a_lone_person_who_just_moved(simcord_env, channel, players):
    env, ann = simcord_env, players[0]
    table = (await ann.slash(channel, "steal new", bots=1)).response
    await ann.click(table, label="Start")
    hand = await open_hand(table, ann)
    for _ in range(3):
        while whose_turn(table, [ann]) is not ann:
            await env.advance_time(1.0)  # the AI plays
        seen = {p.id for p in pings(channel)}
        move = next(b for b in moves_of(hand) if not b.get("disabled"))
        await ann.click(hand, custom_id=move["custom_id"])
        await env.advance_time(5.0)  # the AI answers: it is ann's turn again
        assert not [p for p in pings(channel) if p.id not in seen]  # and nobody pinged her


async def test_the_table_is_edited_through_the_start_clicks_token(simcord_env, channel, players):
    """Start's answer made the lobby message the table, so that click's token edits it
    ("@original") without a global request while it lives; if Discord fails that, the bot's
    token edits it, then and from then on."""
    env, two = simcord_env, players[:2]
    table = await start_game(channel, two)
    token = env.bot.app.presenter.channels[game_id_of(table)].table_token[0]
    hook = f"/webhooks/*/{token}/messages/@original"
    by_bot = f"PATCH /channels/{channel.id}/messages/{table.id}"
    hands: dict = {}

    def edits(since: int) -> list[str]:
        return [f"{r.method} {r.path}" for r in env.http_requests[since:] if r.method == "PATCH"]

    before, mover = len(env.http_requests), whose_turn(table, two)
    await play_one(table, two, hands)
    assert whose_turn(table, two) is not mover  # the move is on the table
    assert [e for e in edits(before) if e.endswith(f"/{token}/messages/@original")]
    assert by_bot not in edits(before) and not global_requests(env, before)

    env.inject_error("PATCH", hook, status=500, times=1)
    before, mover = len(env.http_requests), whose_turn(table, two)
    await play_one(table, two, hands)
    assert whose_turn(table, two) is not mover  # shown all the same
    assert by_bot in edits(before)
    before = len(env.http_requests)
    await play_one(table, two, hands)
    assert by_bot in edits(before)  # the bot's token from then on


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("how", ["button", "command"])
async def test_a_game_started_by_the_command_costs_no_more_than_by_the_button(
    simcord_env, channel, players, how, seats
):
    """/steal start answers with the table, so its token edits the table as Start's does: a
    move costs no global request either way (the command's one: the lobby message becomes a
    link to the table)."""
    env, members = simcord_env, players[:seats]
    host, *others = members
    lobby = (await host.slash(channel, "steal new")).response
    for m in others:
        await m.click(lobby, label="Join")
    before = len(env.http_requests)
    if how == "button":
        await host.click(lobby, label="Start")
    else:
        await host.slash(channel, "steal start")
    table = the_table(env, channel)
    hands: dict = {}
    moves = 0
    while not is_over(table):
        await play_one(table, members, hands)
        moves += 1
        await env.advance_time(PACE)

    spent = global_requests(env, before)
    per_move = len(spent) / moves
    print(f"\n{how}, {seats} players: {moves} moves, {len(spent)} global: {per_move:.2f} a move")
    assert f"PATCH /channels/{channel.id}/messages/{table.id}" not in spent, spent[:5]
    assert len(spent) <= 1 and per_move <= 0.05, spent[:5]
