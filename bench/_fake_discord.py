"""The benches' one fake Discord: its side of the REST API, at aiohttp's `session.request`,
where discord.py has built and encoded a request. Everything in front of it (discord.py's
HTTPClient, its webhook adapter, the bot's governor) runs for real.

`FakeDiscord` keeps what Discord keeps: the messages (what each shows), who sent them, and the
interactions' tokens; it answers the interaction webhook (follow-ups, editing and deleting the
first answer, "@original", and follow-ups) on the event loop's next turn, with no network
delay. bench/standin.py builds the bot's objects on it (bench/moves.py), bench/_rest_limits.py
adds Discord's rate limits (bench/rate_limits.py, bench/fairness.py), and bench/floor.py gives
discord.py alone a client (`wire_client`) and the same answers (`Response`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Mapping
from typing import Any, NamedTuple
from urllib.parse import unquote

import aiohttp
import discord
from multidict import CIMultiDict

APPLICATION = 900_000_000_000_000_001  # the bot's application id (its interaction webhooks')
BOT_USER = {"id": str(APPLICATION), "username": "Steal the Bundle", "discriminator": "0",
            "global_name": None, "avatar": None, "bot": True}  # fmt: skip
API = "https://discord.com/api/v10"
CHANNEL_MESSAGE, UPDATE_MESSAGE = 4, 7  # interaction callback types: a new answer, an edit
# An interaction webhook's routes: .../webhooks/{application}/{token}[/messages/{id|@original}]
WEBHOOK = re.compile(r"/webhooks/(\d+)/([^/?]+)(?:/messages/(\d+|@original))?$")
UNKNOWN_MESSAGE = {"message": "Unknown Message", "code": 10008}


class Response:
    """aiohttp's response, as discord.py reads it: status, headers, body."""

    def __init__(
        self, status: int, body: Mapping[str, Any] | None, headers: Mapping[str, str] = {}
    ) -> None:
        self.status = status
        self.reason = "OK" if status < 300 else "Error"
        typed = {"content-type": "application/json"} if body is not None else {}  # 204: none
        self.headers = CIMultiDict({**typed, "Via": "1.1 google", **headers})
        self.body = json.dumps(body) if body is not None else ""

    async def __aenter__(self) -> Response:
        await asyncio.sleep(0)  # the answer comes through the event loop, as a real one does
        return self

    async def __aexit__(self, *_: object) -> None:
        return None

    async def text(self, encoding: str = "utf-8") -> str:
        return self.body


def message(message_id: int, channel: int | str, **shown: Any) -> dict[str, Any]:
    """A message as Discord returns it: by the bot, showing `shown` over an empty one."""
    return {
        "id": str(message_id), "channel_id": str(channel), "type": 0, "author": BOT_USER,
        "content": "", "embeds": [], "components": [], "attachments": [], "mentions": [],
        "mention_roles": [], "pinned": False, "mention_everyone": False, "tts": False,
        "edited_timestamp": None, "timestamp": "2026-01-01T00:00:00+00:00", "flags": 0,
        **shown,
    }  # fmt: skip


def wire_client(client: discord.Client, session: object) -> None:
    """`client` is the bot (its application and user) and its HTTP goes to `session`."""
    state = client._connection
    state.application_id = APPLICATION
    state.user = discord.ClientUser(state=state, data=BOT_USER)  # type: ignore[arg-type]
    client.http._HTTPClient__session = session  # type: ignore[attr-defined]


def quiet_voice() -> None:
    """The bot has no voice: no warning that voice's libraries are missing."""
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False


class Token(NamedTuple):
    """An interaction's token, as Discord knows it: its interaction and channel, its first
    answer's message (once answered), and when it was issued."""

    interaction: int
    channel: int
    original: int | None = None
    issued: float = 0.0


class FakeDiscord:
    """Discord's messages and interaction webhooks. `request` is aiohttp's
    `ClientSession.request` for the interaction webhooks' calls."""

    def __init__(self) -> None:
        self.ids = itertools.count(10**17)
        self.shown: dict[int, dict[str, Any]] = {}  # message id -> what it shows (its payload)
        self.tokens: dict[str, Token] = {}  # interaction token -> what Discord knows of it
        self.made_by: dict[int, int] = {}  # message id -> the interaction that sent it

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def post(self, by: int | None = None) -> int:
        """A new message (`by` an interaction: its answer or a follow-up): its id."""
        message_id = next(self.ids)
        self.shown[message_id] = {}
        if by is not None:
            self.made_by[message_id] = by
        return message_id

    def show(self, message_id: int, payload: Mapping[str, Any] | None, ephemeral: bool) -> None:
        """Message `message_id` shows `payload` now (sent, or edited)."""
        if payload is None:
            return
        if payload.get("attachments"):
            # As Discord shows them once uploaded (a message parses only complete ones).
            payload = {**payload, "attachments": [uploaded(a) for a in payload["attachments"]]}
        before = self.shown.get(message_id, {})
        flags = payload.get("flags", before.get("flags", 0)) | (64 if ephemeral else 0)
        self.shown[message_id] = {**before, **payload, "flags": flags}

    def request(self, method: str, url: str, *, data: Any = None, **_: Any) -> Response:
        """A call through an interaction's webhook (discord.py built and encoded it): answered
        as Discord answers it."""
        route = WEBHOOK.search(url)
        token = unquote(route[2]) if route is not None else ""  # quoted in the URL
        if route is None or int(route[1]) != APPLICATION or token not in self.tokens:
            return Response(404, {"message": "Unknown Webhook", "code": 10015})
        return self.webhook(method, self.tokens[token], route[3], data)

    def webhook(self, method: str, token: Token, target: str | None, data: Any) -> Response:
        """Its follow-ups (`target` None: a new one), its first answer ("@original"), or one
        of its follow-ups (`target` its id): sent, edited or deleted."""
        if target is None:  # POST: a new follow-up
            message_id = self.post(by=token.interaction)
        elif target == "@original":
            if token.original is None:
                return Response(404, UNKNOWN_MESSAGE)
            message_id = token.original
        else:
            message_id = int(target)
        if method == "DELETE":
            self.shown.pop(message_id, None)
            return Response(204, None)
        if message_id not in self.shown:
            return Response(404, UNKNOWN_MESSAGE)
        payload = sent_payload(data)
        self.show(message_id, payload, bool(payload.get("flags", 0) & 64))
        shown = {k: v for k, v in self.shown[message_id].items() if k != "allowed_mentions"}
        return Response(200, message(
            message_id, token.channel, webhook_id=str(APPLICATION),
            application_id=str(APPLICATION), **shown,
        ))  # fmt: skip


def sent_payload(data: Any) -> dict[str, Any]:
    """The JSON a webhook request carries: its body, or its form's payload_json part."""
    if isinstance(data, aiohttp.FormData):
        parts = {options.get("name"): value for options, _, value in data._fields}
        data = parts.get("payload_json")
    payload: dict[str, Any] = json.loads(data) if data else {}
    return payload


def uploaded(attachment: dict[str, Any]) -> dict[str, Any]:
    name = attachment.get("filename", "file")
    url = f"https://cdn.discordapp.com/attachments/1/2/{name}"
    rest = {k: v for k, v in attachment.items() if k != "id"}
    return {"id": str(attachment.get("id", 0)), "filename": name, "size": 30_000, "url": url,
            "proxy_url": url, **rest}  # fmt: skip
