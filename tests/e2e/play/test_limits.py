"""What limits abuse: per-member cooldowns on the commands that post or write, one open lobby
per host per server, and /steal table reposts only for the game's players and managers."""

from __future__ import annotations

import re

import discord
import pytest

from tests.e2e.conftest import make_bot
from tests.e2e.support.helpers import start_game
from tests.e2e.support.screens import buttons as screen_buttons
from tests.e2e.support.screens import text

SLOW_DOWN = re.compile(r"Slow down a little: you can do that again <t:\d+:R>\.")


@pytest.fixture
def simcord_bot(db_path):
    return make_bot(db_path, cooldowns=True)


def answered_errors(env) -> list[str]:
    """The errors the cogs answered (SimCord records them; reading them acknowledges them)."""
    return [type(getattr(e, "original", e)).__name__ for e in env.errors]


async def test_a_member_who_goes_too_fast_is_told_when_to_try_again(simcord_env, channel, players):
    ann, bob = players[:2]
    posted = len(channel.history())
    for _ in range(2):  # the leaderboard allows two posts per ten seconds
        assert not (await ann.slash(channel, "steal leaderboard")).ephemeral
    third = await ann.slash(channel, "steal leaderboard")

    assert third.ephemeral and SLOW_DOWN.fullmatch(third.response.content)
    assert len(channel.history()) == posted + 2  # the third was not posted
    assert not (await bob.slash(channel, "steal leaderboard")).ephemeral  # per member
    assert answered_errors(simcord_env) == ["CommandOnCooldown"]


async def test_one_open_lobby_per_host_per_server(simcord_env, guild, players):
    ann, bob = players[:2]
    first, second = guild.create_text_channel("one"), guild.create_text_channel("two")
    await ann.slash(first, "steal new")

    refused = await ann.slash(second, "steal new")

    assert refused.ephemeral
    assert refused.response.content == (
        f"You already have a lobby open in <#{first.id}>. Start it or cancel it before you "
        "open another."
    )
    assert not [m for m in second.history() if m.embeds]  # no second lobby
    assert not (await bob.slash(second, "steal new")).ephemeral  # another host may


async def test_only_players_and_managers_repost_the_table(simcord_env, guild, channel, players):
    ann, bob, cat = players[:3]
    table = await start_game(channel, [ann, bob])
    before = len(channel.history())

    answer = await cat.slash(channel, "steal table")

    assert answer.ephemeral
    link = f"https://discord.com/channels/{guild.id}/{channel.id}/{table.id}"
    assert answer.response.content == ("Only the table's players can post it again.")
    [go] = [b for row in answer.response.components for b in row["components"]]
    assert (go["label"], go["url"]) == ("Go to the table", link)
    assert len(channel.history()) == before  # nothing reposted
    mods = guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    dan = guild.add_member(simcord_env.create_user("dan"), roles=[mods])
    assert not (await dan.slash(channel, "steal table")).ephemeral  # a manager may
    assert not (await bob.slash(channel, "steal table")).ephemeral  # and so may a player


async def test_an_admin_who_goes_too_fast_is_told_when_not_refused(simcord_env, guild, channel):
    mods = guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(simcord_env.create_user("boss"), roles=[mods])
    first = await admin.slash(channel, "steal-admin export")
    assert first.response.content == "0 players on the leaderboard, 0 finished games."
    again = await admin.slash(channel, "steal-admin export")  # one export a minute

    assert again.ephemeral and SLOW_DOWN.fullmatch(again.response.content)
    assert answered_errors(simcord_env) == ["CommandOnCooldown"]


# The cooldown's answer in each language: "when" is a relative Discord timestamp.
SLOW_DOWN_IN = {
    "en-US": re.compile(r"Slow down a little: you can do that again <t:\d+:R>\."),
    "es-ES": re.compile(r"Un poco más despacio: podrás hacerlo de nuevo <t:\d+:R>\."),
    "fr": re.compile(r"Doucement : tu pourras le refaire <t:\d+:R>\."),
    "it": re.compile(r"Piano: potrai farlo di nuovo <t:\d+:R>\."),
}


async def test_page_turns_are_limited_and_the_answer_is_in_the_members_language(
    simcord_env, guild, channel, locales
):
    """The rules pages draw pictures: five page turns per ten seconds, then each member is
    told, privately and in their own language, when to try again; the page stays as it was."""
    for locale, pattern in SLOW_DOWN_IN.items():
        member = guild.add_member(simcord_env.create_user(f"reader-{locale}"))
        locales[member.id] = locale
        shown = (await member.slash(channel, "steal rules")).response
        for _ in range(5):
            tab = next(b for b in screen_buttons(shown) if not b.get("disabled"))
            turned = await member.click(shown, custom_id=tab["custom_id"])
            assert not turned.ephemeral or not SLOW_DOWN_IN[locale].fullmatch(
                turned.response.content or ""
            )
        page = text(shown)
        tab = next(b for b in screen_buttons(shown) if not b.get("disabled"))

        refused = await member.click(shown, custom_id=tab["custom_id"])

        assert refused.ephemeral and pattern.fullmatch(refused.response.content), locale
        assert text(shown) == page  # not turned
    assert answered_errors(simcord_env) == []  # buttons answer through their family


async def test_stats_history_and_rules_have_cooldowns(simcord_env, channel, players):
    ann, bob = players[:2]
    for command in ("steal stats", "steal history", "steal rules"):
        for _ in range(3):
            assert not SLOW_DOWN.fullmatch(
                (await ann.slash(channel, command)).response.content or ""
            )
        again = await ann.slash(channel, command)
        assert again.ephemeral and SLOW_DOWN.fullmatch(again.response.content), command
        assert not SLOW_DOWN.fullmatch((await bob.slash(channel, command)).response.content or "")
    assert answered_errors(simcord_env) == ["CommandOnCooldown"] * 3
