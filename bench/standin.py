"""The stand-in for Discord that bench/moves.py clicks through, and the bot built on it.

Each call the bot makes (interaction response, message edit, send, delete) is built and
JSON-encoded with discord.py's own helpers (the CPU a real call spends before the network) and
answered on the event loop's next turn, with no network delay. Calls through an interaction's
webhook (its token: open hands redrawn and deleted, turn pings as follow-ups) go through
discord.py's real webhook adapter, as in production, to the benches' fake Discord
(bench/_fake_discord.py), which answers as Discord answers. What each message shows (its
payload) is kept, so bench/floor.py can hand discord.py the very message a player clicked.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import types
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import interaction_message_response_params

from bot.app import App, build
from bot.client import now
from bot.domain.options import Options
from cogs import steal

from ._fake_discord import (
    CHANNEL_MESSAGE,
    UPDATE_MESSAGE,
    FakeDiscord,
    Token,
    quiet_voice,
    wire_client,
)

INTERACTIONS = itertools.count(10**16)  # interaction ids
REFUSED: list[str] = []  # ephemeral answers that were not a hand: refusals and errors
GUILD = 1


class Discord(FakeDiscord):
    """Answers every call at once, after building and encoding its request as discord.py does.
    The answer comes on the event loop's next turn, as a real one comes through the loop: a
    call lets other tasks run, as in production, minus the network's delay. It is also the
    bot's HTTP session for interaction webhooks (`request`, bench/_fake_discord.py)."""

    async def call(
        self,
        fields: dict[str, Any],
        response_type: int | None = None,
        edits: int | None = None,
        by: int | None = None,
    ) -> Message:
        """Send a message (`by` an interaction: its answer or a follow-up), or edit message
        `edits`."""
        ephemeral = fields.pop("ephemeral", False)
        fields.pop("wait", None)
        if response_type is None:
            params = handle_message_parameters(**fields)
            payload = params.payload
        else:
            params = interaction_message_response_params(type=response_type, **fields)
            payload = params.payload["data"] if params.payload else None
        discord.utils._to_json(params.payload)
        if payload is None and params.multipart:  # with files: the JSON is a form part
            form = params.multipart[0]["value"]
            payload = json.loads(form)
            payload = payload.get("data", payload) if response_type is not None else payload
        message_id = self.post(by) if edits is None else edits
        self.show(message_id, payload, ephemeral)
        await asyncio.sleep(0)
        return Message(self, message_id)

    def answered(self, interaction: Interaction, message_id: int | None) -> None:
        """An interaction's first answer is (or edits) `message_id`: its webhook's @original."""
        made = Token(interaction.id, interaction.channel_id, message_id)
        self.tokens[interaction.token] = made


class Message:
    def __init__(self, wire: Discord, message_id: int) -> None:
        self.wire, self.id = wire, message_id

    @property
    def interaction_metadata(self) -> types.SimpleNamespace | None:
        """Which interaction sent it (None: the bot did): the presenter tells hands apart by
        it, as by a discord.Message's."""
        by = self.wire.made_by.get(self.id)
        return types.SimpleNamespace(id=by) if by is not None else None

    async def edit(self, **fields: Any) -> Message:
        return await self.wire.call(fields, edits=self.id)

    async def delete(self) -> None:
        await asyncio.sleep(0)


class Channel:
    def __init__(self, wire: Discord) -> None:
        self.wire = wire

    def get_partial_message(self, message_id: int) -> Message:
        return Message(self.wire, message_id)

    async def send(self, content: str | None = None, **fields: Any) -> Message:
        return await self.wire.call({"content": content, **fields})


class Answered:
    """discord.py's InteractionCallbackResponse, as far as `reply` reads it: the stand-in's
    server never turns a public answer ephemeral."""

    def __init__(self, ephemeral: bool) -> None:
        self.ephemeral = ephemeral

    def is_ephemeral(self) -> bool:
        return self.ephemeral


