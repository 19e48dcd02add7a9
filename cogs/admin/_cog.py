"""`/steal-admin`: a server's settings, where games may start, stuck games, the leaderboard
reset and an export. For members with Manage Server only, in every path: its commands and
every click of its panel and questions (_common.is_admin).

The cog: the command group and the button families it registers (from one list). What a
click on the settings panel does is in _panel.py, the questions that expire in _questions.py,
the export in _export.py."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.edge import Edge
from bot.adapter.interactions import guild_of, per_member, reply, tell
from bot.adapter.language import user_lang
from bot.adapter.registry import Handler, Registry
from bot.domain.server_settings import BadValue, make_settings
from bot.i18n import t, tn
from bot.ui import ids
from bot.ui.admin import channel_list, settings_panel, value_words

from . import _common as common
from ._common import Channel, Common
from ._export import Export
from ._forget import ask_forget
from ._panel import Panel
from ._questions import Questions

# A setting is picked by its name ("Turn timer", translated by the command translator under
# choice.turn_timer); its value is the key admins see in the replies and the settings list.
SETTING_CHOICES = [
    app_commands.Choice(name=t("en", f"choice.{key}"), value=key) for key in make_settings()
]


class Admin(commands.Cog):
    admin = app_commands.Group(
        name="steal-admin",
        description="Set up Steal the Bundle on this server",
        guild_only=True,
        # A server's settings: a server install, in servers only, said outright (issue 36).
        allowed_installs=app_commands.AppInstallationType(guild=True),
        allowed_contexts=app_commands.AppCommandContext(guild=True),
        # Server owners can hand it to other roles under Server Settings → Integrations.
        default_permissions=discord.Permissions(manage_guild=True),
    )
    channels = app_commands.Group(
        name="channels", description="The channels where games may be started", parent=admin
    )

    def __init__(self, common: Common, edge: Edge, buttons: Registry) -> None:
        self.common = common
        self.edge = edge
        self.panel = Panel(common)
        self.exports = Export(common)
        self.questions = Questions(common)
        self.buttons = buttons
        # A click is no command, so the cog's check never sees it: each family is registered
        # behind the same check. `expires` of an admin id is the question's nonce (_questions).
        handlers: dict[str, Handler] = {
            "admin": lambda i, a: self.questions.on_answer(i, a.op, a.expires, a.game_id, a.yes),
            "toggle": lambda i, a: self.panel.on_toggle(i, a.key, a.yes),
            "setting": lambda i, a: self.panel.on_pick(i, a.key, list(a.values)),
            "topics": lambda i, a: self.panel.on_topic(i, [str(v) for v in a.values]),
            "switches": lambda i, a: self.panel.on_switches(i, a.key, [str(v) for v in a.values]),
        }
        self.families = {kind: admins_only(handler) for kind, handler in handlers.items()}

    async def cog_load(self) -> None:
        self.buttons.register(self.families)

    async def cog_unload(self) -> None:
        self.buttons.unregister(self.families)  # the same list
        self.questions.cancel_all()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # Integrations settings can open the command to anyone: the handler checks again.
        self.edge.watch(interaction)  # the check reads the settings: the budget starts before it
        await self.edge.settle(interaction)
        return common.is_admin(interaction)

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        cooling = isinstance(error, app_commands.CommandOnCooldown)  # a CheckFailure too
        if isinstance(error, app_commands.CheckFailure) and not cooling:
            await tell(interaction, common.refused(interaction))
            return
        await self.edge.fail(interaction, getattr(error, "original", error))

    # ----- settings

    @admin.command(name="settings", description="Every setting here, beside its default")
    async def show(self, interaction: discord.Interaction) -> None:
        current = await self.common.current(interaction)
        panel = settings_panel(self.common.specs, current, user_lang(interaction))
        await reply(interaction, **panel.send_kwargs())

    @admin.command(name="set", description="Change a setting; it applies from the next lobby")
    @per_member(5, 10)
    @app_commands.describe(setting="Which setting", value="The new value (suggestions appear)")
    @app_commands.choices(setting=SETTING_CHOICES)
    async def set_(
        self,
        interaction: discord.Interaction,
        setting: app_commands.Choice[str],
        value: app_commands.Range[str, 1, 100],
    ) -> None:
        lang = user_lang(interaction)
        key = setting.value
        spec = self.common.specs[key]
        text = self.role_id(interaction, value) if spec.kind == "role" else value
        try:
            new = spec.parse(text)
        except BadValue as exc:
            await tell(interaction, exc.message(lang))
            return
        guild = interaction.guild
        if spec.kind == "role" and new is not None and guild and guild.get_role(new) is None:
            await tell(interaction, t(lang, "admin.no_such_role", allowed=spec.allowed(lang)))
            return
        old = (await self.common.current(interaction))[key]
        await self.common.sessions.records.set_setting(guild_of(interaction), key, new)
        common.changed(interaction, f"set {key} to {spec.show(new)} (was {spec.show(old)})")
        now = key in ("manager_role", "season_length")  # not a lobby setting: at once
        when = t(lang, "admin.applies_now" if now else "admin.applies_next")
        await tell(
            interaction,
            t(lang, "admin.set_done", setting=key, value=value_words(lang, spec, new),
              old=value_words(lang, spec, old), when=when),
        )  # fmt: skip

    @staticmethod
    def role_id(interaction: discord.Interaction, text: str) -> str:
        """A role typed by name becomes its id; anything else is left for the parser."""
        guild = interaction.guild
        name = text.strip().removeprefix("@").lower()
        if guild is not None and not re.fullmatch(r"<@&\d+>|\d+|none|off", name):
            role = discord.utils.find(lambda r: r.name.lower() == name, guild.roles)
            if role is not None:
                return str(role.id)
        return text

    @set_.autocomplete("value")
    async def value_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        spec = self.common.specs.get(getattr(interaction.namespace, "setting", None) or "")
        if spec is None:
            return []
        if spec.kind == "role" and interaction.guild is not None:
            roles = [r for r in interaction.guild.roles if not r.is_default() and not r.managed]
            options = [(r.name, str(r.id)) for r in roles] + [("none", "none")]
        else:
            options = [(v, v) for v in spec.suggestions()]
        typed = typed.lower()
        found = [
            app_commands.Choice(name=n[:100], value=v) for n, v in options if typed in n.lower()
        ]
        return found[:25]

    @admin.command(name="reset", description="Put a setting back to its default (or all of them)")
    @per_member(5, 10)
    @app_commands.describe(setting="Which setting (leave empty to reset every setting)")
    @app_commands.choices(setting=SETTING_CHOICES)
    async def reset(
        self, interaction: discord.Interaction, setting: app_commands.Choice[str] | None = None
    ) -> None:
        lang = user_lang(interaction)
        if setting is None:
            await self.questions.ask(
                interaction,
                t(lang, "admin.reset_all.question"),
                "reset_settings",
                0,
                t(lang, "admin.reset_all.yes"),
            )
            return
        key = setting.value
        spec = self.common.specs[key]
        old = (await self.common.current(interaction))[key]
        await self.common.sessions.records.reset_settings(guild_of(interaction), key)
        common.changed(
            interaction, f"reset {key} to {spec.show(spec.default)} (was {spec.show(old)})"
        )
        await tell(
            interaction,
            t(lang, "admin.reset_done", setting=key, value=spec.show(spec.default, lang)),
        )

    # ----- channels

    @channels.command(name="add", description="Allow games in a channel")
    @per_member(5, 10)
    @app_commands.describe(channel="The channel")
    async def channel_add(self, interaction: discord.Interaction, channel: Channel) -> None:
        lang = user_lang(interaction)
        allowed = list((await self.common.current(interaction))["channels"])
        if channel.id in allowed:
            await tell(interaction, t(lang, "admin.channels.already", channel=channel.mention))
            return
        if len(allowed) >= common.MAX_CHANNELS:
            await tell(interaction, tn(lang, "admin.channels.full", common.MAX_CHANNELS))
            return
        allowed.append(channel.id)
        await self.common.set_channels(interaction, allowed)
        common.changed(interaction, f"allowed games in channel {channel.id}")
        await tell(interaction, t(lang, "admin.channels.now", channels=channel_list(lang, allowed)))

    @channels.command(name="remove", description="Stop allowing games in a channel")
    @per_member(5, 10)
    @app_commands.describe(channel="The channel")
    async def channel_remove(self, interaction: discord.Interaction, channel: Channel) -> None:
        lang = user_lang(interaction)
        allowed = list((await self.common.current(interaction))["channels"])
        if channel.id not in allowed:
            await tell(interaction, t(lang, "admin.channels.not_listed", channel=channel.mention))
            return
        allowed.remove(channel.id)
        await self.common.set_channels(interaction, allowed)
        common.changed(interaction, f"removed channel {channel.id} from the allowed channels")
        games_here = self.common.sessions.live_in(channel.id) is not None
        key = "admin.channels.now_carry_on" if games_here else "admin.channels.now"
        await tell(interaction, t(lang, key, channels=channel_list(lang, allowed)))

    @channels.command(name="list", description="Where games may be started")
    async def channel_list(self, interaction: discord.Interaction) -> None:
        lang = user_lang(interaction)
        allowed = (await self.common.current(interaction))["channels"]
        await tell(
            interaction, t(lang, "admin.channels.list", channels=channel_list(lang, allowed))
        )

    # ----- games, leaderboard, export

    @admin.command(name="end-game", description="End a stuck lobby or game; nothing is recorded")
    @per_member(3, 10)
    @app_commands.describe(channel="Where the game is (default: this channel)")
    async def end_game(
        self, interaction: discord.Interaction, channel: Channel | None = None
    ) -> None:
        lang = user_lang(interaction)
        channel_id = channel.id if channel is not None else interaction.channel_id or 0
        live = self.common.sessions.live_in(channel_id)
        if live is None:
            await self.end_broken(interaction, channel_id)
            return
        game_id = live.game_id
        what = "lobby" if self.common.sessions.lobby_of(game_id) is not None else "game"
        await self.questions.ask(
            interaction,
            t(lang, f"admin.end.question.{what}", channel=f"<#{channel_id}>"),
            "end_lobby" if what == "lobby" else "end",
            game_id,
            t(lang, f"admin.end.yes.{what}"),
        )

    async def end_broken(self, interaction: discord.Interaction, channel_id: int) -> None:
        """Nothing going in the channel: a game there whose row could not be read (set aside
        at a restart) may be ended; the server's others are listed."""
        lang = user_lang(interaction)
        broken = await self.common.sessions.broken(guild_of(interaction))
        here = [game_id for game_id, channel in broken if channel == channel_id]
        if here:
            question = t(lang, "admin.end.question.broken", channel=f"<#{channel_id}>")
            await self.questions.ask(
                interaction, question, "end", here[0], t(lang, "admin.end.yes.game")
            )
            return
        text = t(lang, "admin.end.nothing", channel=f"<#{channel_id}>")
        if broken:
            where = ", ".join(dict.fromkeys(f"<#{channel}>" for _, channel in broken))
            text += "\n" + t(lang, "admin.end.broken_elsewhere", channels=where)
        await tell(interaction, text)

    @admin.command(name="reset-leaderboard", description="Start this server's leaderboard afresh")
    @per_member(3, 10)
    async def reset_board(self, interaction: discord.Interaction) -> None:
        lang = user_lang(interaction)
        await self.questions.ask(
            interaction,
            t(lang, "admin.board.question"),
            "reset_board",
            0,
            t(lang, "admin.board.yes"),
        )

    @admin.command(
        name="season-new", description="End this season and start a new one (ratings softly reset)"
    )
    @per_member(3, 10)
    async def season_new(self, interaction: discord.Interaction) -> None:
        lang = user_lang(interaction)
        number = await self.common.sessions.seasons.current(guild_of(interaction))
        await self.questions.ask(
            interaction,
            t(lang, "admin.season.question", n=number, next=number + 1),
            "new_season",
            number,  # the season to end: a late second click ends no other
            t(lang, "admin.season.yes", next=number + 1),
        )

    @admin.command(name="export", description="The leaderboard (CSV) and finished games (JSON)")
    @per_member(1, 60)
    async def export(self, interaction: discord.Interaction) -> None:
        await self.exports.send_export(interaction)

    @admin.command(
        name="forget", description="Delete what this bot keeps about a member in this server"
    )
    @per_member(3, 10)
    @app_commands.describe(member="Whose data to delete")
    async def forget(self, interaction: discord.Interaction, member: discord.User) -> None:
        await ask_forget(interaction, member)


def admins_only(handler: Handler) -> Handler:
    async def checked(interaction: discord.Interaction, action: ids.Action) -> None:
        if not common.is_admin(interaction):
            await tell(interaction, common.refused(interaction))
            return
        await handler(interaction, action)

    return checked
