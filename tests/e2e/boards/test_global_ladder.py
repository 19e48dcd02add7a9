"""The global ladder (issue 36, item 5) as members see it: `/steal leaderboard scope:global`
ranks every rated game in every place, names only the people who chose it with
`/steal profile` (everyone else is "a player"), `/steal stats` tells your global rank, and
`/steal forget-me` takes you off it; every new message within Discord's limits in the four
languages."""

from __future__ import annotations

import random
import re

import pytest

from bot.engine import new_game, preset, to_dict
from bot.engine.playout import play_out
from bot.ui import ids
from tests.e2e.conftest import BOTH_BACKENDS
from tests.e2e.support import payload_limits as limits
from tests.e2e.support.helpers import buttons, play_to_end, start_game
from tests.e2e.support.screens import text
from tests.storage.play import finish

pytestmark = pytest.mark.usefixtures("commands_in_words")

ANONYMOUS = "a player"
LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr", "it": "it"}
ROW = re.compile(r"^(?:`#(\d+)`|(🥇|🥈|🥉)) (.+?) · \*\*", re.M)
MEDALS = {"🥇": 1, "🥈": 2, "🥉": 3}


def ladder_rows(message) -> list[tuple[int, str]]:
    """(rank, name) of each row of a ladder page."""
    return [(int(n) if n else MEDALS[medal], name) for n, medal, name in ROW.findall(text(message))]


async def seeded(storage, guild_id: int, channel_id: int, seats: list[str], seed: int) -> None:
    """A game finished straight through storage, as the session finishes one."""
    game = play_out(new_game(preset("standard"), seats, seed=seed), random.Random(seed))
    row = await storage.games.create(guild_id, channel_id, seats[0], {}, state=to_dict(game))
    assert await finish(storage, row.id, game)


@pytest.fixture
async def two_servers(simcord_env, guild, channel, players):
    """ann and bob finish a game here through the buttons; in another server ann plays cat."""
    env = simcord_env
    ann, bob, cat, _ = players
    away = env.create_guild()
    away_channel = away.create_text_channel("cards")
    ann_away, cat_away = away.add_member(ann.user), away.add_member(cat.user)
    table = await start_game(channel, [ann, bob])
    await play_to_end(table, [ann, bob])
    await seeded(env.bot.storage, away.id, away_channel.id, [str(ann.id), str(cat.id)], 1)
    return away_channel, ann_away, cat_away


@BOTH_BACKENDS
async def test_the_global_ladder_names_only_those_who_chose_it(
    simcord_env, guild, channel, players, two_servers
):
    ann, bob, cat, _ = players
    away_channel, ann_away, cat_away = two_servers
    ladder = simcord_env.bot.storage.ladder
    # The server's own board has the game played here only; the ladder has both places.
    here = (await bob.slash(channel, "steal leaderboard")).response
    assert cat.name not in text(here)
    board = (await bob.slash(channel, "steal leaderboard", scope="global")).response
    assert not board.ephemeral
    words = text(board)
    assert words.startswith("### 🌍 Global ladder\n")
    assert ladder_rows(board) == [(1, ANONYMOUS), (2, ANONYMOUS), (3, ANONYMOUS)]
    assert all(m.name not in words for m in (ann, bob, cat))  # hidden by default
    assert (await ladder.entry(str(ann.id))).games == 2  # both places counted

    shown = await ann.slash(channel, "steal profile", global_name="show")
    assert shown.ephemeral
    assert shown.response.content == (
        "Your name now shows on the global ladder as **ann**. `/steal profile` with **hide** "
        "hides it again."
    )
    seen = (await cat_away.slash(away_channel, "steal leaderboard", scope="global")).response
    rank = (await ladder.entry(str(ann.id))).rank
    assert (rank, "ann") in ladder_rows(seen)
    assert [name for _, name in ladder_rows(seen)].count(ANONYMOUS) == 2

    status = await ann_away.slash(away_channel, "steal profile")
    assert status.response.content == "Your name shows on the global ladder as **ann**."
    hidden = await ann.slash(channel, "steal profile", global_name="hide")
    assert hidden.response.content == (
        "Your name is now hidden on the global ladder: you appear there as “a player”."
    )
    again = (await bob.slash(channel, "steal leaderboard", scope="global")).response
    assert "ann" not in [name for _, name in ladder_rows(again)]
    assert await ladder.profile(str(ann.id)) == (False, "")  # a hidden name is not kept


