"""Start-up: command sync policy, the commands' shape, default intents. Where each command is
offered (installs, contexts): test_installs.py."""

import discord

from tests.e2e.conftest import make_bot
from tests.e2e.support.helpers import title
from tests.e2e.support.play import command_syncs
from tests.e2e.support.screens import text as screen_text


async def test_the_commands_and_intents_are_not_privileged(simcord_env):
    bot = simcord_env.bot
    group, admin = bot.tree.get_commands()
    assert group.name == "steal"
    assert group.default_permissions is None
    assert {c.name for c in group.commands} == {
        "new", "join", "leave", "start", "hand", "table", "rules", "forfeit", "cancel",
        "leaderboard", "stats", "history", "replay", "forget-me", "tournament",
    }  # fmt: skip
    # Discord applies default permissions to top-level commands only: a group of its own.
    assert admin.name == "steal-admin" and admin.guild_only
    assert admin.default_permissions == discord.Permissions(manage_guild=True)
    assert {c.name for c in admin.commands} == {
        "settings", "set", "reset", "channels", "end-game", "reset-leaderboard", "season-new",
        "export", "forget",
    }  # fmt: skip
    intents = bot.intents
    assert not (intents.members or intents.presences or intents.message_content)


async def test_sync_happens_only_when_the_commands_changed(simcord_env, db_path, channel, players):
    assert len(command_syncs(simcord_env)) == 1  # the fixture's bot syncs and leaves a marker
    await simcord_env.restart_bot(make_bot(db_path, sync=None))
    assert len(command_syncs(simcord_env)) == 1  # same commands: no sync
    db_path.with_name(db_path.name + ".commands-synced").write_text("an older command set")
    await simcord_env.restart_bot(make_bot(db_path, sync=None))
    assert len(command_syncs(simcord_env)) == 2  # changed: synced
    await simcord_env.restart_bot(make_bot(db_path, sync=False))
    db_path.with_name(db_path.name + ".commands-synced").unlink()
    await simcord_env.restart_bot(make_bot(db_path, sync=False))
    assert len(command_syncs(simcord_env)) == 2  # --no-sync: never
    await simcord_env.restart_bot(make_bot(db_path, sync=True))
    assert len(command_syncs(simcord_env)) == 3  # --sync: always
    result = await players[0].slash(channel, "steal rules")
    assert result.ephemeral and screen_text(result.response).startswith("## 📖 Standard rules")


async def test_a_dev_guild_gets_the_commands_directly(
    simcord_env, db_path, guild, channel, players
):
    await simcord_env.restart_bot(make_bot(db_path, dev_guild_id=guild.id))
    put = command_syncs(simcord_env)[-1]
    assert f"/guilds/{guild.id}/commands" in put.path
    result = await players[0].slash(channel, "steal new")
    assert result.response.flags.components_v2  # the lobby, as a Components V2 card
    assert "new game" in title(result.response)


async def test_the_bot_freezes_what_start_up_made_for_the_garbage_collector_once_ready(
    simcord_env, db_path, channel, players, monkeypatch
):
    import gc

    frozen: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(simcord_env.bot.app is not None))
    await simcord_env.restart_bot(make_bot(db_path))  # as the tests' bots: nothing frozen
    assert frozen == []
    await simcord_env.restart_bot(make_bot(db_path, freeze_gc=True))  # as `python -m bot`
    assert frozen == [True]  # once, after the app was built and the games restored
    result = await players[0].slash(channel, "steal new")
    assert "Join" in str(result.response.components)
