"""Tournament faults of issue 32 on Discord, as members and managers act: a member who leaves
during their game places last at that table; a member forgotten during the sign-up no longer
counts; a member seated at a table whose game has not started cannot be forgotten yet; a
tournament whose stored settings cannot be read is set aside at start-up, the others go on."""

from __future__ import annotations

import re

import discord
import pytest
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType
from sqlalchemy import update

from bot.storage.schema import tournaments
from tests.e2e.conftest import make_bot
from tests.e2e.support.helpers import alt_text, text_of

TURN = 15  # the shortest turn timer a tournament takes: people who never move time out


def bot(db_path):
    # A person whose turn runs out is away, then played at once.
    return make_bot(db_path, bot_delay=0.0, away_delay=0.0)


@pytest.fixture
def simcord_bot(db_path):
    return bot(db_path)


@pytest.fixture
def patient(simcord_env):
    """AI tables play to their end inside one settle: give a busy machine time (under TURN,
    so a person's turn waits for advance_time; over it, a round's retry would be waited)."""
    simcord_env.settle_timeout = 10.0


PATIENT = pytest.mark.usefixtures("patient")


@pytest.fixture
def boss(simcord_env, guild):
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("boss"), roles=[mods])


def said(channel) -> list[str]:
    return [f"{text_of(m)}\n{alt_text(m)}" for m in channel.history()]


async def until(env, channel, words: str, limit: int = 80) -> None:
    """Let the turns run out (people never move here) until the channel says `words`."""
    for _ in range(limit):
        if any(words in text for text in said(channel)):
            return
        await env.advance_time(TURN + 1)
    raise AssertionError(f"the channel never said {words!r}: {said(channel)[-3:]}")


def points_in(channel, words: str) -> dict[str, float]:
    """A standings picture's points by name, as its description says them."""
    alt = next(alt_text(m) for m in channel.history() if words in alt_text(m))
    rows = re.findall(r"\d+\. ([^:;]+): ([\d.]+), [\d.]+, [\d.]+", alt.split("cards.", 1)[1])
    return {name.strip(): float(points) for name, points in rows}


@PATIENT
async def test_a_member_who_leaves_during_their_game_places_last(
    simcord_env, channel, boss, players
):
    """ann and bob at a table of 2; ann leaves the tournament during the game, which plays
    on (her turns run out and are played for her) and which she wins on cards. She places
    last at the table all the same: bob takes the 6 points and is the champion."""
    ann, bob = players[:2]
    await boss.slash(channel, "steal tournament new", name="Leavers", table_size=2, rounds=1,
                     turn_timer=TURN)  # fmt: skip
    for p in (ann, bob):
        await p.slash(channel, "steal tournament join")
    await boss.slash(channel, "steal tournament start")
    await until(simcord_env, channel, "Round 1 of 1")
    await simcord_env.advance_time(TURN + 1)  # the game is under way
    left = await ann.slash(channel, "steal tournament leave")
    assert left.response.ephemeral and "Leavers" in left.response.content
    await until(simcord_env, channel, "is the champion")

    storage = simcord_env.bot.storage
    [cup] = await storage.tournaments.by_guild(channel.guild.id)
    [table] = await storage.tournaments.tables(cup.id, 1)
    game = await storage.history.get(table.game_id)
    seat = table.entrants.index(str(ann.id))
    assert game.places[seat] == 0, "the game itself must rank ann first for this test to mean it"
    assert points_in(channel, "Final standings") == {"bob": 6.0, "ann": 0.0}
    assert any("bob is the champion" in text for text in said(channel))


@PATIENT
async def test_a_tournament_whose_settings_cannot_be_read_is_set_aside_at_start_up(
    simcord_env, db_path, guild, channel, boss
):
    """A restart finds one tournament's stored settings unreadable: that one is set aside
    (its channel is told it cannot go on), while another server's tournament starts at its
    time and plays to its champion, and this server's commands still work."""
    await boss.slash(channel, "steal tournament new", name="Broken Cup", table_size=2,
                     turn_timer=TURN)  # fmt: skip
    await boss.slash(channel, "steal tournament fill", count=2, difficulty="easy")
    away = simcord_env.create_guild()
    mods = away.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    host = away.add_member(simcord_env.create_user("host"), roles=[mods])
    hall = away.create_text_channel("hall")
    await host.slash(hall, "steal tournament new", name="Fine Cup", table_size=2, rounds=1,
                     start_minutes=60, turn_timer=TURN)  # fmt: skip
    await host.slash(hall, "steal tournament fill", count=2, difficulty="easy")
    storage = simcord_env.bot.storage
    broken = next(r for r in await storage.tournaments.open() if r.name == "Broken Cup")
    async with storage.transaction() as db:
        await db.execute(
            update(tournaments).where(tournaments.c.id == broken.id).values(settings="{oops")
        )

    await simcord_env.restart_bot(bot(db_path))
    assert any("Broken Cup** cannot go on" in text for text in said(channel))
    listed = await boss.slash(channel, "steal tournament list")
    assert "Broken Cup" in text_of(listed.response)
    made = await boss.slash(channel, "steal tournament new", name="New Cup", table_size=2)
    assert "New Cup" in text_of(made.response)  # the channel is free for a new one
    await simcord_env.advance_time(3600 + 1)
    await until(simcord_env, hall, "is the champion")


