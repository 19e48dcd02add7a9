"""/steal-admin channels: adding, listing and removing the channels games may start in, and
what players are told elsewhere."""

from __future__ import annotations

from tests.e2e.support.admin_panel import (
    channels_shown,
    make_admin,
    settings_shown,
)
from tests.e2e.support.helpers import (
    labels,
    title,
)


async def test_allowed_channels(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    admin = make_admin(simcord_env, guild)
    first = guild.create_text_channel("games-1")
    second = guild.create_text_channel("games-2")

    listed = await admin.slash(channel, "steal-admin channels list")
    assert listed.response.content == "Games may be started in: Everywhere (no channels chosen)."
    added = await admin.slash(channel, "steal-admin channels add", channel=first)
    assert added.ephemeral
    assert added.response.content == f"Games may now be started in: {first.mention}."
    added = await admin.slash(channel, "steal-admin channels add", channel=second)
    assert added.response.content == (
        f"Games may now be started in: {first.mention}, {second.mention}."
    )
    again = await admin.slash(channel, "steal-admin channels add", channel=second)
    assert again.response.content == f"{second.mention} is already on the list."

    elsewhere = await ann.slash(channel, "steal new")
    assert elsewhere.ephemeral
    assert elsewhere.response.content == (
        f"Games can't be started here. Try {first.mention}, {second.mention}."
    )
    assert channel.history() == []
    here = await ann.slash(first, "steal new")
    assert not here.ephemeral and title(here.response) == "Steal the Bundle: new game"
    listed = await admin.slash(channel, "steal-admin channels list")
    assert listed.ephemeral
    assert listed.response.content == f"Games may be started in: {first.mention}, {second.mention}."
    shown = await settings_shown(admin, channel)
    assert channels_shown(shown) == f"{first.mention}, {second.mention}"

    removed = await admin.slash(channel, "steal-admin channels remove", channel=first)
    assert removed.response.content == (
        f"Games may now be started in: {second.mention}. Games already going there carry on."
    )
    assert "Join" in labels(here.response)  # the lobby there is still open
    refused = await bob.slash(guild.create_text_channel("games-3"), "steal new")
    assert refused.response.content == f"Games can't be started here. Try {second.mention}."
    not_listed = await admin.slash(channel, "steal-admin channels remove", channel=first)
    assert not_listed.response.content == (
        f"{first.mention} is not on the list. Nothing to remove; the list subcommand shows the"
        " channels on it."
    )

    removed = await admin.slash(channel, "steal-admin channels remove", channel=second)
    assert (
        removed.response.content == "Games may now be started in: Everywhere (no channels chosen)."
    )
    anywhere = await bob.slash(channel, "steal new")  # an empty list means everywhere
    assert not anywhere.ephemeral and title(anywhere.response) == "Steal the Bundle: new game"
