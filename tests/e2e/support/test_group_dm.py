"""The group-DM layer (tests/e2e/support/group_dm.py) answers as Discord does where the bot is no
member. A test-only command, offered to user installs in servers and group DMs, reports what
the bot received and what its requests got back."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.adapter.channels import place_of
from bot.domain.place import Kind
from bot.shards import Shards
from tests.e2e.conftest import make_bot
from tests.e2e.support.group_dm import PRIVATE_APP_PERMISSIONS, TokenPlace


@pytest.fixture
def probed() -> list[dict[str, Any]]:
    """What each run of /probe saw: its interaction, and every request's outcome."""
    return []


@pytest.fixture
def simcord_bot(simcord_bot, probed):
    return with_probe(simcord_bot, probed)


def with_probe(bot, probed: list[dict[str, Any]]):
    """`bot` with the test-only /probe, whose runs go to `probed`."""

    @app_commands.command(name="probe", description="Test only: report what reached the bot")
    @app_commands.allowed_installs(guilds=False, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=True)
    async def probe(
        interaction: discord.Interaction,
        followups: int = 0,
        defer: bool = False,
        bot_token: bool = False,
        ephemeral: bool = False,
        later: int = 0,
    ) -> None:
        run: dict[str, Any] = {"interaction": interaction, "outcomes": []}
        probed.append(run)

        async def attempt(request) -> None:
            try:
                await request
                run["outcomes"].append("ok")
            except discord.HTTPException as exc:
                run["outcomes"].append((exc.status, exc.code))

        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Poke", custom_id="gdm-probe"))
        if defer:
            await interaction.response.defer(thinking=True)
        else:
            await interaction.response.send_message("probed", view=view, ephemeral=ephemeral)
        for n in range(followups):
            await attempt(interaction.followup.send(f"followup {n + 1}"))
        if bot_token:
            await attempt(interaction.channel.send("by the bot token"))
        if later:
            await asyncio.sleep(later)
            await attempt(interaction.edit_original_response(content="later"))

    bot.tree.add_command(probe)
    return bot


@pytest.fixture
def people(simcord_env):
    return [simcord_env.create_user(n) for n in ("ann", "bob", "cat")]


@pytest.fixture
def gdm(simcord_env, monkeypatch, people):
    return TokenPlace.group_dm(simcord_env, monkeypatch, people, installer=people[0], name="us")


async def test_a_command_in_the_group_dm_reaches_the_bot_as_discord_sends_it(gdm, people, probed):
    ann, bob, _ = people
    await gdm.slash(ann, "probe")
    await gdm.slash(bob, "probe")  # a friend who did not install the app

    by_ann, by_bob = (run["interaction"] for run in probed)
    for interaction in (by_ann, by_bob):
        assert interaction.context.private_channel and interaction.guild_id is None
        assert interaction.channel.type is discord.ChannelType.group
        assert {u.id for u in interaction.channel.recipients} == {p.id for p in people}
        assert interaction.app_permissions.value == PRIVATE_APP_PERMISSIONS
        assert interaction.app_permissions.attach_files
        assert not interaction.is_guild_integration()
        assert interaction._integration_owners == {1: ann.id}
        place = place_of(interaction)
        assert (place.kind, place.guild_id, place.bot_member) == (Kind.PRIVATE, None, False)
        assert place.channel_id == gdm.channel_id
    assert by_ann.is_user_integration() and not by_bob.is_user_integration()
    assert isinstance(by_bob.user, discord.User)  # a user, no member
    assert gdm.refused == [] and gdm.total == 2  # the two callbacks
    assert gdm.bot_token_calls() == []


async def test_a_command_not_offered_in_group_dms_cannot_be_run_there(gdm, people):
    with pytest.raises(Exception, match="not offered here"):
        await gdm.slash(people[0], "steal-admin settings")  # a server install's, in servers


async def test_everyone_sees_a_public_reply_and_only_the_clicker_an_ephemeral(gdm, people, probed):
    ann, bob, cat = people
    reply = (await gdm.slash(ann, "probe")).response
    assert [m.id for m in gdm.seen_by(cat)] == [reply.id]

    clicked = await gdm.click(bob, reply, label="Poke")  # the bot's answer to a stray button
    answer = clicked.response
    assert clicked.acknowledged and answer.ephemeral
    assert [m.id for m in gdm.seen_by(bob)] == [reply.id, answer.id]
    assert gdm.ephemerals(bob) and not gdm.ephemerals(cat)
    assert [m.id for m in gdm.seen_by(cat)] == [reply.id]

    mine = (await gdm.slash(cat, "probe", ephemeral=True)).response  # a button on an ephemeral
    assert [m.id for m in gdm.ephemerals(cat)] == [mine.id]
    assert (await gdm.click(cat, mine, label="Poke")).acknowledged
    with pytest.raises(Exception, match="not visible"):
        await gdm.click(ann, mine, label="Poke")


