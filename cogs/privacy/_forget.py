"""`/steal forget-me` and `/steal-admin forget` (docs/privacy.md): each asks first, and its
Yes comes back as a forget button (the family cogs/privacy.py registers).

A forget button's custom_id is untrusted: "self" counts only when the member it names clicks
it, "admin" only for a manager of the server; both stop counting at their expiry.
"""

from __future__ import annotations

import logging

import discord

from bot.adapter.access import refused
from bot.adapter.edge import Edge
from bot.adapter.interactions import reply, tell, update
from bot.adapter.language import user_lang
from bot.i18n import t, tn
from bot.session.privacy import Playing, Privacy
from bot.ui import ids
from bot.ui.text import error_text, next_steps
from bot.ui.widgets import button, view_of

log = logging.getLogger(__name__)

CONFIRM_SECONDS = 60  # a forget question counts this long


async def ask_self(interaction: discord.Interaction) -> None:
    """`/steal forget-me`: the question, for the member alone."""
    lang = user_lang(interaction)
    await ask(interaction, "self", interaction.user.id, t(lang, "forget.self.question"))


async def ask(interaction: discord.Interaction, op: str, user_id: int, question: str) -> None:
    """The question with its Yes and No, ephemeral; `op`: "self", or "admin" (admin_forget)."""
    lang = user_lang(interaction)
    expires = int(discord.utils.utcnow().timestamp()) + CONFIRM_SECONDS
    yes = t(lang, f"forget.{op}.yes")
    buttons = view_of(
        button(ids.forget(op, expires, user_id, True), yes, discord.ButtonStyle.danger),
        button(ids.forget(op, expires, user_id, False), t(lang, "forget.keep")),
    )
    text = f"{question}\n{tn(lang, 'admin.expires', CONFIRM_SECONDS)}"
    await reply(interaction, content=text, view=buttons)


class Forget:
    def __init__(self, privacy: Privacy, edge: Edge) -> None:
        self.privacy = privacy
        self.edge = edge

    async def answered(
        self, interaction: discord.Interaction, op: str, expires: int, user_id: int, yes: bool
    ) -> None:
        """Yes or No to a forget question. Not `seen`: this member's name is not kept again."""
        lang = user_lang(interaction)
        if op == "self" and interaction.user.id != user_id:
            await tell(interaction, t(lang, "forget.not_yours"))
            return
        if op == "admin" and not await self.edge.is_manager(interaction):
            await tell(interaction, refused(interaction))
            return
        if not yes:
            await update(interaction, content=t(lang, "forget.kept"), view=None)
            return
        if discord.utils.utcnow().timestamp() > expires:
            await update(interaction, content=tn(lang, "admin.expired", CONFIRM_SECONDS), view=None)
            return
        privacy = self.privacy
        guild = None if op == "self" else interaction.guild_id
        try:
            await privacy.forget(user_id, guild)
        except Playing as exc:
            key = exc.admin_key if op == "admin" else None
            said = t(lang, key, **next_steps(lang)) if key else error_text(lang, exc)
            await update(interaction, content=said, view=None)
            return
        log.info("forgot a player (%s, guild %s)", op, interaction.guild_id)  # not whom
        if op == "self":
            done = t(lang, "forget.self.done")
        else:
            # A mention (it pings nobody): the client shows the member's name, which we no
            # longer keep.
            done = t(lang, "forget.admin.done", name=f"<@{user_id}>")
        await update(interaction, content=done, view=None)
