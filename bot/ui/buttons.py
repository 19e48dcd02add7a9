"""The one persistent button type. Every button the bot sends is a `StealButton`.

Its template matches any custom_id on purpose: a crafted or outdated id still reaches our
handler, which answers politely, instead of Discord showing "This interaction failed".
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.i18n import language_of, t

from . import ids


class ButtonHandler(Protocol):
    async def on_button(
        self, interaction: discord.Interaction, action: ids.Action | None
    ) -> None: ...


class StealButton(discord.ui.DynamicItem[discord.ui.Button], template=re.compile(r"(?s:.*)")):
    def __init__(
        self,
        custom_id: str,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        button = discord.ui.Button(
            custom_id=custom_id, label=label, style=style, emoji=emoji, disabled=disabled, row=row
        )
        super().__init__(button)
        self.action = ids.parse(custom_id)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StealButton:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        handler: ButtonHandler | None = getattr(interaction.client, "button_handler", None)
        if handler is None:  # still starting up
            text = t(language_of(interaction.locale), "reply.starting_up")
            await interaction.response.send_message(text, ephemeral=True)
            return
        await handler.on_button(interaction, self.action)


def view_of(*buttons: StealButton) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view