@BOTH_BACKENDS
async def test_stats_tell_your_global_rank_and_others_only_if_they_show_it(
    simcord_env, guild, channel, players, two_servers
):
    ann, bob, _, _ = players
    ladder = simcord_env.bot.storage.ladder
    rank = (await ladder.entry(str(ann.id))).rank
    mine = await ann.slash(channel, "steal stats")
    assert mine.ephemeral
    words = text(mine.response)
    assert f"🌍 Global ladder: **#{rank}** of 3 players" in words
    assert "You appear there as “a player”: `/steal profile` shows your name." in words
    # Her rank would tell bob which anonymous row is hers: not shown until she shows her name.
    hers = (await bob.slash(channel, "steal stats", member=ann)).response
    assert "Global ladder" not in text(hers)
    await ann.slash(channel, "steal profile", global_name="show")
    theirs = text((await bob.slash(channel, "steal stats", member=ann)).response)
    assert f"🌍 Global ladder: **#{rank}** of 3 players" in theirs
    assert "You appear there" not in theirs


@BOTH_BACKENDS
async def test_forget_me_takes_you_off_the_global_ladder_and_deletes_your_profile(
    simcord_env, guild, channel, players, two_servers
):
    ann, bob, _, _ = players
    ladder = simcord_env.bot.storage.ladder
    await ann.slash(channel, "steal profile", global_name="show")
    asked = await ann.slash(channel, "steal forget-me")
    await ann.click(asked.response, label="Delete my data")
    assert asked.response.content.startswith("Done: what this bot kept about you is deleted.")
    assert await ladder.entry(str(ann.id)) is None
    assert await ladder.profile(str(ann.id)) is None
    board = (await bob.slash(channel, "steal leaderboard", scope="global")).response
    assert ladder_rows(board) == [(1, ANONYMOUS), (2, ANONYMOUS)]
    assert "ann" not in text(board)


async def test_games_against_ai_alone_leave_the_ladder_alone(simcord_env, guild, channel, players):
    ann = players[0]
    table = await start_game(channel, [ann], bots=1, difficulty="easy")
    await play_to_end(table, [ann])
    assert await simcord_env.bot.storage.ladder.entry(str(ann.id)) is None
    board = (await ann.slash(channel, "steal leaderboard", scope="global")).response
    assert text(board) == (
        "### 🌍 Global ladder\nNobody has finished a rated game with another person yet. "
        "Start one with `/steal new`!"
    )


@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_every_new_message_is_within_discords_limits(
    simcord_env, guild, channel, players, locales, lang
):
    env = simcord_env
    ann, bob = players[:2]
    for member in (ann, bob):
        locales[member.id] = LOCALES[lang]
    await env.bot.storage.settings.set(guild.id, "language", lang)
    people = [str(10**17 + i) for i in range(24)]  # three pages of people
    for n in range(12):
        await seeded(env.bot.storage, guild.id, channel.id, people[2 * n : 2 * n + 2], n)
    await seeded(env.bot.storage, guild.id, channel.id, [str(ann.id), people[0]], 99)
    start = len(env.http_requests)

    await ann.slash(channel, "steal profile", global_name="show")
    await ann.slash(channel, "steal profile")
    board = (await bob.slash(channel, "steal leaderboard", scope="global")).response
    pager = [b["custom_id"] for b in buttons(board) if not b.get("disabled")]
    assert pager == [ids.board(ids.GLOBAL, 2)]
    await bob.click(board, custom_id=pager[0])
    await bob.click(board, custom_id=ids.board(ids.GLOBAL, 3))
    await ann.slash(channel, "steal leaderboard", scope="global", page=40)  # past the end
    await ann.slash(channel, "steal stats")
    await ann.slash(channel, "steal profile", global_name="hide")
    await ann.slash(channel, "steal stats")
    await ann.slash(channel, "steal profile")

    sent = limits.sent_messages(env.http_requests[start:])
    assert len(sent) >= 9
    found = [f"{where}: {p}" for where, m in sent for p in limits.message_problems(m)]
    assert found == []
    if lang != "en":  # the words are the language's: no English left in
        assert "Global ladder" not in text(board) and ANONYMOUS not in text(board)


async def test_the_global_ladder_refuses_a_sort_or_season_it_has_not(simcord_env, channel, players):
    """It ranks by rating over all time: asked for another order or a season, it says so
    rather than show a board that looks like the one asked for."""
    ann = players[0]
    for asked in ({"sort": "wins"}, {"season": 1}, {"sort": "cards", "season": 2}):
        said = await ann.slash(channel, "steal leaderboard", scope="global", **asked)
        assert said.ephemeral, asked
        assert said.response.content.startswith(
            "The global ladder ranks everyone by rating over all time: it has no **sort** or "
            "**season** to pick. Leave them out, or leave out **scope** for this place's board"
        ), said.response.content
    board = await ann.slash(channel, "steal leaderboard", scope="global", sort="rating")
    assert not board.ephemeral and text(board.response).startswith("### 🌍 Global ladder\n")
