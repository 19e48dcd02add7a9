"""Tournaments on Discord: a sign-up message, rounds of tables each in its own thread, the
standings after every round and a champion, surviving restarts; members cannot start or
cancel one."""

from __future__ import annotations

import itertools
import re

import discord
import pytest

from bot.i18n import lookup, tn
from tests.e2e.conftest import make_bot
from tests.e2e.support.helpers import alt_text, labels, text_of

# The turn timer of these tournaments: people who never move time out. Long enough that an
# AI round played inside one settle on a busy machine (settle_timeout, below it) never meets
# SimCord's real-time fallback for the turn's timer.
TURN = 60


def bot(db_path):
    # AI entrants play at once; a person whose turn runs out is away, then played at once.
    return make_bot(db_path, bot_delay=0.0, away_delay=0.0)


@pytest.fixture
def simcord_bot(db_path):
    return bot(db_path)


@pytest.fixture(autouse=True)
def patient(simcord_env):
    """AI tables play to their end inside one settle (no delay): give a busy machine time."""
    simcord_env.settle_timeout = 45.0  # under TURN: a person's turn waits for advance_time


@pytest.fixture
def boss(simcord_env, guild):
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("boss"), roles=[mods])


def said(channel) -> list[str]:
    """The words of every message in the channel (a picture's by its description), oldest
    first."""
    return [f"{text_of(m)}\n{alt_text(m)}" for m in channel.history()]


def signup_of(channel):
    return next(m for m in channel.history() if "Join" in labels(m))


async def until(env, channel, words: str, limit: int = 80) -> None:
    """Let the turns run out (people never move here) until the channel says `words`."""
    for _ in range(limit):
        if any(words in text for text in said(channel)):
            return
        await env.advance_time(TURN + 1)
    raise AssertionError(f"the channel never said {words!r}: {said(channel)[-3:]}")


async def test_a_swiss_of_people_and_ai_to_its_champion_across_restarts(
    simcord_env, db_path, guild, channel, players, boss
):
    """16 entrants: 4 people (who never move: their turns run out, then the AI plays them)
    and 12 AI entrants, 3 rounds at tables of 4."""
    made = await boss.slash(
        channel, "steal tournament new", name="Winter Cup", rounds=3, table_size=4,
        turn_timer=TURN,
    )  # fmt: skip
    signup = made.response
    assert "Winter Cup" in text_of(signup) and "Join" in labels(signup)
    for p in players:
        await p.click(signup, label="Join")
    filled = await boss.slash(channel, "steal tournament fill", count=12, difficulty="easy")
    assert "12" in filled.response.content
    # Members cannot start or cancel: they are told, privately, who can.
    for command in ("steal tournament start", "steal tournament cancel"):
        refused = await players[0].slash(channel, command)
        assert refused.response.ephemeral and "managers" in refused.response.content.lower()
    refused = await players[0].click(signup_of(channel), label="Start now")
    assert "managers" in refused.response.content.lower()
    # SimCord records the errors the commands raised and answered; reading them acknowledges.
    assert [type(getattr(e, "original", e)).__name__ for e in simcord_env.errors] == ["NotHost"] * 2
    [still] = await simcord_env.bot.storage.tournaments.open()  # nothing changed
    assert still.status == "signup" and "Start now" in labels(signup_of(channel))

    await boss.click(signup_of(channel), label="Start now")
    await until(simcord_env, channel, "Round 1 of 3")
    assert len(channel.threads) == 4
    await until(simcord_env, channel, "Standings after round 1")
    await until(simcord_env, channel, "Round 2 of 3")
    # A restart between rounds: round 2 is seated and open, its people's tables not played.
    storage = simcord_env.bot.storage
    [cup] = await storage.tournaments.open()
    assert cup.round == 2 and {t.status for t in await storage.tournaments.tables(cup.id, 1)} == {
        "done"
    }
    await simcord_env.restart_bot(bot(db_path))
    await until(simcord_env, channel, "Standings after round 2")
    await until(simcord_env, channel, "Round 3 of 3")
    await simcord_env.advance_time(TURN + 1)  # round 3 under way
    storage = simcord_env.bot.storage
    assert "playing" in {t.status for t in await storage.tournaments.tables(cup.id, 3)}
    await simcord_env.restart_bot(bot(db_path))  # a restart mid-round
    await until(simcord_env, channel, "is the champion")

    words = "\n".join(said(channel))
    assert "Final standings" in words and "🥇" in words
    assert words.count("Round 1 of 3") == words.count("Round 3 of 3") == 1  # each posted once
    assert len(channel.threads) == 12  # one thread per table, nobody seated twice
    rounds = [await simcord_env.bot.storage.tournaments.tables(cup.id, n) for n in (1, 2, 3)]
    for tables in rounds:  # nobody seated twice in a round, every table played once
        seated = [e for t in tables for e in t.entrants]
        assert len(seated) == len(set(seated)) == 16 and {t.status for t in tables} == {"done"}
    for thread in channel.threads:
        assert thread.history(), "a table's thread shows its game"
    standings = await players[0].slash(channel, "steal tournament standings")
    assert standings.response.ephemeral
    listed = await players[1].slash(channel, "steal tournament list")
    assert "Winter Cup" in text_of(listed.response)


