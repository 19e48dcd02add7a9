"""Discord's rate limits, enforced by the benches' fake Discord (bench/_fake_discord.py) as
Discord documents them: the global limit on bot-token routes (interaction endpoints exempt),
per-route limits per channel where they bite, a 429 as Discord answers it, the invalid requests
Discord counts (401, 403, 429 but shared) and other failures (404 on a message gone). What each
request was, by route and by the priority the bot's governor gave it, is counted
(bench/rate_limits.py prints it)."""

from __future__ import annotations

import asyncio
import collections
import json
from typing import Any

import discord
from yarl import URL

from bot import metrics
from bot.adapter import governor as rest
from bot.adapter import traffic

from ._fake_discord import (
    APPLICATION,
    UNKNOWN_MESSAGE,
    FakeDiscord,
    Response,
    Token,
    message,
    quiet_voice,
    wire_client,
)

# Per-route limits, per channel: (requests, seconds). Creating messages in a channel: 5 per
# 5 s (Discord's docs and its headers); editing: the same; deleting: 5 a second.
ROUTES = {
    "POST /channels/{id}/messages": (5, 5.0),
    "PATCH /channels/{id}/messages/{id}": (5, 5.0),
    "DELETE /channels/{id}/messages/{id}": (5, 1.0),
}
INVALID_LIMIT, INVALID_WINDOW = 10_000, 600.0  # Discord's invalid request limit
TOKEN_LIFE = 900.0  # an interaction token answers for 15 minutes


