"""A server that forces ephemeral answers (issue 36, item 4): with "Use External Apps" off,
Discord makes the answers of an app the server did not add ephemeral. A lobby that came back
so is seen by its host alone: it is withdrawn, and its message says why and how the server can
allow it. The server is made so at the HTTP seam (tests/e2e/support/external_apps.py)."""

from __future__ import annotations

import asyncio

import pytest

from bot.i18n import t
from tests.e2e.conftest import BOTH_BACKENDS
from tests.e2e.support import payload_limits as limits
from tests.e2e.support.external_apps import external_apps_off
from tests.e2e.support.helpers import buttons, description, plain, title
from tests.e2e.support.play import quick

LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr", "it": "it"}


@BOTH_BACKENDS
@pytest.mark.usefixtures("commands_in_words")
async def test_a_lobby_that_came_back_ephemeral_is_withdrawn_and_says_why(
    simcord_env, guild, channel, players
):
    ann, bob = players[:2]
    with external_apps_off(guild.id):
        made = await ann.slash(channel, "steal new", bots=1)
    assert made.ephemeral  # Discord's doing: asked public, seen by ann alone
    said = made.response
    assert title(said) == t("en", "reply.forced_private.title")
    words = plain(description(said))
    assert "nobody else would see this game" in words and "Use External Apps" in words
    assert "Server Settings → Roles → @everyone" in words and "/steal new" in words
    assert buttons(said) == []
    # No game nobody else can see: the lobby is gone, the channel free, nothing public.
    sessions = simcord_env.bot.app.sessions
    assert sessions.live_in(channel.id) is None
    joined = await bob.slash(channel, "steal join")
    assert joined.ephemeral and "no open lobby" in joined.response.content
    [refused] = [getattr(e, "original", e) for e in simcord_env.errors]
    assert refused.key == "error.no_lobby"
    assert channel.history() == []  # what everyone sees in the channel: nothing
    # Where the server allows it, the same command opens a lobby everyone sees.
    again = await ann.slash(channel, "steal new", bots=1)
    assert not again.ephemeral and "new game" in title(again.response)


@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_the_reply_is_within_discords_limits_in_every_language(
    simcord_env, guild, channel, players, locales, lang
):
    ann = players[0]
    locales[ann.id] = LOCALES[lang]
    start = len(simcord_env.http_requests)
    with external_apps_off(guild.id):
        made = await ann.slash(channel, "steal new")
    assert title(made.response) == t(lang, "reply.forced_private.title")
    sent = limits.sent_messages(simcord_env.http_requests[start:])
    assert len(sent) == 2  # the lobby as sent, and the edit that replaced it
    assert [p for _, m in sent for p in limits.message_problems(m)] == []


@BOTH_BACKENDS
async def test_a_deferred_lobby_that_came_back_ephemeral_is_withdrawn_too(
    simcord_env, guild, channel, players, monkeypatch
):
    """A slow answer is deferred first ("thinking", asked public), then completed by a
    follow-up: the server made the deferral ephemeral, so the lobby is too (its flags say so)."""
    sessions = simcord_env.bot.app.sessions
    real = sessions.open_lobby

    async def slow(*args, **kwargs):  # a slow database: past the 2 s budget (virtual time)
        await asyncio.sleep(2.5)
        return await real(*args, **kwargs)

    monkeypatch.setattr(sessions, "open_lobby", slow)
    ann = players[0]
    with external_apps_off(guild.id), quick(simcord_env, 1.0):
        made = await ann.slash(channel, "steal new", bots=1)
        await simcord_env.advance_time(2.1)
        assert made.deferred  # "thinking", asked public, made ephemeral by the server
        await simcord_env.advance_time(2.5)
    said = made.followups[0] if made.followups else made.response
    assert said.ephemeral and title(said) == t("en", "reply.forced_private.title")
    assert sessions.live_in(channel.id) is None
    assert channel.history() == []
