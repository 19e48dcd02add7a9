"""One permission for every admin action, command or click: Manage Server. The game manager
role, from which Discord hides `/steal-admin`, gets nothing through crafted admin, toggle,
setting or topic ids; and a question's time is the bot's own, never the one an id carries."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.ui import ids
from tests.e2e.support.admin_panel import make_admin, make_staff
from tests.e2e.support.boards import bot_message
from tests.e2e.support.helpers import buttons, start_game

NEEDS = {"en": "Manage Server", "es": "Gestionar servidor", "fr": "Gérer le serveur",
         "it": "Gestisci server"}  # fmt: skip
LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr", "it": "it"}
FAR = 4_000_000_000  # year 2096: an expiry a client could write


async def a_finished_game(env, guild, channel) -> list:
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    from tests.e2e.support.helpers import play_to_end

    await play_to_end(await start_game(channel, [ann, bob]), [ann, bob])
    assert await env.bot.sessions.records.players(guild.id) == 2
    return [ann, bob]


@pytest.mark.parametrize("lang", sorted(NEEDS))
async def test_the_game_manager_role_gets_no_admin_click(
    simcord_env, guild, channel, locales, lang
):
    """A member of the game manager role (no Manage Server, the command not opened to it)
    presses crafted ids of the panel and of the questions: each is refused, in their
    language, naming the permission, and nothing changes."""
    env = simcord_env
    admin = make_admin(env, guild)
    role = guild.create_role("Game managers")
    manager = guild.add_member(env.create_user("mo"), roles=[role])
    said = await admin.slash(channel, "steal-admin set", setting="manager_role", value=str(role.id))
    assert said.response.content.startswith("`manager_role` is now")
    await a_finished_game(env, guild, channel)
    locales[manager.id] = LOCALES[lang]
    crafted = [
        ids.toggle("stealing", False),
        ids.admin("reset_board", FAR, 0, True),
        ids.admin("reset_settings", FAR, 0, True),
    ]
    message = bot_message(env, channel, crafted)
    before = await env.bot.storage.settings.get(guild.id)

    for custom_id in crafted:
        result = await manager.click(message, custom_id=custom_id)
        assert result.ephemeral
        assert result.response.content == t(lang, "admin.refused")
        assert NEEDS[lang] in result.response.content

    assert await env.bot.storage.settings.get(guild.id) == before
    assert await env.bot.sessions.records.players(guild.id) == 2  # not reset


async def test_a_manager_with_the_command_opened_is_refused_too(simcord_env, guild, channel):
    """Opened to the role under Integrations, the command still answers admins only."""
    staff = await make_staff(simcord_env, guild, channel)
    result = await staff.manager.slash(channel, "steal-admin settings")
    assert result.response.content == t("en", "admin.refused")
    errors = [type(getattr(e, "original", e)).__name__ for e in simcord_env.errors]
    assert errors == ["CheckFailure"]  # the check refused it (read: acknowledged)


async def test_a_question_counts_for_its_own_time_not_the_ids(simcord_env, guild, channel):
    """An admin's crafted Yes with an expiry far ahead answers no question: the bot keeps
    each question (and its 30 seconds) itself. The real one counts until its time is up."""
    env = simcord_env
    admin = make_admin(env, guild)
    await a_finished_game(env, guild, channel)
    crafted = bot_message(env, channel, [ids.admin("reset_board", FAR, 0, True)])

    result = await admin.click(crafted, custom_id=ids.admin("reset_board", FAR, 0, True))
    assert result.response.content.startswith("That question expired after 30 seconds")
    assert await env.bot.sessions.records.players(guild.id) == 2

    asked = (await admin.slash(channel, "steal-admin reset-leaderboard")).response
    yes = next(b["custom_id"] for b in buttons(asked) if b["label"].startswith("Yes"))
    await env.advance_time(31)  # its 30 seconds are over, on the bot's clock
    assert asked.content.startswith("That question expired") and buttons(asked) == []
    kept = bot_message(env, channel, [yes])  # its Yes, pressed from a client that kept it
    clicked = await admin.click(kept, custom_id=yes)
    assert clicked.response.content.startswith("That question expired")
    assert await env.bot.sessions.records.players(guild.id) == 2

    asked = (await admin.slash(channel, "steal-admin reset-leaderboard")).response
    await admin.click(asked, label="Yes, reset the leaderboard")
    assert await env.bot.sessions.records.players(guild.id) == 0  # in time: it counts
