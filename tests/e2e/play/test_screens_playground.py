"""The playground as a newcomer meets it: a welcome, members with real names, and English that
reads right through a whole game."""

from __future__ import annotations

import re

from simcord.results import ResponseMessage

from bot.playground import MEMBERS, build_world, welcome
from tests.e2e.support.helpers import buttons as row_buttons
from tests.e2e.support.helpers import enabled, is_over, whose_turn
from tests.e2e.support.screens import text


async def test_a_whole_playground_game_never_reads_you_s(simcord_env, simcord_bot):
    channel, members = build_world(simcord_env)
    await welcome(simcord_bot, channel.id)
    assert [m.name for m in members] == ["ann", "bob", "cat"] == list(MEMBERS)
    [first] = channel.history()
    assert "Type `/steal new`" in first.content

    ann, bob, cat = members
    seen: list[str] = []  # every message a member was shown, ephemeral ones too

    async def act(result) -> ResponseMessage:
        seen.append(text(result.response))
        return result.response

    lobby = await act(await ann.slash(channel, "steal new"))
    await bob.click(lobby, label="Join")
    await cat.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    table, hands, moves = lobby, {}, 0
    while not is_over(table):
        player = whose_turn(table, members)
        if player.id not in hands:
            mine = next(
                b["custom_id"] for b in row_buttons(table) if ":table:hand:" in b["custom_id"]
            )
            hands[player.id] = await act(await player.click(table, custom_id=mine))
        hand = hands[player.id]  # opened once: it follows the game by itself from then on
        first = enabled(hand)[0]["custom_id"]
        assert ":move:" in first, first  # its first button is a move of this turn
        shown = await act(await player.click(hand, custom_id=first))
        # That one click played the move: nothing left to choose, no second click.
        assert not any(":back:" in (b.get("custom_id") or "") for b in row_buttons(shown))
        seen.append(text(table))
        moves += 1
        assert moves < 200
    seen += [text(m) for m in channel.history()]
    seen.append(text(await act(await ann.slash(channel, "steal history"))))
    seen.append(text(await act(await bob.slash(channel, "steal stats"))))

    everything = "\n".join(seen)
    assert "ann" in everything and "bob" in everything and "cat" in everything
    assert not re.search(r"\byou's\b", everything, re.IGNORECASE), "you's"
    assert "**you**" not in everything and "@you" not in everything


async def test_history_dates_use_discords_clock(simcord_env, simcord_bot):
    """SimCord's clock is not the computer's: a game finished now is dated now, not weeks
    away (the playground once said "in 48 weeks")."""
    channel, (ann, bob, _) = build_world(simcord_env)
    from tests.e2e.support.helpers import play_to_end, start_game

    await play_to_end(await start_game(channel, [ann, bob]), [ann, bob])
    shown = text((await ann.slash(channel, "steal history")).response)
    stamps = [int(s) for s in re.findall(r"<t:(\d+):[a-zA-Z]>", shown)]
    now = simcord_env.now().timestamp()
    assert stamps and all(now - 3600 <= s <= now for s in stamps), (stamps, now)