async def test_a_knockout_of_8_and_a_cancel(simcord_env, guild, channel, boss, players):
    await boss.slash(channel, "steal tournament new", name="Cup", format="knockout",
                     table_size=2, turn_timer=TURN)  # fmt: skip
    await boss.slash(channel, "steal tournament fill", count=8, difficulty="easy")
    await boss.slash(channel, "steal tournament start")
    await until(simcord_env, channel, "is the champion")
    words = "\n".join(said(channel))
    assert "Round 2" in words and "The final" in words and len(channel.threads) == 4 + 2 + 1

    other = guild.create_text_channel("second")
    await boss.slash(other, "steal tournament new", name="Spring", table_size=2, turn_timer=TURN)
    for p in players[:2]:
        await p.slash(other, "steal tournament join")
    await boss.slash(other, "steal tournament start")
    assert len(other.threads) == 1  # its one table plays in its thread (nobody has moved)
    asked = await boss.slash(other, "steal tournament cancel")
    await boss.click(asked.response, label="Cancel the tournament")
    await until(simcord_env, other, "was cancelled")
    [thread] = other.threads
    assert any("cancelled" in text_of(m).lower() for m in thread.history())


@pytest.mark.parametrize("lang", ["es", "fr", "it"])
async def test_the_screens_in_each_language_within_discords_limits(
    simcord_env, guild, channel, boss, lang
):
    """A server that fixes its language gets every tournament screen in it (English is the
    rest of this file); SimCord refuses a message over Discord's limits."""
    set_ = await boss.slash(channel, "steal-admin set", setting="language", value=lang)
    assert set_.response.content
    made = await boss.slash(channel, "steal tournament new", name="Copa", table_size=2, rounds=2)
    assert lookup(lang, "tour.button.join") in labels(made.response)
    filled = await boss.slash(channel, "steal tournament fill", count=5, difficulty="easy")
    assert filled.response.content == tn(lang, "tourop.filled", 5, name="Copa")
    await boss.slash(channel, "steal tournament start")
    champion = lookup(lang, "tour.champion.title").split("{name}")[-1].strip()
    # Virtual time, in case a save was retried after its back-off (a retry waits on the clock).
    await until(simcord_env, channel, champion)
    words = "\n".join(said(channel))
    assert champion in words and lookup(lang, "tour.standings.final") in words
    for message in channel.history():
        assert len(text_of(message)) <= 4000 and len(alt_text(message)) <= 1024


def rows_of(alt: str) -> list[tuple[str, float, float, float]]:
    """A standings picture's rows as its description says them: (name, points, opponents'
    points, cards), in the order shown."""
    body = alt.split("cards.", 1)[1]
    out = []
    for part in body.split(";"):
        match = re.fullmatch(r"\s*\d+\. (.+): ([\d.]+), ([\d.]+), ([\d.]+)( \(left\))?\s*", part)
        assert match, part
        out.append((match[1], float(match[2]), float(match[3]), float(match[4])))
    return out


def standings_after(channel, words: str) -> str:
    return next(alt_text(m) for m in channel.history() if words in alt_text(m))


async def test_a_bye_and_the_standings_in_tiebreak_order(simcord_env, channel, boss):
    """5 AI entrants at tables of 2: each round one sits out, shown with the round's tables,
    and gets a bye's 3 points; players level on points are ordered by opponents' points."""
    await boss.slash(channel, "steal tournament new", name="Odd", table_size=2, rounds=3,
                     turn_timer=TURN)  # fmt: skip
    await boss.slash(channel, "steal tournament fill", count=5, difficulty="easy")
    await boss.slash(channel, "steal tournament start")
    await until(simcord_env, channel, "is the champion")
    round_1 = next(text_of(m) for m in channel.history() if "Round 1 of 3" in text_of(m))
    [bye] = re.findall(r"Bye this round \(3 points\): (.+)", round_1)
    assert bye not in round_1.split("Bye this round")[0], "who sits out is at no table"
    after_1 = rows_of(standings_after(channel, "Standings after round 1 of 3"))
    assert (bye, 3.0, 0.0, 0.0) in after_1  # a bye: 3 points, no opponents, no cards
    assert sorted(p for _, p, _, _ in after_1) == [0.0, 0.0, 3.0, 6.0, 6.0]

    tables = [rows_of(alt_text(m)) for m in channel.history() if "Each row" in alt_text(m)]
    assert "Each row: rank, name: points, opponents' points, cards." in standings_after(
        channel, "Final standings"
    )
    level = []
    for rows in tables:
        keys = [(-p, -o, -c) for _, p, o, c in rows]
        assert keys == sorted(keys), f"by points, then opponents' points, then cards: {rows}"
        pairs = itertools.pairwise(rows)
        level += [(a, b) for a, b in pairs if a[1] == b[1] and a[2] > b[2]]
    assert level, f"two players level on points, told apart by opponents' points: {tables}"


