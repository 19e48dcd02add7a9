"""`/steal` commands and the game's buttons: interactions in, session calls, messages out."""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import settings
from bot.ai import DIFFICULTIES
from bot.engine import PRESETS
from bot.i18n import t
from bot.i18n.rules import preset_list, rules_title
from bot.presenter import Presenter
from bot.session import (
    NoGame,
    NotHost,
    NotInGame,
    SessionError,
)
from bot.ui import ids, render
from bot.ui.buttons import StealButton, view_of

from . import boards, hands, lobbies
from .access import is_manager
from .language import user_lang

if TYPE_CHECKING:
    from bot.client import StealBot

log = logging.getLogger(__name__)

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESETS]
SCORING_CHOICES = [
    app_commands.Choice(name="games won", value="wins"),
    app_commands.Choice(name="total cards", value="cards"),
]
DIFFICULTY_CHOICES = [app_commands.Choice(name=d, value=d) for d in DIFFICULTIES]
SORT_CHOICES = [app_commands.Choice(name=name.replace("_", " "), value=name) for name in ids.SORTS]


class Steal(commands.Cog):
    steal = app_commands.Group(
        name="steal", description="Play Steal the Bundle, the card game", guild_only=True
    )

    def __init__(self, bot: StealBot) -> None:
        self.bot = bot
        self.presenter = Presenter(bot)
        bot.button_handler = self

    @property
    def sessions(self):
        return self.bot.sessions

    async def cog_unload(self) -> None:
        await self.presenter.close()

    # ----- replies

    async def tell(self, interaction: discord.Interaction, text: str, **extra: Any) -> None:
        """An ephemeral answer, whether or not the interaction was answered already."""
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **extra)
        else:
            await interaction.response.send_message(text, ephemeral=True, **extra)

    async def say(self, interaction: discord.Interaction, key: str, **values: Any) -> None:
        """`tell` the catalog message `key`, in the language of the member who acted."""
        await self.tell(interaction, t(user_lang(interaction), key, **values))

    async def fail(self, interaction: discord.Interaction, error: BaseException) -> None:
        lang = user_lang(interaction)
        if isinstance(error, SessionError):
            await self.tell(interaction, error.text(lang))
            return
        code = secrets.token_hex(4)
        log.error("error %s in %s", code, self.describe(interaction), exc_info=error)
        text = t(lang, "reply.unexpected", code=code)
        try:
            await self.tell(interaction, text)
        except discord.HTTPException:
            log.warning("error %s: could not tell the user", code)

    @staticmethod
    def describe(interaction: discord.Interaction) -> str:
        what = interaction.command.qualified_name if interaction.command else "a button"
        return f"{what} (guild {interaction.guild_id}, channel {interaction.channel_id})"

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await self.fail(interaction, getattr(error, "original", error))

    async def seen(self, interaction: discord.Interaction) -> str:
        user = str(interaction.user.id)
        if interaction.guild_id is not None:
            await self.sessions.remember(interaction.guild_id, user, interaction.user.display_name)
        return user

    def link(self, guild_id: int, channel_id: int, game_id: int) -> str | None:
        ch = self.presenter.channels.get(game_id)
        if ch is None or ch.table_id is None:
            return None
        return render.jump_url(guild_id, channel_id, ch.table_id)

    # ----- /steal new, join, leave, start

    @steal.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        rules="The ruleset (default: standard)",
        max_players="2 to 4",
        games="Play a match of this many games with the same players (1 to 9)",
        scoring="How a match is won: most games won, or most cards in all",
        bots="AI opponents to seat (0 to 3)",
        difficulty="How strong the AI opponents are (default: medium)",
    )
    @app_commands.choices(
        rules=PRESET_CHOICES, scoring=SCORING_CHOICES, difficulty=DIFFICULTY_CHOICES
    )
    async def new(
        self,
        interaction: discord.Interaction,
        rules: app_commands.Choice[str] | None = None,
        max_players: app_commands.Range[int, 2, 4] = 4,
        games: app_commands.Range[int, 1, 9] = 1,
        scoring: app_commands.Choice[str] | None = None,
        bots: app_commands.Range[int, 0, 3] = 0,
        difficulty: app_commands.Choice[str] | None = None,
    ) -> None:
        picked = rules.value if rules else None
        how = scoring.value if scoring else "wins"
        level = difficulty.value if difficulty else "medium"
        await lobbies.new(self, interaction, picked, max_players, games, how, bots, level)

    @steal.command(name="join", description="Join the lobby in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await lobbies.lobby_op(self, interaction, "join", None)

    @steal.command(name="leave", description="Leave the lobby in this channel")
    async def leave(self, interaction: discord.Interaction) -> None:
        await lobbies.lobby_op(self, interaction, "leave", None)

    @steal.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        await lobbies.lobby_op(self, interaction, "start", None)

    # ----- /steal hand, table, rules

    @steal.command(name="hand", description="Show your hand (only you can see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.seen(interaction)
        table = self.sessions.table_in(interaction.channel_id)
        await hands.send_hand(self, interaction, table)

    @steal.command(name="table", description="Post the table again at the bottom of the channel")
    async def table(self, interaction: discord.Interaction) -> None:
        table = self.sessions.table_in(interaction.channel_id)
        ch = self.presenter.channel(table.game_id, table.guild_id, table.channel_id)
        ch.table = table
        public = render.public_lang(table)
        message = render.table(public, table, self.sessions.names, ch.log)
        await interaction.response.send_message(**message.kwargs())
        sent = await interaction.original_response()
        old = ch.table_id
        await self.presenter.set_table_id(ch, sent.id)
        self.presenter.relink_ping(ch)
        if old is not None:
            target = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            moved = render.table_moved(public, table.guild_id, table.channel_id, sent.id)
            try:
                await target.get_partial_message(old).edit(**moved.kwargs())
            except discord.HTTPException as exc:
                log.info("game %s: old table not edited (%s)", table.game_id, exc)

    @steal.command(name="rules", description="The rules in play here, or of a preset")
    @app_commands.describe(preset="A preset to read about")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(
        self, interaction: discord.Interaction, preset: app_commands.Choice[str] | None = None
    ) -> None:
        await self.send_rules(interaction, preset.value if preset else None)

    async def send_rules(self, interaction: discord.Interaction, name: str | None) -> None:
        lang = user_lang(interaction)
        if name is not None:
            embed = render.rules_embed(lang, PRESETS[name], rules_title(lang, PRESETS[name]))
        else:
            in_play = self.rules_in(interaction.channel_id)
            if in_play is None:  # the rules a new game here would have
                values = (await self.bot.storage.settings.get(interaction.guild_id)).values
                server = settings.rules_for(values)
                title = t(lang, "reply.rules_no_game", title=rules_title(lang, server))
                embed = render.rules_embed(lang, server, title)
            else:
                embed = render.rules_embed(lang, in_play, None)
            embed.add_field(name=t(lang, "reply.presets"), value=preset_list(lang), inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    def rules_in(self, channel_id: int):
        game_id = self.sessions.channels.get(channel_id)
        if game_id in self.sessions.lobbies:
            return self.sessions.lobbies[game_id].rules
        if game_id in self.sessions.tables:
            return self.sessions.tables[game_id].game.rules
        return None

    # ----- /steal leaderboard, stats, history (cogs/boards.py does the work)

    @steal.command(name="leaderboard", description="This server's rankings")
    @app_commands.describe(sort="How to rank players (default: rating)", page="Which page")
    @app_commands.choices(sort=SORT_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        sort: app_commands.Choice[str] | None = None,
        page: app_commands.Range[int, 1, 10_000] = 1,
    ) -> None:
        await boards.leaderboard(self, interaction, sort.value if sort else "rating", page)

    @steal.command(name="stats", description="A player's games, wins, steals and rating")
    @app_commands.describe(member="Whose stats (default: yours)")
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        await boards.stats(self, interaction, member or interaction.user)

    @steal.command(name="history", description="The last finished games here, or a member's")
    @app_commands.describe(member="Only games this member played")
    async def history(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        await boards.history(self, interaction, member)

    # ----- /steal forfeit, cancel

    @steal.command(name="forfeit", description="Leave the game: the bot plays your cards")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        user = await self.seen(interaction)
        table = self.sessions.table_in(interaction.channel_id)
        if table.seat_of(user) is None:
            raise NotInGame()
        await self.ask(interaction, "reply.forfeit", "forfeit", table.game_id)

    @steal.command(name="cancel", description="End the lobby or game here, without stats")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.seen(interaction)
        game_id = self.sessions.channels.get(interaction.channel_id)
        if game_id is None:
            raise NoGame()
        lobby = self.sessions.lobbies.get(game_id)
        host = lobby.host_id if lobby else self.sessions.tables[game_id].host_id
        await self.confirm_cancel(interaction, game_id, host)

    async def confirm_cancel(self, interaction: discord.Interaction, game_id: int, host: str):
        if str(interaction.user.id) != host and not await is_manager(self.bot, interaction):
            raise NotHost("error.only_host_cancels")
        if game_id in self.sessions.lobbies:
            await self.ask(interaction, "reply.cancel.lobby", "close", game_id)
        else:
            await self.ask(interaction, "reply.cancel.game", "cancel", game_id)

    async def ask(self, interaction: discord.Interaction, key: str, op: str, game_id: int) -> None:
        """A yes/no question: `key` is the question, `key`.yes its Yes button."""
        lang = user_lang(interaction)
        buttons = view_of(
            StealButton(ids.confirm(op, game_id, True), t(lang, f"{key}.yes"),
                        discord.ButtonStyle.danger),
            StealButton(ids.confirm(op, game_id, False), t(lang, "reply.keep_playing")),
        )  # fmt: skip
        await self.tell(interaction, t(lang, key), view=buttons)

    async def on_confirm(self, interaction: discord.Interaction, action: ids.Action) -> None:
        lang = user_lang(interaction)
        if not action.yes:
            text = t(lang, "reply.nothing_changed")
            await interaction.response.edit_message(content=text, view=None)
            return
        # The question was about this lobby or this game: a lobby that has since started is not
        # the lobby the member agreed to close.
        live = self.sessions.lobbies if action.op == "close" else self.sessions.tables
        if action.game_id not in live:
            gone = "reply.lobby_already_gone" if action.op == "close" else "reply.game_already_over"
            await interaction.response.edit_message(content=t(lang, gone), view=None)
            return
        if action.op == "forfeit":
            await self.sessions.forfeit(action.game_id, interaction.user.id)
            text = t(lang, "reply.forfeited")
            await interaction.response.edit_message(content=text, view=None)
            return
        await self.sessions.cancel(
            interaction.channel_id, interaction.user.id, await is_manager(self.bot, interaction)
        )
        await interaction.response.edit_message(content=t(lang, "reply.cancelled"), view=None)

    # ----- buttons

    async def on_button(self, interaction: discord.Interaction, action: ids.Action | None) -> None:
        try:
            if action is None or interaction.guild_id is None:
                await self.say(interaction, "reply.unknown_button")
                return
            if action.kind == "lobby":
                await lobbies.lobby_op(self, interaction, action.op, action.game_id)
            elif action.kind == "confirm":
                await self.seen(interaction)
                await self.on_confirm(interaction, action)
            elif action.kind in ("board", "record"):
                await boards.on_button(self, interaction, action)
            elif action.kind == "rematch":
                await lobbies.rematch(self, interaction, action.game_id)
            elif action.kind == "admin":
                await self.bot.get_cog("Admin").on_answer(interaction, action)
            else:
                await hands.on_game_button(self, interaction, action)
        except Exception as exc:
            await self.fail(interaction, exc)

    # ----- session events

    async def on_session_event(self, kind: str, game_id: int, payload: dict[str, Any]) -> None:
        """Called by the session layer; only marks work for the presenter, never waits on it."""
        table = payload.get("table")
        if kind == "moved":
            self.presenter.moved(table, payload)
        elif kind == "game_over":
            self.presenter.ended(table, payload.get("next"))
        elif kind in ("away", "forfeited", "back"):
            live = self.sessions.tables.get(game_id)
            if live is not None:
                self.presenter.changed(live)
        elif kind in ("cancelled", "lobby_expired", "lobby_closed"):
            self.closed(kind, game_id, payload)

    def closed(self, kind: str, game_id: int, payload: dict[str, Any]) -> None:
        """A lobby or game ended without a result: its message says so, in its language."""
        ch = self.presenter.channels.get(game_id)
        lang = ch.lang if ch is not None else "en"
        if kind == "lobby_expired":
            waited = payload.get("seconds") or 600
            self.presenter.cancelled(game_id, render.lobby_expired(lang, waited))
        elif kind == "lobby_closed":
            self.presenter.cancelled(game_id, render.lobby_emptied(lang))
        else:
            what = "game" if ch is not None and ch.table is not None else "lobby"
            by, names, admin = payload["by"], self.sessions.names, payload["admin"]
            self.presenter.cancelled(game_id, render.cancelled(lang, what, by, names, admin))
            if admin:
                ended = render.ended_by_admin(lang, what, by, payload["players"])
                self.presenter.notice(game_id, ended)

    async def refresh_restored(self, game_ids: list[int]) -> None:
        """After a restart: bring every restored lobby and table message up to date."""
        for game_id in game_ids:
            row = await self.bot.storage.games.get(game_id)
            if row is None:
                continue
            table = self.sessions.tables.get(game_id)
            if table is not None:
                self.presenter.restored(table, row.table_message_id, row.ping_message_id)
                continue
            lobby = self.sessions.lobbies.get(game_id)
            if lobby is not None:
                ch = self.presenter.channel(game_id, row.guild_id, row.channel_id)
                ch.table_id, ch.lang = row.lobby_message_id, render.public_lang(lobby)
                await lobbies.edit_lobby(self, lobby)
