"""Two copies of one player's hand: the older is deleted when the newer opens, and a click made
on the older just before its delete landed must neither fail nor take the live hand away
(issue 32, item 15)."""

from __future__ import annotations

import logging

import pytest
from simcord.backend import serializers
from simcord.components import walk_components
from simcord.enums import ComponentType, InteractionType
from simcord.interactions import base_payload
from simcord.results import InteractionResult

from tests.e2e.support.helpers import (
    buttons,
    enabled,
    gone,
    moves_of,
    start_game,
    text_of,
    whose_turn,
)
from tests.e2e.support.play import game_id_of, open_hand, stored_moves


def shown_as(env, message) -> dict:
    """The message as a client shows it now: what a click made on it carries."""
    stored = env.backend.get_message(message.channel_id, message.id)
    return dict(serializers.message_payload(env.backend, stored))


def press(env, member, shown: dict, custom_id: str) -> tuple[InteractionResult, str]:
    """A click on a message as the client showed it (`shown`), delivered now, even if the
    message was deleted since: Discord took the click before the delete landed."""
    record, payload = base_payload(
        env.backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=int(shown["channel_id"]),
        guild_id=member.guild.id,
        user_id=member.id,
        data={"custom_id": custom_id, "component_type": ComponentType.BUTTON},
    )
    payload["message"] = shown
    record.source_message_id = int(shown["id"])
    env.backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record), record.token


def answered(env, token: str) -> list[tuple[int | None, str]]:
    """What the bot sent for one interaction: (callback type, or None for a later edit or
    follow-up; its words), in order."""
    out = []
    for r in env.http_requests:
        if f"/{token}" not in r.path or not isinstance(r.json, dict):
            continue
        callback = r.path.endswith("/callback")
        data = r.json.get("data", r.json) if callback else r.json
        if not isinstance(data, dict):
            continue
        layout = data.get("components") or []
        words = [c["content"] for c in walk_components(layout) if c.get("type") == 10]
        kind = r.json.get("type") if callback else None
        out.append((kind, data.get("content") or "\n".join(words)))
    return out


@pytest.mark.parametrize("known", [True, False], ids=["deleted-here", "unknown-here"])
async def test_a_click_on_a_deleted_copy_answers_privately_and_the_live_hand_stays(
    simcord_env, channel, players, caplog, known
):
    """Three presses: one on the deleted older copy, two on the newer. `unknown-here`: the bot
    no longer knows it deleted that copy (as after a restart); Discord's 404 tells it."""
    env, two = simcord_env, players[:2]
    table = await start_game(channel, two)
    game_id = game_id_of(table)
    player = whose_turn(table, two)
    older = await open_hand(player, table)
    older_shown = shown_as(env, older)  # the player's screen still shows it
    newer = await open_hand(player, table)
    assert gone(env, older)  # the newer copy replaced it
    move = moves_of(newer)[0]["custom_id"]
    assert move in [b["custom_id"] for b in moves_of(older)]

    if not known:
        env.bot.app.presenter.hands.deleted.clear()
    caplog.set_level(logging.WARNING)
    presses = [
        press(env, player, older_shown, move),  # made before the delete landed
        press(env, player, shown_as(env, newer), move),
        press(env, player, shown_as(env, newer), move),
    ]
    await env.settle()

    assert len(await stored_moves(env, game_id)) == 1  # the move counted once
    said = {token: answered(env, token) for _, token in presses}
    everything = [words for each in said.values() for _, words in each]
    assert not any("Something went wrong" in w for w in everything), everything
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    # The deleted copy's click: a new private message that says what happened (after an
    # edit that Discord refused, where the bot did not know the copy was gone).
    *_, (kind, words) = said[presses[0][1]]
    assert kind == 4, said[presses[0][1]]  # a new message, not an edit of the deleted one
    assert presses[0][0].ephemeral
    assert "copy of your hand" in words, words
    assert "try again" not in words.lower(), words
    # The live hand stays, and shows the game as it is.
    assert not gone(env, newer)
    assert whose_turn(table, two) is not player
    assert "Your turn" not in text_of(env.backend.get_message(newer.channel_id, newer.id))


class Tokenless:
    """An interaction as a stand-in may hand it over: everything but a token."""

    token = ""

    def __init__(self, interaction) -> None:
        self._interaction = interaction

    def __getattr__(self, name: str):
        return getattr(self._interaction, name)


@pytest.mark.bot_options(turn_seconds=None)
async def test_a_hand_shown_without_a_token_is_the_players_hand_and_redrawn_at_next_click(
    simcord_env, channel, players
):
    """Nothing can edit a hand shown by an interaction without a token (issue 32, item 17):
    it is still the player's hand. The older copy goes (only the newest is left), their turn
    ping offers My hand since no hand of theirs follows the game, and their next click on it
    redraws it as the game stands."""
    env, two = simcord_env, players[:2]
    table = await start_game(channel, two)
    first = whose_turn(table, two)
    second = next(m for m in two if m is not first)
    older = await open_hand(second, table)
    presenter = env.bot.app.presenter
    real = presenter.remember_hand
    presenter.remember_hand = lambda g, u, i, *a, **k: real(g, u, Tokenless(i), *a, **k)
    try:
        shown = await open_hand(second, table)
    finally:
        presenter.remember_hand = real
    assert gone(env, older)  # only the newest copy is left

    mine = await open_hand(first, table)
    await first.click(mine, custom_id=moves_of(mine)[0]["custom_id"])
    pings = [m for m in channel.history() if m.content.startswith(second.mention)]
    assert pings, "no turn ping: the bot took an older copy for the hand they look at"
    assert [b["label"] for b in buttons(pings[-1])] == ["My hand"]

    assert not enabled(shown)  # drawn before their turn, and nothing could wake it up
    fresh = (await second.click(pings[-1], label="My hand")).response
    assert fresh.ephemeral and "**Your turn**" in text_of(fresh)
    assert [b for b in moves_of(fresh) if not b.get("disabled")]
