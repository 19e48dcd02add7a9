"""/steal leaderboard, stats, history and profile, and their buttons (leaderboard pages,
records).

Thin: read through the session layer, render with bot/ui/boards.py (the global ladder and the
profile: bot/ui/ladder.py), reply. Options and custom_ids are untrusted: sorts are checked
against ids.SORTS, scopes against SCOPES, and pages are clamped before they reach a query.
A board is the place's (Place.board_id): a server's, or a group DM's or DM's own.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot import work
from bot.adapter.channels import place_of
from bot.adapter.edge import Edge
from bot.adapter.interactions import guild_of, reply, tell, update
from bot.adapter.language import user_lang
from bot.adapter.registry import Handler
from bot.domain import server_settings as settings
from bot.domain.values import Season
from bot.session import Sessions
from bot.ui import boards as ui
from bot.ui import history as history_ui
from bot.ui import ids
from bot.ui import ladder as ladder_ui
from bot.ui.render import Message
from bot.ui.stats_card import render_card

SCOPES = ("server", "global")  # /steal leaderboard scope: this place's board, or the ladder
SHOW_NAME = ("show", "hide")  # /steal profile global_name


def whose_of(member: discord.abc.User, me: bool) -> str | None:
    """Whose stats a message names: None for the reader's own."""
    return None if me else member.display_name


