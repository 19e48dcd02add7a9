"""Where a game or a tournament may start: the one check of the server's allowed channels and
of what the bot needs there, used by lobbies (cogs/play) and tournaments (cogs/tournament).
A thread counts as its parent channel for both: a server that allows #games allows its
threads (a tournament then refuses a thread for its own reason: it makes threads)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import discord

from bot.domain.place import Kind, Place
from bot.i18n import t

from .interactions import say
from .language import user_lang

# What the bot needs in a channel to run a game there (names: reply.perm.<name>).
# Attach Files: the table and the end screen are pictures.
NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
# What a tournament needs beside a game's needs: the tables' threads.
THREADS = ("create_public_threads", "send_messages_in_threads")


def allowed_here(interaction: discord.Interaction, allowed: Collection[int]) -> bool:
    """Whether the server's allowed channels (none: every channel) include this one; a thread
    counts as its parent channel."""
    if not allowed:
        return True
    parent = getattr(interaction.channel, "parent_id", None)
    return interaction.channel_id in allowed or parent in allowed


async def may_start(
    interaction: discord.Interaction, allowed: Collection[int], needs: Sequence[str] = NEEDED
) -> bool:
    """The check, with its refusal said to the member: the allowed channels first, then the
    permissions the bot lacks here. Outside a server there is neither: the DM with the bot
    lets it post, and a group DM is played through interactions alone (`place_of`). Nor in a
    server where only a member installed the app: the bot is no member there (the interaction
    can always answer), and no admin could have set its channels."""
    if interaction.guild_id is None or place_of(interaction).tokens_only:
        return True
    if not allowed_here(interaction, allowed):
        where = ", ".join(f"<#{c}>" for c in allowed)
        await say(interaction, "reply.wrong_channel", channels=where)
        return False
    lang = user_lang(interaction)
    missing = [t(lang, f"reply.perm.{perm}") for perm in needs
               if not getattr(interaction.app_permissions, perm)]  # fmt: skip
    if missing:
        await say(interaction, "reply.missing_permissions", missing=", ".join(missing))
        return False
    return True


def place_of(interaction: discord.Interaction) -> Place:
    """Where this interaction came from, and whether the bot token reaches it. In a server the
    bot is a member when the server installed the app (owner "0" is this server); the DM with
    the bot is always reachable; a group DM or another DM never is. An interaction that names
    no owner at all (a payload from before user installs, or a simulator's) is a server
    install's, as every interaction was then."""
    channel = interaction.channel_id or 0
    if interaction.guild_id:
        # discord.py keeps the parsed owners private; its public checks cannot tell "no
        # owners sent" from "installed by another person".
        owners = getattr(interaction, "_integration_owners", None)
        member = interaction.is_guild_integration() or not owners
        return Place(Kind.SERVER, interaction.guild_id, channel, bot_member=member)
    if interaction.context.private_channel:
        return Place(Kind.PRIVATE, None, channel, bot_member=False)
    return Place(Kind.BOT_DM, None, channel, bot_member=True)
