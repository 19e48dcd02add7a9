"""`/steal` commands, the yes/no questions they ask, and the polite answer to a button no
family knows. Interactions in, session calls, rendered messages out."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.access import is_manager
from bot.adapter.interactions import fail, per_member, post, reply, say, seen, update, watch
from bot.adapter.language import settle, user_lang
from bot.adapter.registry import Registry
from bot.adapter.services import app_of, services_of
from bot.ai import DIFFICULTIES
from bot.engine import PRESETS, Move
from bot.i18n import t
from bot.session import NoGame, NotInGame, Table
from bot.ui import errors, ids
from bot.ui.text import next_steps

from . import boards, forget, hands, lobbies, replay, rules
from . import tournament as tournaments
from .questions import ask, confirm_cancel

log = logging.getLogger(__name__)

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESETS]
SCORING_CHOICES = [
    app_commands.Choice(name="games won", value="wins"),
    app_commands.Choice(name="total cards", value="cards"),
]
DIFFICULTY_CHOICES = [app_commands.Choice(name=d, value=d) for d in DIFFICULTIES]
# Cooldowns (uses per seconds, per member and server) on the commands that post or write;
# docs/playing.md lists them.
# Commands whose answer everyone sees: if deferred, they "think" in public.
PUBLIC = frozenset({"new", "table", "leaderboard"})
# /steal tournament's subcommands whose answer everyone sees (the sign-up message).
PUBLIC_TOURNAMENT = frozenset({"new"})
FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="knockout", value="knockout"),
]
SORT_CHOICES = [app_commands.Choice(name=name.replace("_", " "), value=name) for name in ids.SORTS]


class Steal(commands.Cog):
    steal = app_commands.Group(
        name="steal", description="Play Steal the Bundle, the card game", guild_only=True
    )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        command = interaction.command.name if interaction.command else ""
        parent = getattr(interaction.command, "parent", None)
        in_tournament = parent is not None and parent.name == "tournament"
        public = command in (PUBLIC_TOURNAMENT if in_tournament else PUBLIC)
        watch(interaction, public=public)
        await settle(interaction)  # a server's fixed language, for every answer
        return True

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await fail(interaction, getattr(error, "original", error))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The one answer to a button no family's template matches: a crafted id, one from an
        older version of the bot, or one of ours outside a server (where none can be).
        Matched ones are answered by their family."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = interaction.data.get("custom_id") if interaction.data else None
        if not isinstance(custom_id, str) or not ids.known(custom_id) or not interaction.guild_id:
            await settle(interaction)
            await say(interaction, "reply.unknown_button")

    # ----- /steal new, join, leave, start

    @steal.command(name="new", description="Open a lobby for a new game in this channel")
    @per_member(2, 30)
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
        await lobbies.new(interaction, picked, max_players, games, how, bots, level)

    @steal.command(name="join", description="Join the lobby in this channel")
    @per_member(4, 10)
    async def join(self, interaction: discord.Interaction) -> None:
        await lobbies.lobby_op(interaction, "join", None)

    @steal.command(name="leave", description="Leave the lobby in this channel")
    @per_member(4, 10)
    async def leave(self, interaction: discord.Interaction) -> None:
        await lobbies.lobby_op(interaction, "leave", None)

    @steal.command(name="start", description="Start the game (host only)")
    @per_member(4, 10)
    async def start(self, interaction: discord.Interaction) -> None:
        await lobbies.lobby_op(interaction, "start", None)

    # ----- /steal hand, table, rules

    @steal.command(name="hand", description="Show your hand (only you can see it)")
    @per_member(5, 10)
    async def hand(self, interaction: discord.Interaction) -> None:
        await show_hand(interaction)

    @steal.command(name="table", description="Post the table again at the bottom of the channel")
    @per_member(1, 10)
    async def table(self, interaction: discord.Interaction) -> None:
        await repost_table(interaction)

    @steal.command(name="rules", description="The rules in play here, or of a preset")
    @per_member(3, 10)
    @app_commands.describe(preset="A preset to read about")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(
        self, interaction: discord.Interaction, preset: app_commands.Choice[str] | None = None
    ) -> None:
        await send_rules(interaction, preset.value if preset else None)

    # ----- /steal leaderboard, stats, history (cogs/boards.py does the work)

    @steal.command(name="leaderboard", description="This server's rankings")
    @per_member(2, 10)
    @app_commands.describe(
        sort="How to rank players (default: rating)",
        page="Which page",
        season="A past season's final standings (default: the current season)",
    )
    @app_commands.choices(sort=SORT_CHOICES)
    @app_commands.autocomplete(season=boards.season_choices)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        sort: app_commands.Choice[str] | None = None,
        page: app_commands.Range[int, 1, 10_000] = 1,
        season: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        await boards.leaderboard(interaction, sort.value if sort else "rating", page, season)

    @steal.command(name="stats", description="A player's games, wins, steals and rating")
    @per_member(3, 10)
    @app_commands.describe(member="Whose stats (default: yours)")
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        await boards.stats(interaction, member or interaction.user)

    @steal.command(name="history", description="The last finished games here, or a member's")
    @per_member(3, 10)
    @app_commands.describe(member="Only games this member played")
    async def history(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        await boards.history(interaction, member)

    @steal.command(name="replay", description="Step through a finished game (default: your last)")
    @per_member(5, 10)
    @app_commands.describe(game="The game's number, as /steal history shows it")
    async def replay(
        self,
        interaction: discord.Interaction,
        # Discord takes integer options within ±2^53 only (a larger bound fails the whole
        # command sync); game ids, counted from 1, stay far below it.
        game: app_commands.Range[int, 1, 2**53 - 1] | None = None,
    ) -> None:
        await replay.show(interaction, game)

    # ----- /steal forfeit, cancel

    @steal.command(name="forfeit", description="Leave the game: the bot plays your cards")
    @per_member(3, 10)
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await ask_forfeit(interaction)

    @steal.command(name="cancel", description="End the lobby or game here, without stats")
    @per_member(3, 10)
    async def cancel(self, interaction: discord.Interaction) -> None:
        await ask_cancel(interaction)

    @steal.command(
        name="forget-me", description="Delete what this bot keeps about you, in every server"
    )
    @per_member(2, 60)
    async def forget_me(self, interaction: discord.Interaction) -> None:
        await forget.ask_self(interaction)  # cogs/forget.py: the question and its answer

    # ----- /steal tournament ... (cogs/tournament.py does the work)

    tournament = app_commands.Group(
        name="tournament", description="Tournaments: rounds of games to a champion", parent=steal
    )

    @tournament.command(name="new", description="Open a tournament's sign-up here (managers)")
    @per_member(2, 60)
    @app_commands.describe(
        name="The tournament's name",
        format="Swiss rounds (default) or knockout",
        rounds="Swiss rounds to play (default: as advised for the players)",
        table_size="Players at a table, 2 to 4 (default 4)",
        rules="The ruleset (default: the server's)",
        turn_timer="Seconds a turn may take (default: the server's turn timer)",
        signup_minutes="Sign-up closes and the tournament starts in this many minutes",
        start_minutes="Start in this many minutes (after the sign-up closes)",
        check_in="Players check in before the start; who does not is not seated",
    )
    @app_commands.choices(format=FORMAT_CHOICES, rules=PRESET_CHOICES)
    async def tournament_new(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        format: app_commands.Choice[str] | None = None,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        table_size: app_commands.Range[int, 2, 4] = 4,
        rules: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Range[int, 15, 86_400] | None = None,
        signup_minutes: app_commands.Range[int, 1, 10_080] | None = None,
        start_minutes: app_commands.Range[int, 1, 10_080] | None = None,
        check_in: bool = False,
    ) -> None:
        await tournaments.new(
            interaction, name, format.value if format else "swiss", rounds, table_size,
            rules.value if rules else None, turn_timer, signup_minutes, start_minutes, check_in,
        )  # fmt: skip

    @tournament.command(name="join", description="Sign up for the tournament here")
    @per_member(4, 10)
    async def tournament_join(self, interaction: discord.Interaction) -> None:
        await tournaments.join(interaction)

    @tournament.command(name="leave", description="Leave the tournament (later rounds go on)")
    @per_member(4, 10)
    async def tournament_leave(self, interaction: discord.Interaction) -> None:
        await tournaments.leave(interaction)

    @tournament.command(name="standings", description="The tournament's standings")
    @per_member(3, 10)
    async def tournament_standings(self, interaction: discord.Interaction) -> None:
        await tournaments.standings(interaction)

    @tournament.command(name="start", description="Close the sign-up and start now (managers)")
    @per_member(2, 10)
    async def tournament_start(self, interaction: discord.Interaction) -> None:
        await tournaments.start(interaction)

    @tournament.command(name="cancel", description="Cancel the tournament (managers)")
    @per_member(2, 10)
    async def tournament_cancel(self, interaction: discord.Interaction) -> None:
        await tournaments.ask_cancel(interaction)

    @tournament.command(name="remove", description="Take a player out of the tournament (managers)")
    @per_member(4, 10)
    @app_commands.describe(member="Who to take out")
    async def tournament_remove(
        self, interaction: discord.Interaction, member: discord.Member
    ) -> None:
        await tournaments.remove(interaction, member)

    @tournament.command(name="fill", description="Sign up AI entrants (managers)")
    @per_member(4, 10)
    @app_commands.describe(count="How many AI entrants", difficulty="How strong (default: medium)")
    @app_commands.choices(difficulty=DIFFICULTY_CHOICES)
    async def tournament_fill(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 256],
        difficulty: app_commands.Choice[str] | None = None,
    ) -> None:
        await tournaments.fill(interaction, count, difficulty.value if difficulty else "medium")

    @tournament.command(name="list", description="This server's tournaments, past and current")
    @per_member(3, 10)
    async def tournament_list(self, interaction: discord.Interaction) -> None:
        await tournaments.listing(interaction)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Steal())
    register(services_of(bot).buttons)


def register(buttons: Registry) -> None:
    """Each button family this extension answers, and how its fields reach the handler."""
    buttons.register("lobby", lambda i, a: lobbies.lobby_op(i, a.op, a.game_id))
    buttons.register("rematch", lambda i, a: lobbies.rematch(i, a.game_id))
    buttons.register("table", lambda i, a: hands.table_button(i, a.op, a.game_id))
    buttons.register("card", lambda i, a: hands.redraw(i, a.game_id, a.version))
    buttons.register("back", lambda i, a: hands.redraw(i, a.game_id, a.version))
    buttons.register("move", lambda i, a: hands.picked(i, a.game_id, a.version, a.move))
    buttons.register("hint", lambda i, a: hands.hint(i, a.game_id, a.version))
    buttons.register("pick", lambda i, a: hands.picked(i, a.game_id, a.version, _choice(a)))
    buttons.register("confirm", lambda i, a: confirmed(i, a.op, a.game_id, a.yes))
    buttons.register("board", lambda i, a: boards.turn_page(i, a.op, a.game_id))
    buttons.register("record", lambda i, a: boards.send_record(i, a.game_id))
    buttons.register("replay", lambda i, a: replay.clicked(i, a.op, a.game_id, a.step))
    buttons.register("rules", lambda i, a: rules.turn(i, a.op, a.tab))
    buttons.register("tour", lambda i, a: tournaments.clicked(i, a.op, a.game_id))


def _choice(action: ids.Action) -> Move | None:
    """The move picked from a card's menu; None for an option the bot did not offer."""
    return ids.choice_of(action.card, str(action.values[0]) if action.values else "")