async def test_a_bot_token_send_into_the_group_dm_is_refused_and_counted(gdm, people, probed):
    await gdm.slash(people[1], "probe", bot_token=True)

    assert probed[0]["outcomes"] == [(403, 50001)]
    assert gdm.refused == [f"POST /channels/{gdm.channel_id}/messages"]
    assert gdm.bot_token_calls() == gdm.refused


async def test_a_sixth_followup_of_one_token_is_refused(gdm, people, probed):
    result = await gdm.slash(people[0], "probe", followups=6)

    assert probed[0]["outcomes"] == ["ok"] * 5 + [(400, 40094)]
    interaction_id = probed[0]["interaction"].id
    assert gdm.over_cap == [interaction_id]
    assert gdm.followups[interaction_id] == 5 and len(result.followups) == 5
    assert gdm.requests[interaction_id] == 7 == gdm.total  # the callback, six followups


async def test_completing_a_deferred_reply_is_not_a_followup(gdm, people, probed):
    await gdm.slash(people[0], "probe", defer=True, followups=6)

    assert probed[0]["outcomes"] == ["ok"] * 6 and gdm.over_cap == []


@pytest.mark.parametrize(("later", "outcome"), [(15 * 60 - 1, "ok"), (15 * 60 + 1, (401, 50027))])
async def test_a_token_runs_out_15_minutes_after_its_interaction(
    simcord_env, gdm, people, probed, later, outcome
):
    await gdm.slash(people[0], "probe", later=later)
    assert probed[0]["outcomes"] == []
    await simcord_env.advance_time(later + 1)

    assert probed[0]["outcomes"] == [outcome]
    assert gdm.expired == ([] if outcome == "ok" else [probed[0]["interaction"].id])


async def test_a_server_where_only_a_person_installed_the_app(simcord_env, monkeypatch, probed):
    guild = simcord_env.create_guild()
    room = guild.create_text_channel("games")
    ann, bob = (guild.add_member(simcord_env.create_user(n)) for n in ("ann", "bob"))
    place = TokenPlace.user_server(simcord_env, monkeypatch, room, [ann, bob], installer=ann)

    await place.slash(bob, "probe", bot_token=True)

    interaction = probed[0]["interaction"]
    assert interaction.guild_id == guild.id and interaction.context.guild
    assert interaction._integration_owners == {1: ann.id}
    place_here = place_of(interaction)
    assert (place_here.kind, place_here.bot_member) == (Kind.SERVER, False)
    assert probed[0]["outcomes"] == [(403, 50001)]
    assert place.refused == [f"POST /channels/{room.id}/messages"]


@pytest.mark.bot_options(shards=Shards(2, (0,)))
async def test_group_dm_interactions_reach_shard_0_only_and_the_layer_outlives_restarts(
    simcord_env, db_path, gdm, people, probed
):
    await gdm.slash(people[0], "probe")
    assert len(probed) == 1

    shard_1 = make_bot(db_path, sync=False, shards=Shards(2, (1,)))
    await simcord_env.restart_bot(with_probe(shard_1, probed))
    assert not (await gdm.slash(people[0], "probe")).acknowledged  # no guild: shard 0's
    assert len(probed) == 1

    shard_0 = make_bot(db_path, sync=False, shards=Shards(2, (0,)))
    await simcord_env.restart_bot(with_probe(shard_0, probed))
    await gdm.slash(people[1], "probe", followups=6)
    assert probed[-1]["interaction"].guild_id is None and len(probed) == 2
    assert gdm.over_cap == [probed[-1]["interaction"].id]


async def test_a_server_that_installed_the_app_and_the_dm_with_the_bot(
    simcord_env, guild, channel, players, probed
):
    """The conftest's server_install: SimCord's own actors, with the owners Discord sends."""
    probe = next(c for c in simcord_env.bot.tree.get_commands() if c.name == "probe")
    probe.allowed_installs = app_commands.AppInstallationType(guild=True, user=True)
    probe.allowed_contexts = app_commands.AppCommandContext(guild=True, dm_channel=True)
    await simcord_env.bot.tree.sync()
    ann = players[0]
    await ann.slash(channel, "probe")
    await ann.user.slash("probe")  # in the DM with the bot

    in_server, in_dm = (place_of(run["interaction"]) for run in probed)
    assert (in_server.kind, in_server.guild_id, in_server.bot_member) == (
        Kind.SERVER, guild.id, True)  # fmt: skip
    assert (in_dm.kind, in_dm.bot_member) == (Kind.BOT_DM, True)
