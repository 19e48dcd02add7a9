"""Buttons as the ui draws them: plain buttons whose custom_id (bot/ui/ids.py) says what they
do. They are sent as they are; their families (bot/adapter/buttons.py) answer their clicks."""

from __future__ import annotations

from typing import cast

import discord


def button(
    custom_id: str,
    label: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    emoji: str | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(
        custom_id=custom_id, label=label, style=style, emoji=emoji, disabled=disabled, row=row
    )


def view_of(*buttons: discord.ui.Button[discord.ui.View]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in buttons:
        view.add_item(item)
    return view


def row(
    *buttons: discord.ui.Button[discord.ui.View],
) -> discord.ui.ActionRow[discord.ui.LayoutView]:
    """Buttons in a layout's row. The ui draws plain buttons (typed for a View); a layout holds
    them just the same."""
    return discord.ui.ActionRow(*cast("list[discord.ui.Button[discord.ui.LayoutView]]", buttons))