class Response:
    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction
        self.done = False

    def is_done(self) -> bool:
        return self.done

    def _answer(self) -> None:
        if self.done:
            raise discord.InteractionResponded(self.interaction)  # type: ignore[arg-type]
        self.done = True

    async def send_message(self, content: str | None = None, **fields: Any) -> Answered:
        self._answer()
        if fields.get("ephemeral") and not isinstance(fields.get("view"), discord.ui.LayoutView):
            REFUSED.append(content or "")  # an error or a refusal, not a hand (a V2 layout)
        fields["content"] = content
        interaction = self.interaction
        sent = await interaction.wire.call(fields, CHANNEL_MESSAGE, by=interaction.id)
        interaction.sent = sent
        interaction.wire.answered(interaction, sent.id)
        return Answered(bool(fields.get("ephemeral")))

    async def edit_message(self, **fields: Any) -> None:
        self._answer()
        message = self.interaction.message
        self.interaction.wire.answered(self.interaction, message.id if message else None)
        await self.interaction.wire.call(fields, UPDATE_MESSAGE, message.id if message else None)

    async def defer(self, **_: Any) -> None:
        self._answer()
        # A component's deferred answer edits the message clicked; a command's is a new one.
        interaction = self.interaction
        message = interaction.message
        interaction.wire.answered(interaction, message.id if message else None)
        await asyncio.sleep(0)


class Followup:
    def __init__(self, wire: Discord, interaction_id: int) -> None:
        self.wire, self.interaction_id = wire, interaction_id

    async def send(self, content: str | None = None, **fields: Any) -> Message:
        return await self.wire.call({"content": content, **fields}, by=self.interaction_id)


class User:
    def __init__(self, user_id: int) -> None:
        self.id = user_id
        self.display_name = f"player {user_id}"


class Interaction:
    """What the cog and the presenter read of a discord.Interaction."""

    command = None

    def __init__(
        self, bot: Bot, user: User, channel_id: int, message: Message | None, custom_id: str
    ) -> None:
        wire = bot.wire
        self.client, self.wire, self.user, self.channel_id = bot, wire, user, channel_id
        self.message = message
        self.type = discord.InteractionType.component
        self.extras: dict[str, Any] = {}
        self.guild_id = GUILD
        self.context = discord.AppCommandContext(guild=True)
        self.locale = self.guild_locale = discord.Locale.american_english
        self.channel = None  # not a thread: games may start in any channel
        self.data = {"custom_id": custom_id, "component_type": 2}
        self.id = next(INTERACTIONS)
        # As Discord's: the interaction's webhook (edit, delete, follow-ups) goes by it.
        self.token = f"aW50ZXJhY3Rpb246{self.id}:" + "x" * 150
        self.created_at = discord.utils.utcnow()
        self.app_permissions = self.permissions = discord.Permissions.all()
        self.response = Response(self)
        self.followup = Followup(wire, self.id)
        self.sent: Message | None = None

    def is_guild_integration(self) -> bool:
        return True  # a server that installed the bot: the bot token reaches its channels

    async def original_response(self) -> Message:
        assert self.sent is not None
        return self.sent

    async def edit_original_response(self, **fields: Any) -> Message:
        # A button's interaction's original response is the message it was clicked on.
        shown = self.sent or self.message
        return await self.wire.call(fields, edits=shown.id if shown else None)


class Bot(discord.Client):
    """What the handlers and the presenter use of StealBot: a discord.Client (the presenter
    calls interaction webhooks through its state and HTTP session) whose network is the
    stand-in; channels are the stand-in's."""

    def __init__(self, fake: Discord) -> None:
        quiet_voice()
        super().__init__(intents=discord.Intents.default())
        wire_client(self, fake)
        self.wire = fake
        self.app: App | None = None

    def get_partial_messageable(  # type: ignore[override]  # the stand-in's channel
        self, channel_id: int, *, guild_id: int | None = None
    ) -> Channel:
        return Channel(self.wire)

    def get_guild(self, guild_id: int) -> None:
        return None  # no guild cache: the server's language falls back to the interaction's


async def make_bot(database: str, seed: int) -> Bot:
    """The app, built as StealBot.setup_hook builds it, on a stand-in for Discord."""
    deals = random.Random(seed)
    bot = Bot(Discord())
    options = Options(
        seed_source=lambda: deals.getrandbits(63),
        # The background figures time the work, not a game's wait for its next edit slot
        # (the presenter edits a table at most once a second; clicks here come faster).
        edit_gap=0.0,
    )
    bot.app = await build(database, bot, options, clock=now)  # type: ignore[arg-type]
    bot.app.buttons.register(steal.build(bot.app.services).families)  # as the cog's load does
    # 100 games at once in one server: the most an admin may allow (the default is 10).
    await bot.app.sessions.records.set_setting(GUILD, "max_games", 100)
    return bot