def plain(text: str) -> str:
    """A message with its command mentions (</name:id>) as typed (/name)."""
    return re.sub(r"</([^:>]+):\d+>", r"/\1", text)


async def forget_me(member, channel):
    asked = await member.slash(channel, "steal forget-me")
    await member.click(asked.response, label="Delete my data")
    return asked.response


async def test_a_member_forgotten_during_the_sign_up_no_longer_counts(
    simcord_env, channel, boss, players
):
    """ann and bob sign up; ann asks to be forgotten: one real entrant is left, so the
    tournament cannot start (the manager is told why and what to do)."""
    ann, bob = players[:2]
    await boss.slash(channel, "steal tournament new", name="Tiny", table_size=2, turn_timer=TURN)
    for p in (ann, bob):
        await p.slash(channel, "steal tournament join")
    assert (await forget_me(ann, channel)).content.startswith("Done: ")
    refused = await boss.slash(channel, "steal tournament start")
    assert refused.response.ephemeral
    assert refused.response.content.startswith("A tournament needs at least 2 players to start.")
    # SimCord records the errors the commands raised and answered; reading them acknowledges.
    assert [getattr(getattr(e, "original", e), "key", None) for e in simcord_env.errors] == [
        "tour.error.too_few"
    ]
    storage = simcord_env.bot.storage
    [cup] = await storage.tournaments.open()
    assert cup.status == "signup"
    assert [e.entrant for e in await storage.tournaments.entrants(cup.id)] == [str(bob.id)]


async def test_nobody_seated_at_a_table_whose_game_has_not_started_is_forgotten(
    simcord_env, guild, channel, boss, players
):
    """The bot lost Create Public Threads here, so round 1's tables are seated but their
    games cannot start. ann, seated, asks to be forgotten, and an admin asks it for bob: each
    is told privately why not and what to do (their seats would otherwise open as a phantom
    former player's). Once the tournament is cancelled, ann is forgotten."""
    ann, bob = players[:2]
    await boss.slash(channel, "steal tournament new", name="Stuck", table_size=2, turn_timer=TURN)
    for p in (ann, bob):
        await p.slash(channel, "steal tournament join")
    no_threads = discord.Permissions(create_public_threads=True).value
    simcord_env.backend.set_overwrite(
        channel.id, Overwrite(guild.me.id, OverwriteType.MEMBER, deny=no_threads)
    )
    await boss.slash(channel, "steal tournament start")
    storage = simcord_env.bot.storage
    [cup] = await storage.tournaments.open()
    [table] = await storage.tournaments.tables(cup.id, 1)
    assert table.status == "seated" and channel.threads == []

    refused = await forget_me(ann, channel)
    assert plain(refused.content) == (
        "You have a seat at a tournament table whose game has not started yet. Ask again once "
        "that game is over (or once a manager cancels the tournament with "
        "/steal tournament cancel)."
    )
    asked = await boss.slash(channel, "steal-admin forget", member=bob)
    await boss.click(asked.response, label="Delete their data")
    assert plain(asked.response.content).startswith(
        "That member has a seat at a tournament table here whose game has not started yet: "
        "cancel the tournament with /steal tournament cancel,"
    )
    assert (await storage.tournaments.tables(cup.id, 1))[0].entrants == table.entrants

    question = await boss.slash(channel, "steal tournament cancel")
    await boss.click(question.response, label="Cancel the tournament")
    assert (await forget_me(ann, channel)).content.startswith("Done: ")
    [after] = await storage.tournaments.tables(cup.id, 1)
    assert str(ann.id) not in after.entrants and str(bob.id) in after.entrants
