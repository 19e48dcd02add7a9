"""The `/steal-admin` questions that expire: end a stuck game, reset the leaderboard or every
setting. Each is a Confirm/Cancel pair that counts for CONFIRM_SECONDS, then goes away.

What a question asks, whom and until when is kept here, by a random nonce its buttons carry;
a click names only the nonce, so a crafted one cannot extend the time or change what is
asked (a custom_id is the client's). A restart forgets the questions: their buttons then
answer that they expired."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from dataclasses import dataclass, field

import discord

from bot.adapter.interactions import guild_of, reply, update
from bot.adapter.language import user_lang
from bot.i18n import t, tn
from bot.ui import ids
from bot.ui.widgets import button, view_of

from . import _common as common
from ._common import Common

CONFIRM_SECONDS = 30
NONCES = 10**18  # a nonce is below this: what an id's number field reads (bot/ui/ids.py)


@dataclass
class Question:
    user_id: int
    guild_id: int
    op: str
    game_id: int
    expires: float  # the bot's clock (Discord's time), never the client's
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Questions:
    """The questions still open, by nonce, so an answer is checked against what was asked
    and their buttons can be taken away (or the timers stopped when the cog unloads)."""

    def __init__(self, common: Common) -> None:
        self.common = common
        self.open: dict[int, Question] = {}

    def cancel_all(self) -> None:
        for question in self.open.values():
            if question.task is not None:
                question.task.cancel()

    async def ask(
        self, interaction: discord.Interaction, question: str, op: str, game_id: int, yes: str
    ) -> None:
        lang = user_lang(interaction)
        nonce = secrets.randbelow(NONCES)
        expires = discord.utils.utcnow().timestamp() + CONFIRM_SECONDS
        asked = Question(interaction.user.id, guild_of(interaction), op, game_id, expires)
        self.open[nonce] = asked
        buttons = view_of(
            button(ids.admin(op, nonce, game_id, True), yes, discord.ButtonStyle.danger),
            button(ids.admin(op, nonce, game_id, False), t(lang, "admin.cancel")),
        )
        text = f"{question}\n{tn(lang, 'admin.expires', CONFIRM_SECONDS)}"
        try:
            await reply(interaction, content=text, view=buttons)
        except BaseException:
            self.open.pop(nonce, None)
            raise
        asked.task = asyncio.create_task(self.expire(interaction, nonce))

    async def expire(self, interaction: discord.Interaction, nonce: int) -> None:
        """Take the buttons away once the answer would no longer count."""
        try:
            await asyncio.sleep(CONFIRM_SECONDS)
            with contextlib.suppress(discord.HTTPException):
                expired = tn(user_lang(interaction), "admin.expired", CONFIRM_SECONDS)
                await interaction.edit_original_response(content=expired, view=None)
        finally:
            self.open.pop(nonce, None)

    def take(
        self, interaction: discord.Interaction, op: str, nonce: int, game_id: int
    ) -> Question | None:
        """The open question a click answers: asked of this member, in this server, about
        this, and not expired; it is answered once. None for anything else."""
        asked = self.open.get(nonce)
        if asked is None or (asked.user_id, asked.guild_id, asked.op, asked.game_id) != (
            interaction.user.id, interaction.guild_id, op, game_id
        ):  # fmt: skip
            return None
        del self.open[nonce]
        if asked.task is not None:
            asked.task.cancel()
        if discord.utils.utcnow().timestamp() > asked.expires:
            return None
        return asked

    async def on_answer(
        self, interaction: discord.Interaction, op: str, nonce: int, game_id: int, yes: bool
    ) -> None:
        """A click on Confirm or Cancel (admin.py lets only admins this far)."""
        lang = user_lang(interaction)
        if self.take(interaction, op, nonce, game_id) is None:
            expired = tn(lang, "admin.expired", CONFIRM_SECONDS)
            await update(interaction, content=expired, view=None)
            return
        if not yes:
            await update(interaction, content=t(lang, "admin.nothing_changed"), view=None)
            return
        guild_id = guild_of(interaction)
        records = self.common.sessions.records
        if op == "reset_board":
            n = await records.reset_board(guild_id)
            common.changed(interaction, f"reset the leaderboard ({n} players)")
            done = tn(lang, "admin.board.done", n)
        elif op == "new_season":
            done = await self.new_season(interaction, game_id)
        elif op == "reset_settings":
            await records.reset_settings(guild_id)
            common.changed(interaction, "reset every setting")
            done = t(lang, "admin.reset_all.done")
        else:
            done = await self.end(interaction, game_id, op == "end_lobby")
        await update(interaction, content=done, view=None)

    async def new_season(self, interaction: discord.Interaction, number: int) -> str:
        """End the confirmed season (`number`, as asked) and begin the next; if it ended in the
        seconds since the question (its time ran out, another click), nothing changes."""
        lang = user_lang(interaction)
        sessions = self.common.sessions
        guild_id = guild_of(interaction)
        configured = await sessions.records.language(guild_id)
        fixed = None if configured == "follow" else configured  # else: as its latest game
        ended = await sessions.seasons.end(guild_id, number, fixed)
        if ended is None:
            return t(lang, "admin.season.gone", n=number)
        common.changed(interaction, f"ended season {number} ({ended.players} players)")
        return tn(lang, "admin.season.done", ended.players, season=number, next=number + 1)

    async def end(self, interaction: discord.Interaction, game_id: int, lobby_only: bool) -> str:
        """End the confirmed game; in the seconds since the question it may have ended, or (a
        lobby) started."""
        lang = user_lang(interaction)
        sessions = self.common.sessions
        live = sessions.live(game_id)
        if live is None and await sessions.end_broken(guild_of(interaction), game_id):
            common.changed(interaction, f"ended game {game_id}, set aside as unreadable")
            return t(lang, "admin.end.done_broken")
        if live is None or live.guild_id != guild_of(interaction):
            return t(lang, "admin.end.gone")
        if lobby_only and sessions.lobby_of(game_id) is None:
            return t(lang, "admin.end.started")
        await self.common.edge.seen(interaction)  # the ended message names the admin
        await sessions.cancel(live.channel_id, interaction.user.id, game_id=game_id, admin=True)
        common.changed(interaction, f"ended game {game_id} in channel {live.channel_id}")
        return t(lang, "admin.end.done")
