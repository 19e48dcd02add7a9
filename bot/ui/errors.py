"""Errors and refusals as a member reads them: what went wrong, what to do next and, where
there is a table to go to, a link button to it (not a raw 90-character URL)."""

from __future__ import annotations

import discord

from bot.i18n import t
from bot.session.errors import SessionError

from .render import Message
from .text import error_text

# Errors about a game the member can look at but not act in: the answer links to its table.
LINKED = frozenset({"error.not_in_game", "error.already_running"})


def go_to_table(lang: str, link: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=t(lang, "error.go_to_table"), url=link, emoji="➡️"))
    return view


def linked(lang: str, text: str, link: str | None) -> Message:
    """`text`, with a "Go to the table" button when the table's message is known."""
    return Message(content=text, view=go_to_table(lang, link) if link else None)


def error_message(lang: str, error: SessionError, link: str | None = None) -> Message:
    return linked(lang, error_text(lang, error), link if error.key in LINKED else None)
