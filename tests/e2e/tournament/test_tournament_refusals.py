"""A tournament rule the session decides, as a manager meets it on Discord: no AI entrants
where the server turned AI off (the cog only says the session's refusal)."""

from __future__ import annotations

import discord
import pytest

from bot.i18n import t
from tests.e2e.conftest import make_bot
from tests.e2e.support.helpers import text_of


@pytest.fixture
def simcord_bot(db_path):
    return make_bot(db_path, bot_delay=0.0, away_delay=0.0)


@pytest.fixture
def boss(simcord_env, guild):
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("boss"), roles=[mods])


async def test_no_ai_entrants_on_a_server_that_turned_ai_off(simcord_env, guild, channel, boss):
    made = await boss.slash(channel, "steal tournament new", name="Plain Cup", turn_timer=15)
    assert "Plain Cup" in text_of(made.response)
    storage = simcord_env.bot.storage
    [cup] = await storage.tournaments.open()
    await storage.settings.set(guild.id, "ai_allowed", False)
    refused = await boss.slash(channel, "steal tournament fill", count=3, difficulty="easy")
    assert refused.response.ephemeral
    assert refused.response.content.startswith(t("en", "reply.no_ai").split(".")[0])
    assert await storage.tournaments.entrants(cup.id) == []
    [error] = [getattr(e, "original", e) for e in simcord_env.errors]
    assert error.key == "reply.no_ai"
    await storage.settings.set(guild.id, "ai_allowed", True)
    filled = await boss.slash(channel, "steal tournament fill", count=3, difficulty="easy")
    assert "3" in filled.response.content
    assert len(await storage.tournaments.entrants(cup.id)) == 3