async def teardown(bot: commands.Bot) -> None:
    services_of(bot).buttons.unregister(
        "lobby", "rematch", "table", "card", "back", "move", "hint", "pick", "confirm", "board",
        "record", "replay", "rules", "tour",
    )  # fmt: skip


# ----- what the commands do


def _running(interaction: discord.Interaction) -> Table:
    table = app_of(interaction).sessions.live_in(interaction.channel_id or 0)
    if not isinstance(table, Table):
        raise NoGame()
    return table


async def show_hand(interaction: discord.Interaction) -> None:
    user = await seen(interaction)
    try:
        table = _running(interaction)
    except NoGame:
        # A tournament's channel: the member's table plays in one of its threads.
        guild, here = interaction.guild, interaction.channel_id
        for seated in app_of(interaction).sessions.seated_at(interaction.guild_id or 0, str(user)):
            thread = guild.get_thread(seated.channel_id) if guild is not None else None
            if thread is not None and thread.parent_id == here:
                raise NoGame("error.game_in_thread", thread=thread.mention) from None
        raise
    await hands.send_hand(interaction, table)


async def repost_table(interaction: discord.Interaction) -> None:
    """The table again at the bottom of the channel, for its players and managers; anyone
    else gets a link to it (so nobody can bury a game under reposts)."""
    app = app_of(interaction)
    user = await seen(interaction)
    table = _running(interaction)
    if table.seat_of(user) is None and not await is_manager(interaction):
        link = app.presenter.link(table.game_id)
        if link is None:
            raise NotInGame()
        lang = user_lang(interaction)
        await reply(
            interaction, **errors.linked(lang, t(lang, "reply.table_link"), link).send_kwargs()
        )
        return
    table = await app.sessions.load(table.game_id)  # restored: its game is read first
    message = await app.presenter.table_now(table)
    sent = await post(interaction, **message.send_kwargs())
    await app.presenter.table_reposted(table, sent)


