"""The `/steal` commands and the polite answer to a button no family knows.

discord.py binds an app command group to one cog, and `/steal`'s direct subcommands (new,
leaderboard, forget-me, ...) belong to several features: so one cog owns the group and declares
every subcommand (its name, options and cooldown), and each subcommand hands the interaction to
its feature (cogs/play, cogs/boards, cogs/tournament, cogs/privacy), built with its services.
The features' button families are registered as the cog loads and taken back as it unloads,
from one list."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.edge import Edge
from bot.adapter.interactions import per_member, say
from bot.adapter.registry import Handler, Registry
from bot.ai import DIFFICULTIES
from bot.engine import PRESETS
from bot.ui import ids
from cogs.boards import Boards
from cogs.play import Play
from cogs.privacy import ask_self
from cogs.tournament import Tournaments

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
# The global ladder (cogs/boards checks the values again: an option is untrusted).
SCOPE_CHOICES = [
    app_commands.Choice(name="this place", value="server"),
    app_commands.Choice(name="global", value="global"),
]
SHOW_CHOICES = [app_commands.Choice(name=name, value=name) for name in ("show", "hide")]


class Steal(commands.Cog):
    # Offered to server and user installs, in servers, the DM with the bot and group DMs
    # (issue 36); its subcommands share this, as Discord sets it on top-level commands only.
    steal = app_commands.Group(
        name="steal",
        description="Play Steal the Bundle, the card game",
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
    )

    def __init__(
        self,
        play: Play,
        boards: Boards,
        tournaments: Tournaments,
        edge: Edge,
        buttons: Registry,
    ) -> None:
        self.play = play
        self.boards = boards
        self.tournaments = tournaments
        self.edge = edge
        self.buttons = buttons
        # Every family the features answer: registered at load, taken back at unload.
        self.families: dict[str, Handler] = {
            **play.families(),
            **boards.families(),
            **tournaments.families(),
        }

    async def cog_load(self) -> None:
        self.buttons.register(self.families)

    async def cog_unload(self) -> None:
        self.buttons.unregister(self.families)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        command = interaction.command.name if interaction.command else ""
        parent = getattr(interaction.command, "parent", None)
        in_tournament = parent is not None and parent.name == "tournament"
        public = command in (PUBLIC_TOURNAMENT if in_tournament else PUBLIC)
        self.edge.watch(interaction, public=public)
        await self.edge.settle(interaction)  # a server's fixed language, for every answer
        return True

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await self.edge.fail(interaction, getattr(error, "original", error))

    async def season_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.boards.season_choices(interaction, current)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The one answer to a button no family's template matches: a crafted id, or one from
        an older version of the bot. Matched ones are answered by their family."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = interaction.data.get("custom_id") if interaction.data else None
        if not isinstance(custom_id, str) or not ids.known(custom_id):
            await self.edge.settle(interaction)
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
        await self.play.lobbies.new(interaction, picked, max_players, games, how, bots, level)

    @steal.command(name="join", description="Join the lobby in this channel")
    @per_member(4, 10)
    async def join(self, interaction: discord.Interaction) -> None:
        await self.play.lobbies.lobby_op(interaction, "join", None)

    @steal.command(name="leave", description="Leave the lobby in this channel")
    @per_member(4, 10)
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.play.lobbies.lobby_op(interaction, "leave", None)

    @steal.command(name="start", description="Start the game (host only)")
    @per_member(4, 10)
    async def start(self, interaction: discord.Interaction) -> None:
        await self.play.lobbies.lobby_op(interaction, "start", None)

    # ----- /steal hand, table, rules

    @steal.command(name="hand", description="Show your hand (only you can see it)")
    @per_member(5, 10)
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.play.games.show_hand(interaction)

    @steal.command(name="table", description="Post the table again at the bottom of the channel")
    @per_member(1, 10)
    async def table(self, interaction: discord.Interaction) -> None:
        await self.play.games.repost_table(interaction)

    @steal.command(name="rules", description="The rules in play here, or of a preset")
    @per_member(3, 10)
    @app_commands.describe(preset="A preset to read about")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(
        self, interaction: discord.Interaction, preset: app_commands.Choice[str] | None = None
    ) -> None:
        await self.play.rules.send(interaction, preset.value if preset else None)

    # ----- /steal leaderboard, stats, history (cogs/boards does the work)

    @steal.command(name="leaderboard", description="This server's rankings")
    @per_member(2, 10)
    @app_commands.describe(
        sort="How to rank players (default: rating)",
        page="Which page",
        season="A past season's final standings (default: the current season)",
        scope="This place's board (default), or the global ladder of every place",
    )
    @app_commands.choices(sort=SORT_CHOICES, scope=SCOPE_CHOICES)
    @app_commands.autocomplete(season=season_choices)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        sort: app_commands.Choice[str] | None = None,
        page: app_commands.Range[int, 1, 10_000] = 1,
        season: app_commands.Range[int, 1, 10_000] | None = None,
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.boards.leaderboard(
            interaction, sort.value if sort else "rating", page, season,
            scope.value if scope else "server",
        )  # fmt: skip

    @steal.command(name="profile", description="Show or hide your name on the global ladder")
    @per_member(3, 10)
    @app_commands.describe(global_name="Show your name on the global ladder, or hide it")
    @app_commands.choices(global_name=SHOW_CHOICES)
    async def profile(
        self, interaction: discord.Interaction, global_name: app_commands.Choice[str] | None = None
    ) -> None:
        await self.boards.profile(interaction, global_name.value if global_name else None)

    @steal.command(name="stats", description="A player's games, wins, steals and rating")
    @per_member(3, 10)
    @app_commands.describe(member="Whose stats (default: yours)")
    async def stats(
        self, interaction: discord.Interaction, member: discord.User | None = None
    ) -> None:
        await self.boards.stats(interaction, member or interaction.user)

    @steal.command(name="history", description="The last finished games here, or a member's")
    @per_member(3, 10)
    @app_commands.describe(member="Only games this member played")
    async def history(
        self, interaction: discord.Interaction, member: discord.User | None = None
    ) -> None:
        await self.boards.history(interaction, member)

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
        await self.play.replays.show(interaction, game)

    # ----- /steal forfeit, cancel

    @steal.command(name="forfeit", description="Leave the game: the bot plays your cards")
    @per_member(3, 10)
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.play.games.ask_forfeit(interaction)

    @steal.command(name="cancel", description="End the lobby or game here, without stats")
    @per_member(3, 10)
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.play.games.ask_cancel(interaction)

    @steal.command(name="forget-me", description="Delete what this bot keeps about you, everywhere")
    @per_member(2, 60)
    async def forget_me(self, interaction: discord.Interaction) -> None:
        await ask_self(interaction)  # cogs/privacy: the question; the cog, its answer

    # ----- /steal tournament ... (cogs/tournament does the work)

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
        await self.tournaments.new(
            interaction, name, format.value if format else "swiss", rounds, table_size,
            rules.value if rules else None, turn_timer, signup_minutes, start_minutes, check_in,
        )  # fmt: skip

    @tournament.command(name="join", description="Sign up for the tournament here")
    @per_member(4, 10)
    async def tournament_join(self, interaction: discord.Interaction) -> None:
        await self.tournaments.join(interaction)

    @tournament.command(name="leave", description="Leave the tournament (later rounds go on)")
    @per_member(4, 10)
    async def tournament_leave(self, interaction: discord.Interaction) -> None:
        await self.tournaments.leave(interaction)

    @tournament.command(name="standings", description="The tournament's standings")
    @per_member(3, 10)
    async def tournament_standings(self, interaction: discord.Interaction) -> None:
        await self.tournaments.standings(interaction)

    @tournament.command(name="start", description="Close the sign-up and start now (managers)")
    @per_member(2, 10)
    async def tournament_start(self, interaction: discord.Interaction) -> None:
        await self.tournaments.start(interaction)

    @tournament.command(name="cancel", description="Cancel the tournament (managers)")
    @per_member(2, 10)
    async def tournament_cancel(self, interaction: discord.Interaction) -> None:
        await self.tournaments.ask_cancel(interaction)

    @tournament.command(name="remove", description="Take a player out of the tournament (managers)")
    @per_member(4, 10)
    @app_commands.describe(member="Who to take out")
    async def tournament_remove(
        self, interaction: discord.Interaction, member: discord.User
    ) -> None:
        await self.tournaments.remove(interaction, member)

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
        await self.tournaments.fill(
            interaction, count, difficulty.value if difficulty else "medium"
        )

    @tournament.command(name="list", description="This server's tournaments, past and current")
    @per_member(3, 10)
    async def tournament_list(self, interaction: discord.Interaction) -> None:
        await self.tournaments.listing(interaction)