async def test_a_drop_out_is_not_seated_again(simcord_env, channel, boss, players):
    """2 people and 2 AI entrants at tables of 2: a person who leaves during round 1 plays
    that game out (their turns run out) but is seated in no later round."""
    await boss.slash(channel, "steal tournament new", name="Leavers", table_size=2, rounds=2,
                     turn_timer=TURN)  # fmt: skip
    for p in players[:2]:
        await p.slash(channel, "steal tournament join")
    await boss.slash(channel, "steal tournament fill", count=2, difficulty="easy")
    await boss.slash(channel, "steal tournament start")
    await until(simcord_env, channel, "Round 1 of 2")
    gone = players[0]
    left = await gone.slash(channel, "steal tournament leave")
    assert left.response.ephemeral and "Leavers" in left.response.content
    await until(simcord_env, channel, "Round 2 of 2")
    round_2 = next(text_of(m) for m in channel.history() if "Round 2 of 2" in text_of(m))
    seated, _, out = round_2.partition("No longer playing (left):")
    assert gone.mention not in seated and gone.name not in seated
    assert gone.mention in out or gone.name in out, round_2
    assert players[1].mention in seated or players[1].name in seated
    assert "(left)" in standings_after(channel, "Standings after round 1 of 2")
    await until(simcord_env, channel, "is the champion")
    storage = simcord_env.bot.storage
    [cup] = await storage.tournaments.by_guild(channel.guild.id)
    later = [e for t in await storage.tournaments.tables(cup.id, 2) for e in t.entrants]
    assert str(gone.id) not in later and len(later) == 3  # the rest, one of them on a bye


async def test_check_in_seats_only_who_checked_in(simcord_env, channel, boss, players):
    """A tournament made with check-in: its sign-up has a Check in button, usable from 15
    minutes before the start; at the start whoever did not check in is not seated, and round
    1's message says so."""
    made = await boss.slash(channel, "steal tournament new", name="Roll Call", table_size=2,
                            rounds=1, start_minutes=60, check_in=True)  # fmt: skip
    assert "Check in" in labels(made.response)
    assert "Check-in opens" in text_of(made.response)
    for p in players[:2]:
        await p.click(signup_of(channel), label="Join")
    await boss.slash(channel, "steal tournament fill", count=1, difficulty="easy")
    early = await players[0].click(signup_of(channel), label="Check in")
    assert early.response.ephemeral and "Check-in opens" in early.response.content
    ops = simcord_env.bot.sessions.tournaments
    later = ops.clock() + 46 * 60  # the window opens 15 minutes before the start
    ops.clock = lambda: later
    done = await players[0].click(signup_of(channel), label="Check in")
    [told] = done.followups
    assert told.ephemeral and "You're checked in for Roll Call" in told.content
    assert "2 of 3 checked in" in text_of(signup_of(channel))  # the AI entrant counts
    await boss.click(signup_of(channel), label="Start now")
    await until(simcord_env, channel, "Round 1 of 1")
    round_1 = next(text_of(m) for m in channel.history() if "Round 1 of 1" in text_of(m))
    seated, _, out = round_1.partition("Not checked in, so not playing:")
    assert players[0].name in seated or players[0].mention in seated
    assert players[1].name in out or players[1].mention in out, round_1
    assert players[1].name not in seated and players[1].mention not in seated


async def test_a_tournament_of_a_channel_a_member_cannot_see_is_not_shown_to_them(
    simcord_env, guild, channel, players, boss
):
    hidden = discord.PermissionOverwrite(view_channel=False)
    shown = discord.PermissionOverwrite(view_channel=True)
    staff = guild.create_text_channel(
        "staff-only", overwrites={guild.default_role: hidden, guild.me: shown, boss: shown}
    )
    await boss.slash(staff, "steal tournament new", name="Staff Cup", turn_timer=TURN)
    outsider = players[0]
    listed = await outsider.slash(channel, "steal tournament list")
    assert "Staff Cup" not in text_of(listed.response)
    asked = await outsider.slash(channel, "steal tournament standings")
    assert asked.response.ephemeral and "Staff Cup" not in f"{asked.response.content}"
    assert "Staff Cup" in text_of((await boss.slash(channel, "steal tournament list")).response)


async def test_hand_in_the_tournaments_channel_links_the_players_thread(
    simcord_env, channel, boss, players
):
    await boss.slash(channel, "steal tournament new", name="Spring", table_size=2, turn_timer=TURN)
    for p in players[:2]:
        await p.slash(channel, "steal tournament join")
    await boss.slash(channel, "steal tournament start")
    [thread] = channel.threads

    asked = await players[0].slash(channel, "steal hand")

    assert asked.ephemeral
    assert asked.response.content == (
        f"There is no game running here: your table plays in <#{thread.id}>."
    )
    stranger = await players[2].slash(channel, "steal hand")  # not seated: nothing to link
    assert stranger.response.content.startswith("There is no game running here.")
    assert [type(e.original).__name__ for e in simcord_env.errors] == ["NoGame", "NoGame"]
