"""/steal leaderboard, stats and history, the leaderboard's page buttons and the Record button,
as members see them."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from bot.domain import ratings as game_stats
from bot.engine import new_game, preset, to_dict
from bot.engine.playout import play_out
from bot.ui import ids
from tests.e2e.support.boards import SEEDED, TABLES, bot_message, rows, seed
from tests.e2e.support.helpers import labels, play_to_end, start_game
from tests.e2e.support.screens import buttons as v2_buttons
from tests.e2e.support.screens import figures, images, text
from tests.storage.play import finish

# These tests read commands as words: see the fixture.
pytestmark = pytest.mark.usefixtures("commands_in_words")

EMPTY_BOARD = "Nobody has finished a game here yet. Start one with `/steal new`!"
NO_RECORD = "I have no record of that game here. Only games finished here have one."
# Each sort's order, written out independently of the SQL: best first, ties by user id.
KEYS = {
    "rating": lambda p: (-p.ordinal, -p.wins, p.user_id),
    "wins": lambda p: (-p.wins, -p.ordinal, p.user_id),
    "cards": lambda p: (-p.cards, -p.ordinal, p.user_id),
    "win_rate": lambda p: (-p.wins / p.games, -p.games, -p.ordinal, p.user_id),
}


# ----- helpers


def answered_errors(env) -> list[str]:
    """Errors slash commands raised (SimCord records them even when answered); reading them
    here acknowledges them."""
    return [type(getattr(e, "original", e)).__name__ for e in env.errors]


def names_on(message) -> list[str]:
    return [r[1] for r in rows(message)]


def state(message) -> dict[str, bool]:
    """Label -> enabled, for the page buttons."""
    return {b["label"]: not b.get("disabled") for b in v2_buttons(message)}


def fields(embed) -> dict[str, str]:
    return {f.name: f.value for f in embed.fields}


async def expected_order(storage, guild_id: int, sort: str) -> list[str]:
    players = [await storage.stats.get(guild_id, u) for u in SEEDED]
    return [SEEDED[p.user_id] for p in sorted(players, key=KEYS[sort])]


async def seat_numbers(storage, guild_id: int, user_id: str) -> dict[str, Any]:
    """A player's totals, added up from the stored records of the games they finished."""
    games = wins = cards = steals = biggest = 0
    for entry in await storage.history.by_player(user_id, board_id=guild_id, limit=100):
        seat = entry.seats.index(user_id)
        per_seat = game_stats.seat_stats(entry.record)[seat]
        games += 1
        wins += user_id in entry.winners
        cards += entry.record["result"]["bundle_sizes"][seat]
        steals += per_seat.steals
        biggest = max(biggest, per_seat.biggest_steal)
    return {"games": games, "wins": wins, "cards": cards, "steals": steals, "biggest": biggest}


@pytest.fixture
async def played(simcord_env, channel, players):
    """Two finished games: ann against bob, played through the buttons, then ann against cat,
    finished through storage (each game played with the buttons takes seconds). Returns their
    history entries, oldest first."""
    ann, bob, cat, _ = players
    await play_to_end(await start_game(channel, [ann, bob]), [ann, bob])
    seats = [str(ann.id), str(cat.id)]
    game = play_out(new_game(preset("standard"), seats, seed=7), random.Random(7))
    storage = simcord_env.bot.storage
    row = await storage.games.create(
        channel.guild.id, channel.id, seats[0], {}, state=to_dict(game)
    )
    assert await finish(storage, row.id, game, names={seats[1]: "cat"})
    entries = await storage.history.by_guild(channel.guild.id)
    assert len(entries) == 2
    return entries[::-1]


# ----- /steal leaderboard


async def test_leaderboard_pages_with_previous_and_next(simcord_env, guild, channel, players):
    ann, bob, cat, _ = players
    storage = simcord_env.bot.storage
    await seed(storage, guild.id, channel.id)
    order = await expected_order(storage, guild.id, "rating")

    result = await ann.slash(channel, "steal leaderboard")

    assert not result.ephemeral  # the board is for everyone
    board = result.response
    assert text(board).startswith("### 🏆 Steal the Bundle leaderboard\n-# Sorted by **rating**")
    assert "-# Page 1 of 2 · 12 players" in text(board)
    assert [r[0] for r in rows(board)] == list(range(1, 11))
    assert names_on(board) == order[:10]
    assert state(board) == {"Previous": False, "Next": True}

    # anyone may turn the page; the same message changes
    turned = await bob.click(board, label="Next")
    assert turned.acknowledged and not turned.ephemeral
    assert [r[0] for r in rows(board)] == [11, 12]
    assert names_on(board) == order[10:]
    assert "-# Page 2 of 2 · 12 players" in text(board)
    assert state(board) == {"Previous": True, "Next": False}
    assert [m.id for m in channel.history()].count(board.id) == 1

    await cat.click(board, label="Previous")
    assert names_on(board) == order[:10]
    assert state(board) == {"Previous": False, "Next": True}

    # a page past the end shows the last one, and says so
    far = (await ann.slash(channel, "steal leaderboard", page=7)).response
    assert "-# There are only 2 pages; here is the last." in text(far)
    assert names_on(far) == order[10:]
    assert state(far) == {"Previous": True, "Next": False}
    assert answered_errors(simcord_env) == []


