"""The floor for one click: what discord.py itself spends on it, with nothing of ours in it.

A real `discord.Client`'s gateway websocket receives the INTERACTION_CREATE frame, compressed
as Discord sends it (zlib-stream), and runs the path every click takes: decompress and parse the
frame, build the Interaction and the clicked message, match the custom_id against the
registered DynamicItem templates (the bot's own, in the same order), rebuild the message's view
and swap in the item, call it. The item only answers, with `edit_message(content="ok")`, and
discord.py builds that HTTP request: route, JSON body, headers, the webhook adapter's lock. Only
the network is stood in for, at aiohttp's `session.request`: it answers at once, on the event
loop's next turn, with the body Discord sends back.

Timed with time.perf_counter: from the frame's arrival to the item's callback returning, which
is when the response has been sent. The same clicks as our moves (custom_id and the very message
clicked), so the ratio our move ÷ floor compares like with like.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
import types
import zlib
from typing import Any

import discord
from discord.gateway import DiscordWebSocket
from discord.ui import Button, DynamicItem

from bot.adapter.buttons import SHOWN

from ._fake_discord import APPLICATION, BOT_USER, Response, message, quiet_voice, wire_client

CALLBACK = {  # what Discord answers to a response with ?with_response=1
    "interaction": {"id": "1", "type": 3, "activity_instance_id": None,
                    "response_message_id": None, "response_message_loading": False,
                    "response_message_ephemeral": True},
    "resource": {"type": 7},
}  # fmt: skip


class Answered(DynamicItem[Button[discord.ui.View]], template=r"(?!)"):
    """A button that only answers. Subclassed below once per template of the bot's."""

    floor: Floor

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Answered:
        assert isinstance(item, Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content="ok")
        self.floor.answered(time.perf_counter())


class Session:
    """The network: aiohttp's ClientSession, at the point where the request is complete."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str, Any]] = []

    def request(self, method: str, url: str, *, data: Any = None, **_: Any) -> Response:
        self.requests.append((method, url, data))
        return Response(200, CALLBACK)


class Floor:
    def __init__(self) -> None:
        quiet_voice()
        self.client = discord.Client(intents=discord.Intents.default())
        state = self.client._connection
        self.session = Session()
        wire_client(self.client, self.session)
        # The bot's templates, in the bot's order, each answered by a button that only answers.
        items: list[type[Answered]] = [
            types.new_class(
                f"Answered{family.__name__}", (Answered,),
                {"template": family.__discord_ui_compiled_template__.pattern},
            )
            for family in SHOWN
        ]  # fmt: skip
        for item in items:
            item.floor = self
        self.client.add_dynamic_items(*items)
        ws = DiscordWebSocket(None, loop=asyncio.get_running_loop())  # type: ignore[arg-type]
        ws._connection = state  # as DiscordWebSocket.from_client wires a connected socket
        ws._discord_parsers = state.parsers
        ws._dispatch = self.client.dispatch
        ws.shard_id = None
        self.ws = ws
        self.compressor = zlib.compressobj()  # one stream per connection, as Discord's
        self.ids = itertools.count(10**18)
        self.sequence = itertools.count(1)
        self.done: asyncio.Future[float] | None = None

    def join(self, guild_id: int, channel_ids: list[int]) -> None:
        """The guild and its channels in the cache, as GUILD_CREATE leaves them when the bot
        connects."""
        channels: list[dict[str, Any]] = [
            {"id": str(c), "type": 0, "name": f"game-{c}", "position": i,
             "permission_overwrites": [], "nsfw": False, "parent_id": None, "flags": 0}
            for i, c in enumerate(channel_ids)
        ]  # fmt: skip
        guild: Any = {  # a GUILD_CREATE's fields, as far as discord.py reads them here
            "id": str(guild_id), "name": "bench", "icon": None, "owner_id": "1",
            "roles": [{"id": str(guild_id), "name": "@everyone", "permissions": "2248473465835073",
                       "position": 0, "color": 0, "hoist": False, "managed": False,
                       "mentionable": False, "flags": 0}],
            "emojis": [], "stickers": [], "features": [], "member_count": 2,
            "preferred_locale": "en-US", "verification_level": 0, "mfa_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0,
            "premium_tier": 0, "nsfw_level": 0, "large": False, "unavailable": False,
            "members": [{"user": BOT_USER, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                         "deaf": False, "mute": False, "flags": 0}],
            "channels": channels, "threads": [], "voice_states": [], "presences": [],
        }  # fmt: skip
        self.client._connection._add_guild_from_data(guild)

    def answered(self, at: float) -> None:
        if self.done is not None and not self.done.done():
            self.done.set_result(at)

    def frame(self, user_id: int, guild_id: int, channel_id: int, shown: dict[str, Any],
              custom_id: str) -> bytes:  # fmt: skip
        """The INTERACTION_CREATE frame for a click on `custom_id` in the message that shows
        `shown` (its id among them), compressed."""
        user = {"id": str(user_id), "username": f"player{user_id}", "discriminator": "0",
                "global_name": f"player {user_id}", "avatar": None}  # fmt: skip
        interaction_id = next(self.ids)
        data = {
            "id": str(interaction_id), "application_id": str(APPLICATION), "type": 3,
            "token": f"aW50ZXJhY3Rpb246{interaction_id}:" + "x" * 150, "version": 1,
            "data": {"custom_id": custom_id, "component_type": 2},
            "guild_id": str(guild_id), "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": 0, "guild_id": str(guild_id),
                        "name": "steal-the-bundle", "position": 0, "permission_overwrites": [],
                        "nsfw": False, "parent_id": None, "flags": 0},
            "member": {"user": user, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                       "deaf": False, "mute": False, "flags": 0, "pending": False,
                       "permissions": "2248473465835073", "nick": None, "avatar": None},
            "message": message(
                int(shown["id"]), channel_id, application_id=str(APPLICATION),
                **{k: v for k, v in shown.items() if k not in ("id", "allowed_mentions")},
            ),
            "app_permissions": "2248473465835073", "locale": "en-US", "guild_locale": "en-US",
            "entitlements": [], "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0, "attachment_size_limit": 10485760,
        }  # fmt: skip
        raw = json.dumps({"op": 0, "s": next(self.sequence), "t": "INTERACTION_CREATE", "d": data})
        return self.compressor.compress(raw.encode()) + self.compressor.flush(zlib.Z_SYNC_FLUSH)

    async def click(self, frame: bytes) -> float:
        """Hand discord.py one frame; seconds from its arrival to the answer being sent."""
        self.done = asyncio.get_running_loop().create_future()
        started = time.perf_counter()
        await self.ws.received_message(frame)
        answered = await asyncio.wait_for(self.done, timeout=5)
        self.done = None
        return answered - started
