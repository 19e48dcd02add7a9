"""Where the commands are offered (issue 36): `/steal` to server and user installs, in servers,
the DM with the bot and group DMs; `/steal-admin` to server installs in servers only. Read from
the payloads SimCord stored at the sync, as Discord would get them."""

from __future__ import annotations

GUILD, BOT_DM, PRIVATE = 0, 1, 2  # Discord's interaction context types
SERVER_INSTALL, USER_INSTALL = 0, 1  # its application integration types


def synced(env, name: str) -> dict:
    (command,) = [c for c in env.backend.commands[None].values() if c["name"] == name]
    return command


async def test_steal_is_offered_to_both_installs_everywhere(simcord_env):
    steal = synced(simcord_env, "steal")
    assert sorted(steal["integration_types"]) == [SERVER_INSTALL, USER_INSTALL]
    assert sorted(steal["contexts"]) == [GUILD, BOT_DM, PRIVATE]


async def test_steal_admin_stays_a_server_install_in_servers(simcord_env):
    admin = synced(simcord_env, "steal-admin")
    assert admin["integration_types"] == [SERVER_INSTALL]
    assert admin["contexts"] == [GUILD]


async def test_a_user_sees_steal_in_the_dm_with_the_bot_but_not_steal_admin(simcord_env):
    user = simcord_env.create_user("ann")
    offered = user.available_commands()
    assert "steal new" in offered and "steal rules" in offered
    assert not [c for c in offered if c.startswith("steal-admin")]