@pytest.mark.parametrize("sort", ids.SORTS)
async def test_every_sort_order(simcord_env, guild, channel, players, sort):
    storage = simcord_env.bot.storage
    await seed(storage, guild.id, channel.id)

    first = (await players[0].slash(channel, "steal leaderboard", sort=sort)).response
    assert f"Sorted by **{sort.replace('_', ' ')}**" in text(first)
    await players[0].click(first, label="Next")
    board = rows(first)
    second = (await players[0].slash(channel, "steal leaderboard", sort=sort, page=1)).response
    board = rows(second) + board

    assert [name for _, name, *_ in board] == await expected_order(storage, guild.id, sort)
    ids_by_name = {name: user for user, name in SEEDED.items()}
    for _, name, rating, games, wins, rate, cards in board:
        p = await storage.stats.get(guild.id, ids_by_name[name])
        assert (rating, games, wins, cards) == (f"{p.rating:,}", p.games, p.wins, p.cards)
        assert rate == round(100 * p.wins / p.games)
    column = {"rating": 2, "wins": 4, "cards": 6, "win_rate": 5}[sort]
    shown = [
        float(str(row[column]).replace(",", "")) for row in board
    ]  # the rows really are in that order, as shown
    assert shown == sorted(shown, reverse=True) and len(set(shown)) > 1
    # the seeded games rank the players differently by each sort, so no sort can pass for another
    assert len({tuple(await expected_order(storage, guild.id, s)) for s in ids.SORTS}) == 4


async def test_empty_board_and_members_who_never_played(simcord_env, channel, players):
    ann, _, _, dan = players

    board = await ann.slash(channel, "steal leaderboard")
    assert not board.ephemeral
    assert text(board.response) == f"### 🏆 Steal the Bundle leaderboard\n{EMPTY_BOARD}"
    assert v2_buttons(board.response) == []

    own = await dan.slash(channel, "steal stats")
    assert own.ephemeral
    assert own.response.content == (
        "You haven't finished a game here yet. Start one with `/steal new`!"
    )
    other = await ann.slash(channel, "steal stats", member=dan)
    assert other.ephemeral
    assert other.response.content == (
        "dan hasn't finished a game here yet. Start one with `/steal new`!"
    )
    history = await ann.slash(channel, "steal history")
    assert history.ephemeral
    assert history.response.content == (
        "No game has finished here yet. Start one with `/steal new`!"
    )
    theirs = await ann.slash(channel, "steal history", member=dan)
    assert theirs.response.content.startswith("dan hasn't finished a game here yet.")
    assert answered_errors(simcord_env) == []


# ----- /steal stats


async def test_stats_add_up_the_games_played(simcord_env, guild, channel, players, played):
    ann, bob, cat, _ = players
    storage = simcord_env.bot.storage

    result = await ann.slash(channel, "steal stats")

    assert result.ephemeral
    assert text(result.response).startswith("## 📊 ann (you): Steal the Bundle stats\n")
    assert images(result.response) == ["stats.png"]
    got = figures(result.response)
    want = await seat_numbers(storage, guild.id, str(ann.id))
    assert want["games"] == 2
    assert got["Games"] == "2"
    assert got["Wins"] == str(want["wins"])
    assert got["Win rate"] == f"{want['wins'] / 2:.0%}"
    assert got["Cards collected"] == str(want["cards"])
    assert got["Steals"] == str(want["steals"])
    assert got["Biggest steal"] == (
        f"{want['biggest']} card{'' if want['biggest'] == 1 else 's'}"
        if want["biggest"]
        else "none yet"
    )
    ratings = {m: (await storage.stats.get(guild.id, str(m.id))).rating for m in (ann, bob, cat)}
    assert got["Rating"] == f"{ratings[ann]:,}"
    better = sum(r > ratings[ann] for r in ratings.values())
    assert got["Rank"] == f"#{better + 1} of 3"

    bobs = await ann.slash(channel, "steal stats", member=bob)
    assert bobs.ephemeral
    assert text(bobs.response).startswith("## 📊 bob: Steal the Bundle stats\n")  # not "(you)"
    bob_fields = figures(bobs.response)
    bob_want = await seat_numbers(storage, guild.id, str(bob.id))
    assert bob_fields["Games"] == "1"
    assert bob_fields["Cards collected"] == str(bob_want["cards"])
    assert bob_fields["Wins"] == str(bob_want["wins"])


