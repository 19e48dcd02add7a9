"""The stand-in for Discord that bench/moves.py clicks through, and the bot built on it.

Each call the bot makes (interaction response, message edit, send, delete) is built and
JSON-encoded with discord.py's own helpers (the CPU a real call spends before the network) and
answered on the event loop's next turn, with no network delay. What each message shows (its
payload) is kept, so bench/floor.py can hand discord.py the very message a player clicked.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import interaction_message_response_params

from bot.app import App, build
from bot.client import now
from bot.domain.options import Options
from cogs import steal

INTERACTIONS = itertools.count(10**16)  # interaction ids
REFUSED: list[str] = []  # ephemeral answers that were not a hand: refusals and errors
GUILD = 1
CHANNEL_MESSAGE, UPDATE_MESSAGE = 4, 7  # interaction response types


class Discord:
    """Answers every call at once, after building and encoding its request as discord.py does.
    The answer comes on the event loop's next turn, as a real one comes through the loop: a
    call lets other tasks run, as in production, minus the network's delay."""

    def __init__(self) -> None:
        self.ids = itertools.count(10**17)
        self.shown: dict[int, dict[str, Any]] = {}  # message id -> what it shows (its payload)

    async def call(
        self, fields: dict[str, Any], response_type: int | None = None, edits: int | None = None
    ) -> Message:
        """Send a message, or edit message `edits`."""
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
        message_id = next(self.ids) if edits is None else edits
        if payload is not None and payload.get("attachments"):
            # As Discord shows them once uploaded (a message parses only complete ones).
            payload = {**payload, "attachments": [uploaded(a) for a in payload["attachments"]]}
        if payload is not None:
            before = self.shown.get(message_id, {})
            flags = payload.get("flags", before.get("flags", 0)) | (64 if ephemeral else 0)
            self.shown[message_id] = {**before, **payload, "flags": flags}
        await asyncio.sleep(0)
        return Message(self, message_id)


def uploaded(attachment: dict[str, Any]) -> dict[str, Any]:
    name = attachment.get("filename", "file")
    url = f"https://cdn.discordapp.com/attachments/1/2/{name}"
    rest = {k: v for k, v in attachment.items() if k != "id"}
    return {"id": str(attachment.get("id", 0)), "filename": name, "size": 30_000, "url": url,
            "proxy_url": url, **rest}  # fmt: skip


class Message:
    interaction_metadata = None  # which interaction made it: the presenter tells hands apart by it

    def __init__(self, wire: Discord, message_id: int) -> None:
        self.wire, self.id = wire, message_id

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

    async def send_message(self, content: str | None = None, **fields: Any) -> None:
        self._answer()
        if fields.get("ephemeral") and not isinstance(fields.get("view"), discord.ui.LayoutView):
            REFUSED.append(content or "")  # an error or a refusal, not a hand (a V2 layout)
        fields["content"] = content
        self.interaction.sent = await self.interaction.wire.call(fields, CHANNEL_MESSAGE)

    async def edit_message(self, **fields: Any) -> None:
        self._answer()
        message = self.interaction.message
        await self.interaction.wire.call(fields, UPDATE_MESSAGE, message.id if message else None)

    async def defer(self, **_: Any) -> None:
        self._answer()
        await asyncio.sleep(0)


class Followup:
    def __init__(self, wire: Discord) -> None:
        self.wire = wire

    async def send(self, content: str | None = None, **fields: Any) -> Message:
        return await self.wire.call({"content": content, **fields})


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
        self.locale = self.guild_locale = discord.Locale.american_english
        self.channel = None  # not a thread: games may start in any channel
        self.data = {"custom_id": custom_id, "component_type": 2}
        self.id = next(INTERACTIONS)
        self.created_at = discord.utils.utcnow()
        self.app_permissions = self.permissions = discord.Permissions.all()
        self.response = Response(self)
        self.followup = Followup(wire)
        self.sent: Message | None = None

    async def original_response(self) -> Message:
        assert self.sent is not None
        return self.sent

    async def edit_original_response(self, **fields: Any) -> Message:
        # A button's interaction's original response is the message it was clicked on.
        shown = self.sent or self.message
        return await self.wire.call(fields, edits=shown.id if shown else None)


class Bot:
    """What the handlers and the presenter use of StealBot."""

    def __init__(self, wire: Discord) -> None:
        self.wire = wire
        self.app: App | None = None

    def get_partial_messageable(self, channel_id: int, *, guild_id: int | None = None) -> Channel:
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
    steal.register(bot.app.buttons)  # the game's buttons, as loading the extension does
    # 100 games at once in one server: the most an admin may allow (the default is 10).
    await bot.app.sessions.records.set_setting(GUILD, "max_games", 100)
    return bot
