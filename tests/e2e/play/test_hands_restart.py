"""An open hand keeps following its game across a restart, to its end screen: its interaction
token is kept in storage with its expiry (and dropped once expired)."""

from __future__ import annotations

from tests.e2e.conftest import BOTH_BACKENDS, make_bot
from tests.e2e.support.helpers import (
    buttons,
    enabled,
    is_over,
    moves_of,
    open_hand,
    start_game,
    text_of,
    whose_turn,
)

pytestmark = BOTH_BACKENDS


async def restart(env, db_path) -> None:
    await env.bot.app.presenter.close()
    await env.restart_bot(make_bot(db_path))


async def test_an_open_hand_follows_its_game_across_restarts_to_the_end(
    simcord_env, db_path, channel, players
):
    env, two = simcord_env, players[:2]
    table = await start_game(channel, two)
    hands = {m.id: await open_hand(table, m) for m in two}
    await restart(env, db_path)

    moves = 0
    while not is_over(table):
        player = whose_turn(table, two)
        hand = hands[player.id]
        # The hand that waited out the restart woke up for this turn: its moves are live.
        assert "**Your turn**" in text_of(hand), text_of(hand)
        assert enabled(hand) and moves_of(hand)
        await player.click(
            hand, custom_id=next(b for b in moves_of(hand) if not b.get("disabled"))["custom_id"]
        )
        moves += 1
        if moves == 3:
            await restart(env, db_path)  # once more, mid-game
    for member in two:
        words = text_of(hands[member.id])
        assert "Your turn" not in words and not enabled(hands[member.id]), words
    assert any(b.get("custom_id") for b in buttons(table))  # the end screen (Record, Rematch)
    assert await env.bot.storage.hand_tokens.live() == []  # done with: dropped


async def test_a_hand_is_stored_when_opened_not_at_each_edit(simcord_env, channel, players):
    """A move edits every open hand, and each click brings a new token; storage hears of a
    hand only when it is opened (its token changes with the message, or when half its life is
    gone), so a move costs no write for the hands (issue 33)."""
    two = players[:2]
    table = await start_game(channel, two)
    storage = simcord_env.bot.storage
    kept: list[object] = []
    keep = storage.hand_tokens.keep

    async def counted(item) -> None:
        kept.append(item)
        await keep(item)

    storage.hand_tokens.keep = counted
    hands = {m.id: await open_hand(table, m) for m in two}
    await simcord_env.settle()
    assert len(kept) == 2  # one per hand opened
    for _ in range(6):
        player = whose_turn(table, two)
        hand = hands[player.id]
        await player.click(hand, custom_id=moves_of(hand)[0]["custom_id"])
    await simcord_env.settle()
    assert len(kept) == 2, f"{len(kept)} writes for 2 hands and 6 moves"
    stored = {t.user_id: t for t in await storage.hand_tokens.live()}
    assert set(stored) == {str(m.id) for m in two}  # both hands still follow the game
