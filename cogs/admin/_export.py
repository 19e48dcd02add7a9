"""`/steal-admin export`: the server's leaderboard (CSV) and finished games (JSON lines), sent
as files to the admin who asked."""

from __future__ import annotations

import asyncio
import gzip
import io

import discord

from bot.adapter.interactions import guild_of, thinking
from bot.adapter.language import user_lang
from bot.domain.seats import is_ai
from bot.i18n import t, tn
from bot.ui import export
from bot.ui.text import ai_label

from . import _common as common
from ._common import Common


class Export:
    def __init__(self, common: Common) -> None:
        self.common = common

    async def send_export(self, interaction: discord.Interaction) -> None:
        lang = user_lang(interaction)
        await thinking(interaction)
        guild_id = guild_of(interaction)
        records = self.common.sessions.records
        board = await records.whole_board(guild_id)
        games = await records.whole_history(guild_id)
        players = {u for e in games for u in e.seats}
        names = await records.names(guild_id, players)
        names.update({u: ai_label("en", u) for u in players if is_ai(u)})  # AI seats have no row
        # Building the files is CPU work that grows with the history: off the event loop.
        table = await asyncio.to_thread(export.leaderboard_csv, board)
        lines = await asyncio.to_thread(export.games_jsonl, games, names)
        files = {"leaderboard.csv": table}
        if games:  # no empty file
            files["games.jsonl"] = lines
        limit = interaction.guild.filesize_limit if interaction.guild else 10 * 2**20
        if games and len(lines) > limit:
            del files["games.jsonl"]
            files["games.jsonl.gz"] = await asyncio.to_thread(gzip.compress, lines)
        if any(len(data) > limit for data in files.values()):
            await interaction.followup.send(t(lang, "admin.export.too_large"), ephemeral=True)
            return
        common.changed(interaction, f"exported {len(board)} players and {len(games)} games")
        await interaction.followup.send(
            t(
                lang,
                "admin.export.done",
                players=tn(lang, "admin.export.players", len(board)),
                games=tn(lang, "admin.export.games", len(games)),
            ),
            files=[discord.File(io.BytesIO(data), name) for name, data in files.items()],
            ephemeral=True,
        )
