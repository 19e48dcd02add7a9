"""The `/steal-admin` questions that expire: end a stuck game, reset the leaderboard or every
setting. Each is a Confirm/Cancel pair that counts for CONFIRM_SECONDS, then goes away."""

from __future__ import annotations

import asyncio
import contextlib

import discord

from bot.adapter.access import is_manager, refused
from bot.adapter.interactions import guild_of, reply, seen, tell, update
from bot.adapter.language import user_lang
from bot.i18n import t, tn
from bot.ui import ids
from bot.ui.widgets import button, view_of

from . import admin_common as common

CONFIRM_SECONDS = 30


class Questions:
    """The questions still open, so their buttons can be taken away (or the timers stopped
    when the cog unloads)."""

    def __init__(self) -> None:
        self.expiring: dict[tuple[int, str, int, int], asyncio.Task[None]] = {}

    def cancel_all(self) -> None:
        for task in self.expiring.values():
            task.cancel()

    async def ask(
        self, interaction: discord.Interaction, question: str, op: str, game_id: int, yes: str
    ) -> None:
        lang = user_lang(interaction)
        expires = int(discord.utils.utcnow().timestamp()) + CONFIRM_SECONDS
        buttons = view_of(
            button(ids.admin(op, expires, game_id, True), yes, discord.ButtonStyle.danger),
            button(ids.admin(op, expires, game_id, False), t(lang, "admin.cancel")),
        )
        text = f"{question}\n{tn(lang, 'admin.expires', CONFIRM_SECONDS)}"
        await reply(interaction, content=text, view=buttons)
        key = (interaction.user.id, op, game_id, expires)
        self.expiring[key] = asyncio.create_task(self.expire(interaction, key))

    async def expire(
        self, interaction: discord.Interaction, key: tuple[int, str, int, int]
    ) -> None:
        """Take the buttons away once the answer would no longer count."""
        try:
            await asyncio.sleep(CONFIRM_SECONDS)
            with contextlib.suppress(discord.HTTPException):
                expired = tn(user_lang(interaction), "admin.expired", CONFIRM_SECONDS)
                await interaction.edit_original_response(content=expired, view=None)
        finally:
            self.expiring.pop(key, None)

    async def on_answer(
        self, interaction: discord.Interaction, op: str, expires: int, game_id: int, yes: bool
    ) -> None:
        """A click on Confirm or Cancel."""
        lang = user_lang(interaction)
        if not await is_manager(interaction):
            await tell(interaction, refused(interaction))
            return
        task = self.expiring.pop((interaction.user.id, op, game_id, expires), None)
        if task is not None:
            task.cancel()
        if not yes:
            await update(interaction, content=t(lang, "admin.nothing_changed"), view=None)
            return
        if discord.utils.utcnow().timestamp() > expires:
            expired = tn(lang, "admin.expired", CONFIRM_SECONDS)
            await update(interaction, content=expired, view=None)
            return
        guild_id = guild_of(interaction)
        records = common.sessions(interaction).records
        if op == "reset_board":
            n = await records.reset_board(guild_id)
            common.changed(interaction, f"reset the leaderboard ({n} players)")
            done = tn(lang, "admin.board.done", n)
        elif op == "reset_settings":
            await records.reset_settings(guild_id)
            common.changed(interaction, "reset every setting")
            done = t(lang, "admin.reset_all.done")
        else:
            done = await end(interaction, game_id, op == "end_lobby")
        await update(interaction, content=done, view=None)


async def end(interaction: discord.Interaction, game_id: int, lobby_only: bool) -> str:
    """End the confirmed game; in the seconds since the question it may have ended, or (a
    lobby) started."""
    lang = user_lang(interaction)
    sessions = common.sessions(interaction)
    live = sessions.live(game_id)
    if live is None and await sessions.end_broken(guild_of(interaction), game_id):
        common.changed(interaction, f"ended game {game_id}, set aside as unreadable")
        return t(lang, "admin.end.done_broken")
    if live is None or live.guild_id != interaction.guild_id:
        return t(lang, "admin.end.gone")
    if lobby_only and sessions.lobby_of(game_id) is None:
        return t(lang, "admin.end.started")
    await seen(interaction)  # the ended message names the admin
    await sessions.cancel(live.channel_id, interaction.user.id, game_id=game_id, admin=True)
    common.changed(interaction, f"ended game {game_id} in channel {live.channel_id}")
    return t(lang, "admin.end.done")