class Discord(FakeDiscord):
    """The REST API as far as the bot uses it, with its limits, at aiohttp's session.request."""

    def __init__(self, rate: float) -> None:
        super().__init__()
        self.rate = rate
        self.window: collections.deque[float] = collections.deque()  # the last second's
        self.global_times: list[float] = []  # every bot-token request's time
        self.routes: collections.Counter[str] = collections.Counter()
        # By route and the priority the presenter gave it (bot/adapter/governor.py).
        self.tags: collections.Counter[str] = collections.Counter()
        self.interactions = 0
        self.interaction_routes: collections.Counter[str] = collections.Counter()
        self.buckets: dict[tuple[str, str], list[float]] = {}  # (route, channel) -> [start, n]
        self.limited: collections.Counter[str] = collections.Counter()  # 429s by scope
        self.invalid: list[float] = []  # what the invalid request limit counts
        self.failed: collections.Counter[int] = collections.Counter()  # other 4xx
        self.pinged: list[tuple[float, int, str]] = []  # (when, channel, user) of turn pings
        self.pinged_by: collections.Counter[str] = collections.Counter()  # token or webhook

    def issue(self, token: str, interaction: int, channel: int) -> None:
        """A click came: its interaction's token answers for TOKEN_LIFE."""
        self.tokens[token] = Token(interaction, channel, issued=self.now())

    def request(self, method: str, url: str, *, data: Any = None, **_: Any) -> Response:
        path = URL(url).path
        route = metrics.route_of(method, path)
        if traffic.kind_of(path, APPLICATION) == "interaction":
            return self.interaction(method, route, path.split("/"), data)
        now = self.now()
        while self.window and self.window[0] <= now - 1.0:
            self.window.popleft()
        if len(self.window) >= self.rate:
            self.invalid.append(now)
            self.limited["global"] += 1
            retry = self.window[0] + 1.0 - now
            return Response(
                429,
                {"message": "You are being rate limited.", "retry_after": retry, "global": True},
                {
                    "Retry-After": str(retry),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                },
            )
        self.window.append(now)
        self.global_times.append(now)
        parts = path.split("/")
        channel = parts[4] if len(parts) > 4 else ""
        headers: dict[str, str] = {}
        if route in ROUTES:
            limit, per = ROUTES[route]
            bucket = self.buckets.get((route, channel))
            if bucket is None or now >= bucket[0] + per:
                bucket = self.buckets[(route, channel)] = [now, 0]
            reset = bucket[0] + per - now
            if bucket[1] >= limit:
                self.invalid.append(now)
                self.limited["user"] += 1
                return Response(
                    429,
                    {
                        "message": "You are being rate limited.",
                        "retry_after": reset,
                        "global": False,
                    },
                    {
                        "Retry-After": str(reset),
                        "X-RateLimit-Limit": str(limit),
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset-After": str(reset),
                        "X-RateLimit-Bucket": route,
                        "X-RateLimit-Scope": "user",
                    },
                )
            bucket[1] += 1
            headers = {
                "X-RateLimit-Limit": str(limit),
                "X-RateLimit-Remaining": str(int(limit - bucket[1])),
                "X-RateLimit-Reset-After": f"{reset:.3f}",
                "X-RateLimit-Bucket": route,
            }
        self.routes[route] += 1
        self.tags[f"{route} [{rest.PRIORITY.get().name.lower()}]"] += 1
        return self.answer(method, route, parts, channel, data, headers)

    def answer(
        self,
        method: str,
        route: str,
        parts: list[str],
        channel: str,
        data: Any,
        headers: dict[str, str],
    ) -> Response:
        if method == "POST" and route == "POST /channels/{id}/messages":
            message_id = self.post()
            self.mentions(data, channel, "bot token")
            return Response(200, message(message_id, channel), headers)
        if route.endswith("/messages/{id}"):
            message_id = int(parts[6])
            if message_id not in self.shown:
                self.failed[404] += 1
                return Response(404, UNKNOWN_MESSAGE, headers)
            if method == "DELETE":
                del self.shown[message_id]
                return Response(204, None, headers)
            return Response(200, message(message_id, channel), headers)
        return Response(200, {}, headers)

    def interaction(self, method: str, route: str, parts: list[str], data: Any) -> Response:
        """The interaction endpoints: a click's callback (/interactions/{id}/{token}/callback)
        and its webhook (/webhooks/{application}/{token}: follow-ups, and editing or deleting
        the first answer, "@original", and follow-ups). Not bound by the global limit; a token
        answers for 15 minutes (401 after, as Discord answers, an invalid request)."""
        self.interactions += 1
        self.interaction_routes[route] += 1
        now = self.now()
        token = parts[5] if len(parts) > 5 else ""  # /api/v10/{interactions|webhooks}/{id}/{token}
        issued = self.tokens.get(token)
        if issued is None or now >= issued.issued + TOKEN_LIFE:
            self.invalid.append(now)
            self.failed[401] += 1
            return Response(401, {"message": "Invalid Webhook Token", "code": 50027}, {})
        channel = str(issued.channel)
        if parts[3] == "interactions":  # the callback: the click's first answer
            return Response(204, None, {})
        if len(parts) == 6:  # POST /webhooks/{application}/{token}: a follow-up (a turn ping)
            message_id = self.post(by=issued.interaction)
            self.mentions(data, channel, "webhook")
            return Response(200, message(message_id, channel), {})
        which = parts[7]
        if which != "@original":
            message_id = int(which)
            if message_id not in self.shown:
                self.failed[404] += 1
                return Response(404, UNKNOWN_MESSAGE)
            if method == "DELETE":
                del self.shown[message_id]
        if method == "DELETE":
            return Response(204, None, {})
        return Response(
            200, message(next(self.ids) if which == "@original" else int(which), channel), {}
        )

    def mentions(self, data: Any, channel: str, by: str) -> None:
        """A turn ping: who it mentions (allowed_mentions), when, and how it went."""
        if isinstance(data, str) and "<@" in data:
            mentioned = json.loads(data).get("allowed_mentions", {}).get("users", [])
            for user in mentioned:
                self.pinged.append((self.now(), int(channel), str(user)))
            self.pinged_by[by] += bool(mentioned)

    def post_as_interaction(self) -> int:
        """A message posted as a click's answer (the lobby): exempt."""
        self.interactions += 1
        self.interaction_routes["POST /interactions/{id}/{token}/callback"] += 1
        return self.post()


def client_on(wire: Discord, governed: bool, rate: float) -> discord.Client:
    """A discord.py client whose HTTP goes to `wire`, with the bot's governor in front."""
    quiet_voice()
    client = discord.Client(intents=discord.Intents.default())
    wire_client(client, wire)
    http = client.http
    http._global_over = asyncio.Event()
    http._global_over.set()
    if governed:
        rest.install(http, rate, lambda: APPLICATION)
    return client
