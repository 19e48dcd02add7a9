"""One language per game (docs/playing.md, "Languages"). A server that fixes its language
gets it in every message of its games, ephemeral ones included, whatever language each
member's client is in; a card has one label and an AI seat one name on every screen of a game;
commands are named as mentions, which each reader's Discord shows in their own language."""

from __future__ import annotations

import re

import pytest

from tests.e2e.support.helpers import (
    alt_text,
    buttons,
    is_over,
    moves_of,
    table_text,
    text_of,
    whose_turn,
)
from tests.e2e.support.screens import text as screen_text

# Words no Italian message has and nearly every English one does.
ENGLISH = re.compile(
    r"\b(the|your|you|turn|hand|cards?|play|plays|played|with|this|not|hint|trail|capture)\b",
    re.IGNORECASE,
)


def english(text: str, *names: str) -> list[str]:
    for name in names:
        text = text.replace(name, "")
    return ENGLISH.findall(text)


def button_by(message, part: str) -> dict:
    return next(b for b in buttons(message) if part in (b.get("custom_id") or ""))


@pytest.fixture
async def italian(simcord_env, guild):
    """The server fixes Italian; every member's client is in English (SimCord's en-US)."""
    await simcord_env.bot.sessions.records.set_setting(guild.id, "language", "it")


async def test_a_fixed_language_game_reads_italian_everywhere(
    simcord_env, guild, channel, players, italian
):
    ann, cat = players[0], players[2]
    lobby = (
        await ann.slash(channel, "steal new", rules="rubamazzo", bots=1, difficulty="medium")
    ).response
    table = lobby
    started = await ann.click(lobby, custom_id=button_by(lobby, ":start:")["custom_id"])
    assert started.response is not None
    assert "Bot medio" in alt_text(table)  # the picture's description names the seats
    seen: list[str] = [table_text(table), alt_text(table)]

    # A member who is not playing clicks the table: the error is Italian too.
    foreign = await cat.click(table, custom_id=button_by(table, ":table:hand:")["custom_id"])
    seen.append(foreign.response.content)

    hand = await ann.click(table, custom_id=button_by(table, ":table:hand:")["custom_id"])
    hand = hand.response
    seen += [text_of(hand), alt_text(hand)]
    hands = [text_of(hand)]
    hint = next((b for b in buttons(hand) if ":hint:" in (b.get("custom_id") or "")), None)
    assert hint is not None, text_of(hand)
    told = await ann.click(hand, custom_id=hint["custom_id"])
    seen.append(told.response.content)

    # The card Ann plays reads the same in her hand and in the table's log.
    while not is_over(table):
        if whose_turn(table, [ann]) is not ann:
            await simcord_env.advance_time(5)
            continue
        move = next(b for b in moves_of(hand) if not b.get("disabled"))
        seen.append(move["label"])
        card = move["label"].split(" ", 1)[0]
        await ann.click(hand, custom_id=move["custom_id"])
        seen += [text_of(hand), alt_text(hand)]
        hands.append(text_of(hand))
        if not is_over(table):
            log = table_text(table) + "\n" + alt_text(table)  # the last moves are in both
            assert "ann " in log and card in log, (card, log)
            seen.append(log)
    seen.append(table_text(table))
    # One name for the bot, on the table and in the hand (which names it while it plays).
    assert any("Bot medio" in h for h in hands), hands

    replay = await ann.slash(channel, "steal replay")
    seen.append(screen_text(replay.response))
    for shown in seen:
        assert not english(shown or "", "ann", "cat"), shown


async def test_the_table_names_commands_as_mentions(simcord_env, guild, channel, players, italian):
    ann = players[0]
    lobby = (await ann.slash(channel, "steal new", bots=1)).response
    await ann.click(lobby, custom_id=button_by(lobby, ":start:")["custom_id"])
    footer = table_text(lobby).splitlines()[-1]
    assert re.search(r"</steal rules:\d+>$", footer), footer
    assert "/ruba regole" not in footer