async def send_rules(interaction: discord.Interaction, name: str | None) -> None:
    await rules.send(interaction, name)


async def ask_forfeit(interaction: discord.Interaction) -> None:
    user = await seen(interaction)
    table = _running(interaction)
    if table.seat_of(user) is None:
        raise NotInGame()
    await ask(interaction, "reply.forfeit", "forfeit", table.game_id)


async def ask_cancel(interaction: discord.Interaction) -> None:
    await seen(interaction)
    live = app_of(interaction).sessions.live_in(interaction.channel_id or 0)
    if live is None:
        raise NoGame()
    await confirm_cancel(interaction, live.game_id, live.host_id)


async def confirmed(interaction: discord.Interaction, op: str, game_id: int, yes: bool) -> None:
    """Yes or No to a question about one lobby or game: only that one is ever ended."""
    await seen(interaction)
    lang = user_lang(interaction)
    sessions = app_of(interaction).sessions
    if not yes:
        await update(interaction, content=t(lang, "reply.nothing_changed"), view=None)
        return
    # The question was about this lobby or this game: a lobby that has since started is not
    # the lobby the member agreed to close, and a game elsewhere is not the one asked about.
    live: Any = sessions.lobby_of(game_id) if op == "close" else sessions.table_of(game_id)
    if live is None:
        gone = "reply.lobby_already_gone" if op == "close" else "reply.game_already_over"
        await update(interaction, content=t(lang, gone, **next_steps(lang)), view=None)
        return
    if live.channel_id != interaction.channel_id:  # a crafted or misplaced question
        await update(interaction, content=t(lang, "reply.confirm_elsewhere"), view=None)
        return
    if op == "forfeit":
        await sessions.forfeit(game_id, interaction.user.id)
        await update(interaction, content=t(lang, "reply.forfeited"), view=None)
        return
    manager = await is_manager(interaction)
    await sessions.cancel(live.channel_id, interaction.user.id, manager, game_id=game_id)
    await update(interaction, content=t(lang, "reply.cancelled"), view=None)
