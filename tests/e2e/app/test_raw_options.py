"""Options the bot checks itself (issue 32, items 19-21): Discord's client keeps an option in
its declared range, length and choices, but a modified client or a raw request does not. Every
command's options are checked in one place before the command runs; what is outside is refused
privately, naming the option and what it takes, and nothing is stored or logged as an error."""

from __future__ import annotations

import logging

import discord
import pytest
import simcord.interactions

from tests.e2e.conftest import make_bot

UNEXPECTED = "Something went wrong"


@pytest.fixture
def simcord_bot(db_path):
    return make_bot(db_path, bot_delay=0.0, away_delay=0.0)


@pytest.fixture(autouse=True)
def modified_client(monkeypatch):
    """SimCord sends each option as given, unchecked against what the command declares."""
    monkeypatch.setattr(simcord.interactions, "validate_option_value", lambda _c, _o, value: value)


@pytest.fixture
def boss(simcord_env, guild):
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("boss"), roles=[mods])


async def refused(member, channel, command: str, caplog, **options) -> str:
    """The private answer to `command` sent with `options`; no error logged."""
    with caplog.at_level(logging.WARNING):
        result = await member.slash(channel, command, **options)
    answer = result.response
    assert answer.ephemeral, (command, options, answer.content)
    assert UNEXPECTED not in (answer.content or ""), (command, options, answer.content)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    return answer.content or ""


@pytest.mark.parametrize("turn_timer", [1, -5, 86_401])
async def test_a_turn_timer_outside_its_range_is_refused(
    simcord_env, channel, boss, caplog, turn_timer
):
    words = await refused(boss, channel, "steal tournament new", caplog, name="Cup",
                          turn_timer=turn_timer)  # fmt: skip
    assert "turn_timer" in words and "15" in words and "86400" in words, words
    assert await simcord_env.bot.storage.tournaments.open() == []


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [("format", "roundrobin", "knockout"), ("rules", "poker", "standard")],
)
async def test_an_unknown_choice_is_refused_in_words(
    simcord_env, channel, boss, caplog, option, value, allowed
):
    words = await refused(boss, channel, "steal tournament new", caplog, name="Cup",
                          **{option: value})  # fmt: skip
    assert option in words and allowed in words and value not in words, words
    assert await simcord_env.bot.storage.tournaments.open() == []


@pytest.mark.parametrize("name", ["\u200b\u200d", "\u202e\u2066\u200f", " \u2060 ", "x" * 61])
async def test_a_tournament_name_that_shows_nothing_or_is_too_long_is_refused(
    simcord_env, channel, boss, caplog, name
):
    words = await refused(boss, channel, "steal tournament new", caplog, name=name)
    assert "name" in words and "🏆" not in words, words
    assert await simcord_env.bot.storage.tournaments.open() == []


# Every other command with an option that has a range, a length or choices, sent outside it.
OUTSIDE = [
    ("steal new", {"max_players": 9}, "max_players"),
    ("steal new", {"games": 0}, "games"),
    ("steal new", {"bots": -1}, "bots"),
    ("steal new", {"rules": "poker"}, "rules"),
    ("steal new", {"scoring": "points"}, "scoring"),
    ("steal new", {"difficulty": "godlike"}, "difficulty"),
    ("steal rules", {"preset": "poker"}, "preset"),
    ("steal leaderboard", {"page": 0}, "page"),
    ("steal leaderboard", {"sort": "luck"}, "sort"),
    ("steal leaderboard", {"season": -3}, "season"),
    ("steal leaderboard", {"scope": "everywhere"}, "scope"),
    ("steal profile", {"global_name": "maybe"}, "global_name"),
    ("steal replay", {"game": 0}, "game"),
    ("steal tournament new", {"name": "Cup", "rounds": 21}, "rounds"),
    ("steal tournament new", {"name": "Cup", "table_size": 5}, "table_size"),
    ("steal tournament new", {"name": "Cup", "signup_minutes": 0}, "signup_minutes"),
    ("steal tournament new", {"name": "Cup", "start_minutes": 10_081}, "start_minutes"),
    ("steal tournament new", {"name": "Cup", "check_in": "yes"}, "check_in"),
    ("steal tournament fill", {"count": 0}, "count"),
    ("steal tournament fill", {"count": 257}, "count"),
    ("steal tournament fill", {"count": 2, "difficulty": "godlike"}, "difficulty"),
    ("steal-admin set", {"setting": "turn_timer", "value": "\u200b"}, "value"),
    ("steal-admin set", {"setting": "turn_timer", "value": "9" * 101}, "value"),
    ("steal-admin set", {"setting": "nonsense", "value": "1"}, "setting"),
    ("steal-admin reset", {"setting": "nonsense"}, "setting"),
]


@pytest.mark.parametrize(("command", "options", "option"), OUTSIDE)
async def test_every_command_checks_its_options(
    simcord_env, channel, boss, caplog, command, options, option
):
    words = await refused(boss, channel, command, caplog, **options)
    assert f"`{option}`" in words, words
    assert simcord_env.bot.sessions.live_in(channel.id) is None  # no lobby was opened
    assert await simcord_env.bot.storage.tournaments.open() == []


async def test_the_refusal_is_in_the_members_language(channel, players, caplog, locales):
    ana = players[0]
    locales[ana.id] = "es-ES"
    words = await refused(ana, channel, "steal new", caplog, max_players=9)
    # The option by its Spanish name (as the member's client shows it), in Spanish words.
    assert "`max_jugadores`" in words and "2" in words and "4" in words, words


async def test_a_value_discord_py_cannot_use_is_told_not_logged(
    simcord_env, channel, boss, caplog, monkeypatch
):
    """Behind the check, discord.py's own refusal of a value (TransformerError) is answered in
    words too: the member's input, not the bot's fault."""
    from bot.adapter.options import CheckedTree

    async def lets_all_through(self, interaction) -> bool:
        return True

    monkeypatch.setattr(CheckedTree, "interaction_check", lets_all_through)
    words = await refused(boss, channel, "steal tournament new", caplog, name="Cup",
                          format="roundrobin")  # fmt: skip
    assert "`format`" in words and "roundrobin" not in words, words
    assert await simcord_env.bot.storage.tournaments.open() == []
    # SimCord records the error discord.py raised (and was answered); reading acknowledges.
    assert [type(e).__name__ for e in simcord_env.errors] == ["TransformerError"]


async def test_the_refusal_is_in_the_servers_fixed_language(
    simcord_env, guild, channel, players, caplog, locales
):
    """A server that fixed its language (here Italian) gets the refusal in it, whatever the
    member's client speaks: the tree settles the server's setting before it answers."""
    await simcord_env.bot.sessions.records.set_setting(guild.id, "language", "it")
    ana = players[0]
    locales[ana.id] = "es-ES"
    words = await refused(ana, channel, "steal new", caplog, max_players=9)
    spanish = await refused(players[1], channel, "steal new", caplog, max_players=9)
    assert words == spanish, (words, spanish)  # one language for the server, not the member's
    await simcord_env.bot.sessions.records.set_setting(guild.id, "language", "follow")
    assert await refused(ana, channel, "steal new", caplog, max_players=9) != words