class Boards:
    def __init__(self, sessions: Sessions, edge: Edge) -> None:
        self.sessions = sessions
        self.edge = edge

    def families(self) -> dict[str, Handler]:
        return {
            "board": lambda i, a: self.turn_page(i, a.op, a.game_id),
            "record": lambda i, a: self.send_record(i, a.game_id),
        }

    async def board(
        self, interaction: discord.Interaction, sort: str, page: int, lang: str
    ) -> Message:
        if sort not in ids.SORTS:
            sort = "rating"
        guild_id = guild_of(interaction)
        sessions = self.sessions
        records = sessions.records
        count = await records.players(guild_id)
        shown = ui.clamp_page(page, count)  # also keeps a crafted huge page out of OFFSET
        standings = await records.board(guild_id, sort, ui.PER_PAGE, (shown - 1) * ui.PER_PAGE)
        # The member who asked (or turned the page): their row is highlighted, or shown below.
        me = await records.standing(guild_id, str(interaction.user.id), sort) if count else None
        season = await sessions.seasons.current(guild_id)
        # An empty board after the asker's own games: say so when games with AI are left out
        # (and how an admin changes it: in a server, where /steal-admin is offered).
        ai_off = interaction.guild_id is not None and not count
        ai_off = ai_off and not (await records.settings(guild_id)).values["ai_counts"]
        ai_off = ai_off and await records.played(guild_id, str(interaction.user.id))
        return ui.leaderboard(
            lang, standings, sort, shown, count, page, me, season=season, ai_uncounted=ai_off
        )

    async def past_board(
        self, interaction: discord.Interaction, past: Season, page: int, lang: str
    ) -> Message:
        """An ended season's final board, as archived, best rating first."""
        guild_id = guild_of(interaction)
        seasons = self.sessions.seasons
        count = await seasons.players(guild_id, past.number)
        shown = ui.clamp_page(page, count)
        standings = await seasons.board(
            guild_id, past.number, ui.PER_PAGE, (shown - 1) * ui.PER_PAGE
        )
        me = await seasons.standing(guild_id, past.number, str(interaction.user.id))
        return ui.leaderboard(lang, standings, "rating", shown, count, page, me, past=past)

    async def ladder(self, interaction: discord.Interaction, page: int, lang: str) -> Message:
        """A page of the global ladder: every rated game anywhere."""
        records = self.sessions.records
        count = await records.ladder_size()
        shown = ui.clamp_page(page, count)
        entries = await records.ladder(ui.PER_PAGE, (shown - 1) * ui.PER_PAGE)
        return ladder_ui.ladder(lang, entries, shown, count, page, str(interaction.user.id))

    async def leaderboard(
        self,
        interaction: discord.Interaction,
        sort: str,
        page: int,
        season: int | None = None,
        scope: str = "server",
    ) -> None:
        await self.edge.seen(interaction)
        lang = await self.edge.guild_lang(interaction)  # public: the server's language
        seasons = self.sessions.seasons
        guild_id = guild_of(interaction)
        if scope not in SCOPES:  # untrusted, like every option
            scope = "server"
        if scope == "global" and (season is not None or sort != "rating"):
            # Refused, not ignored: the ladder would look like the order or season asked for.
            await tell(interaction, ladder_ui.fixed_order(user_lang(interaction)))
            return
        if scope == "global":
            message = await self.ladder(interaction, page, lang)
        elif season is not None and season != await seasons.current(guild_id):
            # Untrusted: a season this server never had is refused, naming the ones it had.
            past = await seasons.past(guild_id)
            found = next((s for s in past if s.number == season), None)
            if found is None:
                await tell(interaction, ui.unknown_season(user_lang(interaction), season, past))
                return
            message = await self.past_board(interaction, found, page, lang)
        else:
            message = await self.board(interaction, sort, page, lang)
        await reply(interaction, ephemeral=False, **message.send_kwargs())  # the shared board

    async def season_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[int]]:
        """The `season` option's autocomplete: the server's past seasons, newest first (those
        whose number starts with what was typed)."""
        lang = user_lang(interaction)
        past = await self.sessions.seasons.past(guild_of(interaction))
        typed = typed.strip()
        return [
            app_commands.Choice(name=ui.season_choice(lang, s), value=s.number)
            for s in past
            if str(s.number).startswith(typed)
        ][:25]

    async def turn_page(self, interaction: discord.Interaction, sort: str, page: int) -> None:
        """Anyone may turn the public board's pages: it is edited in place."""
        await self.edge.seen(interaction)
        lang = await self.edge.guild_lang(interaction)  # still public
        if sort == ids.GLOBAL:
            message = await self.ladder(interaction, page, lang)
        else:
            message = await self.board(interaction, sort, page, lang)
        await update(interaction, **message.kwargs())

    async def stats(self, interaction: discord.Interaction, member: discord.abc.User) -> None:
        # Ephemeral: a lookup for the member asking, like /steal hand; the public, shared view is
        # /steal leaderboard. It also keeps checking someone else's numbers discreet.
        await self.edge.seen(interaction)
        lang = user_lang(interaction)
        guild_id = guild_of(interaction)
        records = self.sessions.records
        user = str(member.id)
        me = member.id == interaction.user.id
        found = await records.player(guild_id, user)
        seasons = self.sessions.seasons
        medals = await seasons.medals(guild_id, user)
        ranked = await self.global_rank(lang, user, me)  # the ladder spans every place
        if found is None or found.games == 0:  # a row with no games: seen, or nothing counted
            # Outside a server the board is the place's own: the global rank is then news.
            server = place_of(interaction).guild_id is not None
            also = "" if server else ranked
            why = await self.no_stats(
                guild_id, user, whose_of(member, me), found is not None, medals, lang, also, server
            )
            await tell(interaction, why)
            return
        rank = await records.rank(guild_id, user)
        count = await records.players(guild_id)
        deck = settings.rules_for((await records.settings(guild_id)).values).deck
        figures = await records.figures(found, deck)  # the player's last games: never the history
        card = ui.stats_card(lang, found, member.display_name, rank, count, figures)
        picture = await work.run(guild_id, render_card, card)  # Pillow: off the event loop
        pending = await records.stats_pending(guild_id)  # after an upgrade, for a while
        message = ui.player_stats(
            lang, found, member.display_name, rank, count, figures, picture, me, medals, pending,
            ranked,
        )  # fmt: skip
        await reply(interaction, **message.send_kwargs())

    async def no_stats(
        self,
        guild_id: int,
        user: str,
        whose: str | None,
        seen: bool,
        medals: tuple[int, int, int],
        lang: str,
        ranked: str,
        server: bool,
    ) -> str:
        """Why a member has no stats on this board (and their global rank, if any)."""
        records, seasons = self.sessions.records, self.sessions.seasons
        current = await seasons.current(guild_id)
        if seen and current > 1:  # played before: a new season began since
            text = ui.season_empty(lang, whose, current, medals)
        elif not await records.played(guild_id, user):
            text = ui.never_played(lang, whose)
        else:
            # Name the AI setting only where /steal-admin can change it: in a server.
            ai_off = server and not (await records.settings(guild_id)).values["ai_counts"]
            text = ui.only_uncounted(lang, whose, ai_off)
        return f"{text}\n{ranked}" if ranked else text

    async def global_rank(self, lang: str, user: str, me: bool) -> str:
        """The stats' line for the global ladder: shown to the person themselves, or to
        others only if they show their name there (else it would name an anonymous row)."""
        records = self.sessions.records
        entry = await records.on_ladder(user)
        if entry is None or not (me or entry.name):
            return ""
        return ladder_ui.global_rank(lang, entry, await records.ladder_size(), me)

    async def profile(self, interaction: discord.Interaction, global_name: str | None) -> None:
        """/steal profile: show or hide your name on the global ladder (ephemeral). Without
        the option: the setting as it stands. The name shown is your Discord display name."""
        await self.edge.seen(interaction)
        lang = user_lang(interaction)
        records = self.sessions.records
        user = interaction.user
        if global_name not in SHOW_NAME:  # untrusted: anything else only reads the setting
            await tell(
                interaction, ladder_ui.profile_status(lang, await records.profile(str(user.id)))
            )
            return
        show = global_name == "show"
        name = user.global_name or user.name
        await records.set_profile(str(user.id), show, name)
        await tell(interaction, ladder_ui.profile_set(lang, show, name))

    async def history(
        self, interaction: discord.Interaction, member: discord.abc.User | None
    ) -> None:
        # Ephemeral, like /steal stats: a lookup that would otherwise push the table up the channel.
        # Its Record buttons answer privately too.
        await self.edge.seen(interaction)
        lang = user_lang(interaction)
        guild_id = guild_of(interaction)
        records = self.sessions.records
        user = None if member is None else str(member.id)
        # Only games of channels the member can see; read a few times the page, to fill it.
        entries = await records.history(guild_id, user, limit=history_ui.HISTORY_SIZE * 4)
        shown = await self.edge.seen_channels(interaction, {e.channel_id for e in entries})
        entries = [e for e in entries if e.channel_id in shown][: history_ui.HISTORY_SIZE]
        whose = None if member is None else member.display_name
        if not entries:
            me = member is not None and member.id == interaction.user.id
            text = ui.never_played(lang, None) if me else history_ui.no_history(lang, whose)
            await tell(interaction, text)
            return
        names = await records.names(guild_id, {u for e in entries for u in e.seats})
        if member is not None:
            names[str(member.id)] = member.display_name  # the freshest name we have
        message = history_ui.history(lang, entries, names, whose)
        await reply(interaction, **message.send_kwargs())

    async def send_record(self, interaction: discord.Interaction, game_id: int) -> None:
        await self.edge.seen(interaction)
        lang = user_lang(interaction)  # an ephemeral answer: the clicking member's language
        entry = await self.sessions.records.finished(game_id)
        # Another place's game gets the same answer as an unknown one: its existence stays private.
        # And a game of a channel they cannot see: the same again (bot/adapter/access.py).
        if (
            entry is None
            or entry.board_id != guild_of(interaction)  # another place's game: unknown here
            or not await self.edge.can_see(interaction, entry.channel_id)
        ):
            await tell(interaction, history_ui.no_record(lang))
            return
        file = discord.File(
            io.BytesIO(history_ui.record_bytes(entry)), filename=history_ui.record_filename(game_id)
        )
        await tell(interaction, history_ui.record_text(lang, entry), file=file)
