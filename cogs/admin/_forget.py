"""`/steal-admin forget member:`: a manager deletes what the bot keeps about a member in this
server (docs/admin.md, docs/privacy.md). The question and its answer are cogs/forget.py's,
which checks the manager again at the click."""

from __future__ import annotations

import discord

from bot.adapter.language import user_lang
from bot.i18n import t
from bot.ui.names import shown
from cogs.privacy._forget import ask


async def ask_forget(interaction: discord.Interaction, member: discord.abc.User) -> None:
    lang = user_lang(interaction)
    question = t(lang, "forget.admin.question", name=shown(member.display_name))
    await ask(interaction, "admin", member.id, question)
