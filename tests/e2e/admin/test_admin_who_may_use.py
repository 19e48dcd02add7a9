"""Who may use each /steal-admin subcommand: a server admin, not the game manager role even when
the owner opens the command to it, and not a plain member.

SimCord notes used below:
- `/steal-admin` requires Manage Server by default; SimCord hides it from anyone else (SetupError,
  reason default-member-permissions), as Discord's command picker does. What a server owner
  does in Server Settings → Integrations is `guild.set_command_permissions(command_id, ...)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from simcord import SetupError

from tests.e2e.support.admin_effects import (
    answered_errors,
    snapshot,
)
from tests.e2e.support.admin_panel import (
    make_staff,
    panel_texts,
)
from tests.e2e.support.helpers import (
    labels,
)

REFUSED = (
    "You need the Manage Server permission to do that: setting up Steal the Bundle is for"
    " server admins. Ask someone who has it."
)


@dataclass
class Case:
    """One subcommand: its options for the admin, the manager and the plain member, what it
    needs first, and what staff are shown."""

    command: str
    options: dict[str, Any]  # who -> options (values "c1".."c3" name channels)
    seed: dict[str, Any]  # settings stored first
    shows: dict[str, str]  # who -> the reply's text (an embed's title, or the file's name)
    lobby: bool = False  # ann opens a lobby in c1 first


CASES = [
    Case("settings", {}, {}, {"admin": "panel:## Steal the Bundle: settings",
                              "manager": "panel:## Steal the Bundle: settings"}),
    Case(
        "set",
        {"admin": {"setting": "pings", "value": "off"},
         "manager": {"setting": "max_games", "value": "5"},
         "plain": {"setting": "turn_timer", "value": "30 s"}},
        {},
        {"admin": "`pings` is now **off** (was on). It applies from the next lobby.",
         "manager": "`max_games` is now **5** (was 10). It applies from the next lobby."},
    ),
    Case(
        "reset",
        {"admin": {"setting": "pings"}, "manager": {"setting": "max_games"},
         "plain": {"setting": "turn_timer"}},
        {"pings": False, "max_games": 5, "turn_timer": 30},
        {"admin": "`pings` is back to its default, **on**.",
         "manager": "`max_games` is back to its default, **10**."},
    ),
    Case(
        "channels add",
        {"admin": {"channel": "c1"}, "manager": {"channel": "c2"}, "plain": {"channel": "c3"}},
        {},
        {"admin": "Games may now be started in: <#c1>.",
         "manager": "Games may now be started in: <#c1>, <#c2>."},
    ),
    Case(
        "channels remove",
        {"admin": {"channel": "c1"}, "manager": {"channel": "c2"}, "plain": {"channel": "c3"}},
        {"channels": ["c1", "c2", "c3"]},
        {"admin": "Games may now be started in: <#c2>, <#c3>.",
         "manager": "Games may now be started in: <#c3>."},
    ),
    Case(
        "channels list",
        {},
        {"channels": ["c1"]},
        {"admin": "Games may be started in: <#c1>.", "manager": "Games may be started in: <#c1>."},
    ),
    Case(
        "end-game",
        {"admin": {"channel": "c1"}, "manager": {"channel": "c1"}, "plain": {"channel": "c1"}},
        {},
        {"admin": "End the lobby in <#c1>? Its players are told, and nothing is recorded.\n"
                  "This question expires in 30 seconds.",
         "manager": "End the lobby in <#c1>? Its players are told, and nothing is recorded.\n"
                    "This question expires in 30 seconds."},
        lobby=True,
    ),
    Case(
        "reset-leaderboard",
        {},
        {},
        {"admin": "Reset this server's leaderboard?",
         "manager": "Reset this server's leaderboard?"},
    ),
    Case(
        "season-new",
        {},
        {},
        {"admin": "End season 1 and start season 2?",
         "manager": "End season 1 and start season 2?"},
    ),
    Case("export", {}, {}, {"admin": "file:leaderboard.csv", "manager": "file:leaderboard.csv"}),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c.command for c in CASES])
async def test_who_may_use_each_subcommand(simcord_env, guild, players, case):
    env = simcord_env
    room = guild.create_text_channel("mods")
    rooms = {f"c{i}": guild.create_text_channel(f"games-{i}") for i in (1, 2, 3)}
    staff = await make_staff(env, guild, room)
    plain = players[3]

    def resolve(value):
        if isinstance(value, str) and value in rooms:
            return rooms[value]
        return value

    def text(expected: str) -> str:
        for key, ch in rooms.items():
            expected = expected.replace(f"<#{key}>", ch.mention)
        return expected

    for key, value in case.seed.items():
        if key == "channels":
            value = [rooms[c].id for c in value]
        await env.bot.storage.settings.set(guild.id, key, value)
    if case.lobby:
        await players[0].slash(rooms["c1"], "steal new")
    name = f"steal-admin {case.command}"

    for who, member in (("admin", staff.admin),):
        options = {k: resolve(v) for k, v in case.options.get(who, {}).items()}
        result = await member.slash(room, name, **options)
        assert result.ephemeral, who
        reply = result.response
        expected = text(case.shows[who])
        if expected.startswith("panel:"):
            assert panel_texts(reply)[0].startswith(expected.removeprefix("panel:")), who
        elif expected.startswith("file:"):
            assert [a.filename for a in reply.attachments] == [expected.removeprefix("file:")]
        else:
            assert reply.content.startswith(expected), (who, reply.content)
            if case.command in ("end-game", "reset-leaderboard", "season-new"):
                assert labels(reply)[1] == "Cancel" and labels(reply)[0].startswith("Yes, ")

    # the game manager role, though the owner opened the command to it under Integrations:
    # admin actions need Manage Server (docs/admin.md), so the bot refuses it
    before = await snapshot(env, guild, room, *rooms.values())
    options = {k: resolve(v) for k, v in case.options.get("manager", {}).items()}
    result = await staff.manager.slash(room, name, **options)
    assert result.ephemeral and result.response.content == REFUSED
    assert await snapshot(env, guild, room, *rooms.values()) == before
    assert answered_errors(env) == ["CheckFailure"]

    # a plain member: Discord does not even offer the command
    options = {k: resolve(v) for k, v in case.options.get("plain", {}).items()}
    with pytest.raises(SetupError, match="default-member-permissions"):
        await plain.slash(room, name, **options)

    # the owner opens it to @everyone under Integrations: the bot still refuses
    guild.set_command_permissions(staff.command_id, {staff.role: True, guild.default_role: True})
    result = await plain.slash(room, name, **options)

    assert result.ephemeral
    reply = result.response
    assert reply.content == REFUSED
    assert reply.embeds == [] and reply.components == [] and reply.attachments == []
    assert result.followups == []
    assert await snapshot(env, guild, room, *rooms.values()) == before
    assert answered_errors(env) == ["CheckFailure", "CheckFailure"]  # the manager's, this one
