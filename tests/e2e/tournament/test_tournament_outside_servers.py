"""Tournaments outside a server (issue 36): `/steal` is offered in the DM with the bot and in
group DMs, and its subcommands share that, but a tournament's tables are threads the bot makes
in a server. So every `/steal tournament` subcommand answers there, privately, where
tournaments are played and what to do instead; nothing is stored."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.ui.text import next_steps
from tests.e2e.support import payload_limits as limits
from tests.e2e.support.helpers import text_of

LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr", "it": "it"}

EVERY = [
    ("steal tournament new", {"name": "Kitchen Cup"}),
    ("steal tournament join", {}),
    ("steal tournament leave", {}),
    ("steal tournament standings", {}),
    ("steal tournament start", {}),
    ("steal tournament cancel", {}),
    ("steal tournament fill", {"count": 3}),
    ("steal tournament list", {}),
]


@pytest.mark.parametrize(("command", "options"), EVERY, ids=[c for c, _ in EVERY])
async def test_every_tournament_command_in_the_dm_with_the_bot_says_where_they_are_played(
    simcord_env, command, options
):
    ann = simcord_env.create_user("ann")
    said = await ann.slash(command, **options)
    assert said.ephemeral
    words = text_of(said.response)
    assert words == t("en", "tour.error.server_only", **next_steps("en"))
    assert "server" in words and "/steal new" in words  # where, and the next step here
    assert await simcord_env.bot.storage.tournaments.open() == []
    [error] = [getattr(e, "original", e) for e in simcord_env.errors]  # said, as the cog's
    assert error.key == "tour.error.server_only"


@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_the_answer_is_within_discords_limits_in_every_language(simcord_env, locales, lang):
    ann = simcord_env.create_user("ann")
    locales[ann.id] = LOCALES[lang]
    start = len(simcord_env.http_requests)
    said = await ann.slash("steal tournament new", name="Kitchen Cup")
    assert text_of(said.response) == t(lang, "tour.error.server_only", **next_steps(lang))
    assert simcord_env.errors
    sent = limits.sent_messages(simcord_env.http_requests[start:])
    assert len(sent) == 1 and [p for _, m in sent for p in limits.message_problems(m)] == []


async def test_a_server_where_only_a_person_installed_the_app_gets_the_same_answer(
    simcord_env, monkeypatch, channel, players
):
    """There the bot can make no thread (the bot token is refused): the same private answer,
    through the interaction alone, and nothing stored."""
    from tests.e2e.support.group_dm import TokenPlace

    ann = players[0]
    here = TokenPlace.user_server(simcord_env, monkeypatch, channel, players[:2], installer=ann)
    said = await here.slash(ann, "steal tournament new", name="Kitchen Cup")
    assert said.ephemeral
    assert text_of(said.response) == t("en", "tour.error.server_only", **next_steps("en"))
    assert await simcord_env.bot.storage.tournaments.open() == []
    assert here.bot_token_calls() == [] and here.refused == []
    [error] = [getattr(e, "original", e) for e in simcord_env.errors]  # said, as the cog's
    assert error.key == "tour.error.server_only"