# ----- /steal history and the Record button


def game_lines(entry, names: dict[str, str]) -> str:
    """What a history entry should say, worked out from the record."""
    sizes = entry.record["result"]["bundle_sizes"]
    order = sorted(range(len(entry.seats)), key=lambda s: (entry.places[s], -sizes[s], s))
    players = " · ".join(f"{names[entry.seats[s]]} {sizes[s]} cards" for s in order)
    winners = [names[u] for u in entry.winners]
    won = (
        f"🏆 Winner: {winners[0]}" if len(winners) == 1 else f"🏆 Shared win: {', '.join(winners)}"
    )
    t = int(entry.finished_at)
    return f"<t:{t}:d> (<t:{t}:R>)\n{players}\n{won}"


async def test_history_of_the_server_and_of_a_member(simcord_env, channel, players, played):
    _, bob, cat, _ = players
    names = {str(m.id): m.name for m in players}
    first, second = played

    result = await cat.slash(channel, "steal history")

    assert result.ephemeral
    shown = result.response
    embed = shown.embeds[0]
    assert embed.title == "Steal the Bundle: Last games here"
    assert fields(embed) == {
        f"Game #{second.game_id}": game_lines(second, names),
        f"Game #{first.game_id}": game_lines(first, names),
    }
    assert labels(shown) == [
        f"Game file #{second.game_id}", f"Game file #{first.game_id}",
        f"Replay #{second.game_id}", f"Replay #{first.game_id}",
    ]  # fmt: skip

    bobs = (await cat.slash(channel, "steal history", member=bob)).response
    assert bobs.embeds[0].title == "Steal the Bundle: bob's last games"
    assert fields(bobs.embeds[0]) == {f"Game #{first.game_id}": game_lines(first, names)}
    assert labels(bobs) == [f"Game file #{first.game_id}", f"Replay #{first.game_id}"]
    assert answered_errors(simcord_env) == []


async def test_record_button_sends_the_game_record_privately(simcord_env, channel, players, played):
    ann, bob, cat, _ = players
    first, second = played
    history = (await cat.slash(channel, "steal history")).response

    result = await cat.click(history, label=f"Game file #{first.game_id}")

    assert result.ephemeral
    reply = result.response
    assert reply.content.startswith(f"The record of game #{first.game_id}, finished <t:")
    (attachment,) = reply.attachments
    assert attachment.filename == f"steal-the-bundle-{first.game_id}.json"
    record = json.loads(await attachment.read())
    assert record["format"] == "steal-the-bundle/1"
    assert sorted(record["seats"]) == sorted([str(ann.id), str(bob.id)])
    assert record == first.record
    assert reply.id not in [m.id for m in channel.history()]  # nobody else sees it

    again = await cat.click(history, label=f"Game file #{second.game_id}")
    assert json.loads(await again.response.attachments[0].read()) == second.record


async def test_records_of_other_servers_and_unknown_games_are_refused(
    simcord_env, guild, channel, players
):
    storage = simcord_env.bot.storage
    other = simcord_env.create_guild()
    (foreign,) = await seed(storage, other.id, other.create_text_channel("x").id, TABLES[:1])
    (local,) = await seed(storage, guild.id, channel.id, TABLES[1:2])
    crafted = bot_message(
        simcord_env, channel, [ids.record(foreign), ids.record(999), ids.record(local)]
    )

    for refused in (ids.record(foreign), ids.record(999)):
        result = await players[0].click(crafted, custom_id=refused)
        assert result.ephemeral, refused
        assert result.response.content == NO_RECORD, refused
        assert result.response.attachments == [], refused
    sent = await players[0].click(crafted, custom_id=ids.record(local))
    (attachment,) = sent.response.attachments
    assert json.loads(await attachment.read())["seats"] == list(TABLES[1])
    assert answered_errors(simcord_env) == []


# ----- members who left


async def test_a_member_who_left_is_still_listed_by_name(
    simcord_env, guild, channel, players, played
):
    _, bob, cat, _ = players
    guild.remove_member(bob)

    board = (await cat.slash(channel, "steal leaderboard")).response
    assert sorted(names_on(board)) == ["ann", "bob", "cat"]
    assert "<@" not in text(board)
    history = (await cat.slash(channel, "steal history")).response
    bob_game = fields(history.embeds[0])[f"Game #{played[0].game_id}"]
    assert re.search(r"(^|· )bob \d+ cards", bob_game.splitlines()[1]), bob_game
    assert "<@" not in bob_game.split("\n", 1)[1]
