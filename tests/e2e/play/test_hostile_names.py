"""Hostile nicknames at a real table (issue 24, item 18): the move log, the table, the hands
and the end screen show them as typed, and no bot message pings @everyone."""

from __future__ import annotations

from tests.e2e.support.helpers import (
    buttons,
    enabled,
    is_over,
    moves_of,
    open_hand,
    start_game,
    text_of,
)
from tests.support.hostile import check_text

LINK = "[Free Nitro](https://evil.example)"
EVERYONE = "@everyone \u202eevil\u200b # big"


async def test_hostile_nicknames_are_shown_as_typed_and_ping_nobody(simcord_env, guild, channel):
    env = simcord_env
    ann = guild.add_member(env.create_user("ann"), nick=LINK)
    bob = guild.add_member(env.create_user("bob"), nick=EVERYONE)
    table = await start_game(channel, [ann, bob])
    hands = []
    for _ in range(12):  # whoever's turn it is plays their first move
        for player in (ann, bob):
            hand = await open_hand(table, player)
            hands.append(hand)
            move = next((b for b in moves_of(hand) if b in enabled(hand)), None)
            if move is not None and not is_over(table):
                await player.click(hand, custom_id=move["custom_id"])

    log = text_of(table)
    assert "\\[Free Nitro\\](https://evil.example)" in log  # the move log names ann
    for message in [*channel.history(), *hands]:
        check_text(text_of(message), (str(ann.id), str(bob.id)))
        assert not getattr(message, "mention_everyone", False)
        assert not getattr(message, "role_mentions", [])
        for b in buttons(message):
            assert "\u202e" not in (b.get("label") or "")
