"""Many games at once against Discord's rate limits: what the bot's REST traffic costs, and
what players see of it (how stale tables get, how late turn pings come).

    python bench/discord_limits.py [--games 10,100,1000,5000] [--seconds 60] [--rate 50]
        [--pace 2,8] [--closed 0.2] [--long 0.3] [--no-governor] [--seed S] [--json]

No network, on virtual time (bench/virtual_time.py): the session layer, storage (SQLite in a
temporary folder) and the presenter run for real, wired by the bot's composition root
(bot/app.py `build`), with discord.py's own HTTPClient, the REST governor installed in front of
it as bot/client.py installs it (bot/adapter/governor.py; --no-governor: without, as before),
and discord.py's own rate-limit handling behind it. Only Discord's side is stood in for, at
aiohttp's `session.request`, by `Discord` below, which enforces the limits Discord documents:

- the global rate limit on bot-token routes (`--rate`, 50 a second, in any one second),
  interaction endpoints exempt;
- per-route limits per channel where they bite: creating messages 5 per 5 s, editing them 5
  per 5 s, deleting them 5 per second;
- a 429 as Discord answers it (retry_after, global, X-RateLimit-Scope, the bucket headers),
  and a count of invalid requests (401, 403, 429 but shared; Discord bans past 10,000 in 10
  minutes) and of other failures (404 on a message gone).

GAMES games of 2 to 4 seats, some of them AI seats (easy, which thinks quickly), one game a
server. People move at a human pace: on their turn, after a random PACE seconds (2 to 8). An AI
seat moves after AI_MOVE_SECONDS, as in the bot. A game that ends is followed by a new one in
its channel a few seconds later; a tenth of the games start near their end, so games end during
the run. Start is clicked on the lobby message and answered by drawing the table into it, as
cogs/lobbies.py does, so the presenter edits that table through the Start click's token
(exempt); a share of the games (--long, 30%) plays as if started over 15 minutes ago, Start's
token dead, so their tables are edited with the bot's token, through the budget. People click
as on Discord: each click is an interaction with its own token (`Click`), answered through its
callback route (counted, exempt, not drawn), the presenter told of it as interactions.watch
tells it. Most people (all but --closed, 20%) open their hand (My hand) and move by clicking in
it, so the presenter keeps it, refreshes it through the interaction webhook and owes them no
ping while it is fresh; the others close their hand: their clicks are not kept as an open hand,
so their turn pings are owed. The stand-in answers the interaction webhook (follow-ups, editing
and deleting "@original" and follow-ups), exempt.

Per GAMES it prints, over SECONDS of play: global requests per move, by route; the most global
requests in any one second; 429s by scope and other invalid requests; table staleness (from a
change to the table showing it: p50, p95, max; and apart, of the --long games' tables, the
ones the budget edits); the turn ping's delay (from the turn starting
to the ping landing); and whether every owed message (end screens, closings) was delivered once
the games were left to finish their work.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import collections
import contextlib
import datetime
import itertools
import json
import logging
import random
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

import discord
from multidict import CIMultiDict
from virtual_time import VirtualLoop  # bench/, beside this script
from yarl import URL

from bot import metrics
from bot.adapter import governor as rest
from bot.adapter import traffic
from bot.adapter.presenter import worker as presenter_worker
from bot.app import App, build
from bot.domain.options import Options
from bot.domain.seats import is_ai
from bot.engine import preset
from bot.session import events as ev
from bot.storage import Storage

APPLICATION = 900_000_000_000_000_001
BOT_USER = {
    "id": str(APPLICATION),
    "username": "Steal the Bundle",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
}
# Per-route limits, per channel: (requests, seconds). Creating messages in a channel: 5 per
# 5 s (Discord's docs and its headers); editing: the same; deleting: 5 a second.
ROUTES = {
    "POST /channels/{id}/messages": (5, 5.0),
    "PATCH /channels/{id}/messages/{id}": (5, 5.0),
    "DELETE /channels/{id}/messages/{id}": (5, 1.0),
}
INVALID_LIMIT, INVALID_WINDOW = 10_000, 600.0  # Discord's invalid request limit
TOKEN_LIFE = 900.0  # an interaction token answers for 15 minutes
API = "https://discord.com/api/v10"
CHANNEL_MESSAGE, UPDATE_MESSAGE = 4, 7  # interaction callback types: a new answer, an edit


# ----- Discord's side


class Response:
    """aiohttp's response, as discord.py reads it."""

    def __init__(self, status: int, body: Any, headers: dict[str, str]) -> None:
        self.status = status
        typed = {"content-type": "application/json"} if body is not None else {}  # 204: none
        self.headers = CIMultiDict({**typed, "Via": "1.1 google", **headers})
        self.body = json.dumps(body) if body is not None else ""

    async def __aenter__(self) -> Response:
        await asyncio.sleep(0)  # the answer comes through the event loop
        return self

    async def __aexit__(self, *_: object) -> None:
        return None

    async def text(self, encoding: str = "utf-8") -> str:
        return self.body


class Discord:
    """The REST API as far as the bot uses it, with its limits, at aiohttp's session.request."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.ids = itertools.count(10**17)
        self.messages: set[int] = set()
        self.window: collections.deque[float] = collections.deque()  # the last second's
        self.global_times: list[float] = []  # every bot-token request's time
        self.routes: collections.Counter[str] = collections.Counter()
        # By route and the priority the presenter gave it (bot/adapter/governor.py).
        self.tags: collections.Counter[str] = collections.Counter()
        self.interactions = 0
        self.interaction_routes: collections.Counter[str] = collections.Counter()
        self.tokens: dict[str, tuple[float, int]] = {}  # interaction token -> (issued, channel)
        self.buckets: dict[tuple[str, str], list[float]] = {}  # (route, channel) -> [start, n]
        self.limited: collections.Counter[str] = collections.Counter()  # 429s by scope
        self.invalid: list[float] = []  # what the invalid request limit counts
        self.failed: collections.Counter[int] = collections.Counter()  # other 4xx
        self.pinged: list[tuple[float, int, str]] = []  # (when, channel, user) of turn pings
        self.pinged_by: collections.Counter[str] = collections.Counter()  # token or webhook

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def issue(self, token: str, channel: int) -> None:
        """A click came: its interaction's token answers for TOKEN_LIFE."""
        self.tokens[token] = (self.now(), channel)

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
            message_id = next(self.ids)
            self.messages.add(message_id)
            self.mentions(data, channel, "bot token")
            return Response(200, message(message_id, channel), headers)
        if route.endswith("/messages/{id}"):
            message_id = int(parts[6])
            if message_id not in self.messages:
                self.failed[404] += 1
                return Response(404, {"message": "Unknown Message", "code": 10008}, headers)
            if method == "DELETE":
                self.messages.discard(message_id)
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
        if issued is None or now >= issued[0] + TOKEN_LIFE:
            self.invalid.append(now)
            self.failed[401] += 1
            return Response(401, {"message": "Invalid Webhook Token", "code": 50027}, {})
        channel = str(issued[1])
        if parts[3] == "interactions":  # the callback: the click's first answer
            return Response(204, None, {})
        if len(parts) == 6:  # POST /webhooks/{application}/{token}: a follow-up (a turn ping)
            message_id = next(self.ids)
            self.messages.add(message_id)
            self.mentions(data, channel, "webhook")
            return Response(200, message(message_id, channel), {})
        which = parts[7]
        if which != "@original":
            message_id = int(which)
            if message_id not in self.messages:
                self.failed[404] += 1
                return Response(404, {"message": "Unknown Message", "code": 10008}, {})
            if method == "DELETE":
                self.messages.discard(message_id)
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
        message_id = next(self.ids)
        self.messages.add(message_id)
        return message_id


def message(message_id: int, channel: str) -> dict[str, Any]:
    return {
        "id": str(message_id),
        "channel_id": channel,
        "type": 0,
        "author": BOT_USER,
        "content": "",
        "embeds": [],
        "components": [],
        "attachments": [],
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
        "mention_everyone": False,
        "tts": False,
        "edited_timestamp": None,
        "timestamp": "2026-01-01T00:00:00+00:00",
        "flags": 0,
    }


def client_on(wire: Discord, governed: bool, rate: float) -> discord.Client:
    """A discord.py client whose HTTP goes to `wire`, with the bot's governor in front."""
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    client = discord.Client(intents=discord.Intents.default())
    state = client._connection
    state.application_id = APPLICATION
    state.user = discord.ClientUser(state=state, data=BOT_USER)  # type: ignore[arg-type]
    http = client.http
    http._HTTPClient__session = wire  # type: ignore[attr-defined]
    http._global_over = asyncio.Event()
    http._global_over.set()
    if governed:
        rest.install(http, rate, lambda: APPLICATION)
    return client


# ----- the players


class Click:
    """A click's interaction, as far as the bot reads one for a hand: its id (a snowflake of
    now), its token (good for 15 minutes at the stand-in), and the message clicked (a hand
    message, known by the interaction that made it)."""

    serial = itertools.count()

    def __init__(
        self, wire: Discord, channel: int, origin: int | None = None, age: float = 0.0
    ) -> None:
        at = datetime.datetime.fromtimestamp(wall() - age, datetime.UTC)
        self.id = discord.utils.time_snowflake(at) + next(Click.serial) % (1 << 22)
        self.token = f"bench-token-{self.id}"
        self.application_id = APPLICATION
        self.channel_id = channel
        self.created_at = discord.utils.snowflake_time(self.id)
        self.locale = discord.Locale.american_english
        self.extras: dict[str, Any] = {}
        self.message = (
            None
            if origin is None
            else types.SimpleNamespace(
                id=origin, interaction_metadata=types.SimpleNamespace(id=origin)
            )
        )
        self.wire = wire
        wire.issue(self.token, channel)  # answered now: the stand-in takes its answer

    async def answer(self, kind: int) -> None:
        """The click's first answer, through its callback route (drawn by the bot, not here)."""
        url = f"{API}/interactions/{self.id}/{self.token}/callback"
        async with self.wire.request("POST", url, data=json.dumps({"type": kind})):
            pass


def wall() -> float:
    """The virtual wall clock (bench/virtual_time.py), what discord.utils.utcnow says here."""
    loop = asyncio.get_running_loop()
    assert isinstance(loop, VirtualLoop)
    return loop.wall()


class Bench:
    def __init__(self, app: App, wire: Discord, args: argparse.Namespace, games: int) -> None:
        self.app, self.wire, self.args, self.n = app, wire, args, games
        self.sessions = app.sessions
        self.rng = random.Random(args.seed)
        self.changed: dict[int, asyncio.Event] = {}  # game id -> set at each of its events
        self.turns: dict[int, tuple[float, str]] = {}  # channel -> (since, whose turn)
        self.ping_delays: list[float] = []
        self.human_turns = 0  # turns of a person that began while measuring
        self.staleness: list[float] = []
        self.long: set[int] = set()  # games past their Start click's token (--long)
        self.staleness_long: list[float] = []  # theirs: the tables the budget edits
        self.current: dict[int, int] = {}  # slot -> its game now
        self.moves = 0
        self.ended = 0
        self.keeps: dict[str, bool] = {}  # player -> keeps their hand open (else: closes it)
        self.hands: dict[tuple[int, str], tuple[int, float]] = {}  # open hand: (origin, when)
        self.opening: set[asyncio.Task[None]] = set()
        self.clicks = collections.Counter[str]()
        self.measuring = False
        self.stopping = False
        inner = self.sessions.notify_cb
        assert inner is not None

        async def notify(event: Any) -> None:
            await inner(event)
            self.seen(event)

        self.sessions.listen(notify)
        metrics.TABLES.listeners.append(self.shown)

    def shown(self, game_id: int, age: float) -> None:
        if self.measuring:
            self.staleness.append(age)
            if game_id in self.long:
                self.staleness_long.append(age)

    def seen(self, event: Any) -> None:
        table = getattr(event, "table", None)
        game_id = table.game_id if table is not None else event.game_id
        if isinstance(event, ev.Moved) and self.measuring:
            self.moves += 1
        if isinstance(event, ev.GameOver):
            self.ended += 1
        if table is not None and isinstance(event, ev.Moved | ev.Started) and table.loaded:
            seat = table.turn
            if seat is not None and not is_ai(table.seats[seat]):
                self.turns[table.channel_id] = (self.wire.now(), table.seats[seat])
                self.human_turns += self.measuring
        if game_id in self.changed:
            self.changed[game_id].set()

    def pings(self, since: int) -> int:
        """Turn ping delays, from the pings that landed since index `since`."""
        for at, channel, user in self.wire.pinged[since:]:
            turn = self.turns.get(channel)
            if turn is not None and turn[1] == user and self.measuring:
                self.ping_delays.append(at - turn[0])
        return len(self.wire.pinged)

    def where(self, slot: int) -> tuple[int, int]:
        """The server and channel of a slot's games: a server each (a shard each, in turn)."""
        return 2 * 10**17 + (slot << 22), 3 * 10**17 + slot

    def report(self) -> dict[str, Any]:
        """What a bench built on this one adds to the figures of a run."""
        return {}

    async def open_game(self, slot: int) -> int:
        guild, channel = self.where(slot)
        seats = self.rng.randint(2, 4)
        humans = self.rng.randint(1, seats)
        host = f"{channel}0"
        lobby = await self.sessions.open_lobby(guild, channel, host, preset(self.args.rules), 4)
        for i in range(1, humans):
            await self.sessions.join(channel, f"{channel}{i}")
        for _ in range(seats - humans):
            await self.sessions.add_bot(channel, host, "easy")
        posted = self.wire.post_as_interaction()  # /steal new is answered with the lobby
        await self.app.presenter.lobby_posted(lobby, posted)
        table = await self.start(channel, host, posted)
        self.changed[table.game_id] = asyncio.Event()
        self.current[slot] = table.game_id
        for user in table.seats:
            if is_ai(user):
                continue
            keeps = self.keeps.setdefault(user, self.rng.random() >= self.args.closed)
            if keeps:  # My hand, a moment after the game starts
                task = asyncio.create_task(self.open_hand(table.game_id, channel, user, 1.0))
                self.opening.add(task)
                task.add_done_callback(self.opening.discard)
        return table.game_id

    async def start(self, channel: int, host: str, lobby: int) -> Any:
        """Start, clicked on the lobby message (as cogs/lobbies.py): the lobby becomes the
        table, drawn as the click's answer (its callback edits the message it is on). A game
        of the --long share plays as one started more than 15 minutes ago: its Start click's
        token is dead, so its table is edited with the bot's token."""
        old = self.rng.random() < self.args.long
        click = Click(self.wire, channel, lobby, age=TOKEN_LIFE if old else 0.0)

        async def handled() -> Any:
            self.clicked(click)
            table = await self.sessions.start(channel, host, message_id=lobby)
            version = table.version
            await self.app.presenter.table_message(table)
            await click.answer(UPDATE_MESSAGE)
            self.app.presenter.table_shown(table, version)
            return table

        table = await asyncio.create_task(handled())
        self.clicks["start"] += 1
        if old:
            self.long.add(table.game_id)
        return table

    def clicked(self, click: Click) -> None:
        """As interactions.watch: the click is being answered until this task ends."""
        task = asyncio.current_task()
        assert task is not None
        self.app.presenter.answering(task, click)  # type: ignore[arg-type]

    async def open_hand(self, game_id: int, channel: int, user: str, after: float = 0) -> None:
        """My hand: the player's hand, a new ephemeral message that follows the game (as
        cogs/hands.py send_hand: the answer first, then the presenter keeps it)."""
        if after:
            await asyncio.sleep(self.rng.uniform(after, 3 * after))
        table = self.sessions.tables.get(game_id)
        if table is None or table.game.over or self.stopping:
            return
        if (game_id, user) in self.hands and after:
            return  # opened on their turn meanwhile
        click = Click(self.wire, channel)

        async def handled() -> None:
            self.clicked(click)
            await self.sessions.back(game_id, user)
            await click.answer(CHANNEL_MESSAGE)
            self.app.presenter.remember_hand(game_id, user, click, None, fresh=True)  # type: ignore[arg-type]

        await asyncio.create_task(handled())
        self.hands[(game_id, user)] = (click.id, self.wire.now())
        self.clicks["my hand"] += 1

    async def move(self, game_id: int, channel: int, user: str, move: Any, version: int) -> None:
        """A move: a click in the player's open hand (as cogs/hands.py move: the clicked hand
        is the one kept, the move is played, the click is answered with the hand redrawn). A
        player who closes their hand clicks in a hand the presenter does not keep."""
        hand = self.hands.get((game_id, user))
        click = Click(self.wire, channel, hand[0] if hand else next(self.wire.ids))

        async def handled() -> None:
            self.clicked(click)
            if hand is not None:
                self.app.presenter.remember_hand(game_id, user, click)  # type: ignore[arg-type]
            await self.sessions.back(game_id, user)
            await self.sessions.play(game_id, user, move, version)
            await click.answer(UPDATE_MESSAGE)

        await asyncio.create_task(handled())
        self.clicks["move, hand kept" if hand else "move, hand closed"] += 1

    async def play(self, game_id: int, moves: int | None = None, paced: bool = True) -> None:
        """The people of a game play it (`moves` of them, or to its end)."""
        played = 0
        while moves is None or played < moves:
            table = self.sessions.tables.get(game_id)
            if table is None or table.game.over or self.stopping:
                return
            seat = table.turn
            if seat is None:
                return
            user = table.seats[seat]
            if is_ai(user):  # its timer plays it
                self.changed[game_id].clear()
                await self.changed[game_id].wait()
                continue
            hand = self.hands.get((game_id, user))
            if self.keeps.get(user) and (
                hand is None or self.wire.now() > hand[1] + TOKEN_LIFE - 120
            ):  # no hand open yet, or its token near its end: My hand first
                await self.open_hand(game_id, table.channel_id, user)
                if paced:
                    await asyncio.sleep(self.rng.uniform(0.5, 1.5))
            if paced:
                await asyncio.sleep(self.rng.uniform(*self.args.pace))
            if self.stopping or table.version != self.sessions.tables[game_id].version:
                continue
            move = self.rng.choice(table.hand(seat).legal)
            await self.move(game_id, table.channel_id, user, move, table.version)
            played += 1

    async def channel(self, slot: int, game_id: int) -> None:
        """A channel's games, one after another, until the run stops."""
        while not self.stopping:
            await self.play(game_id)
            if self.stopping:
                return
            await asyncio.sleep(self.rng.uniform(3, 10))  # the rematch, a few seconds later
            if not self.stopping:
                game_id = await self.open_game(slot)

    async def setup(self) -> list[int]:
        games: list[int] = []
        for start in range(0, self.n, 250):
            batch = range(start, min(self.n, start + 250))
            games += await asyncio.gather(*(self.open_game(slot) for slot in batch))
        # A tenth of the games are near their end already, so games end during the run.
        length = 36 if self.args.rules in ("casita", "rubamazzo") else 48
        near = games[::10]
        await asyncio.gather(*(self.play(g, moves=length - 6, paced=False) for g in near))
        return games


async def settled() -> None:
    """Once the app is closed: what still runs (AI turn timers, the table work they start,
    retrying on the closed storage) is cancelled, until nothing new starts."""
    for _ in range(100):
        left = asyncio.all_tasks() - {asyncio.current_task()}
        if not left:
            return
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)


async def idle(app: App, limit: float) -> None:
    """Let the presenter finish its work (virtual seconds, at most `limit`)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + limit
    while app.presenter.worker.running() and loop.time() < until:
        await asyncio.sleep(1.0)


class Errors(logging.Handler):
    """Errors the bot logged, counted by their first line (printed once each, not per game)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: collections.Counter[str] = collections.Counter()

    def emit(self, record: logging.LogRecord) -> None:
        cause = record.exc_info[1] if record.exc_info else None
        where = f" ({type(cause).__name__} {cause})" if cause is not None else ""
        self.seen[f"{record.name}: {record.getMessage().split(':', 1)[-1].strip()}{where}"] += 1


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def most_in_a_second(times: list[float]) -> int:
    return max((bisect.bisect_left(times, t + 1.0) - i for i, t in enumerate(times)), default=0)


def without_fsync() -> None:
    """The bench measures REST traffic, not the disk: no fsync at each commit (on a shared
    machine, waiting for the disk took most of the real time, while the clock stood still)."""
    opened = Storage.open.__func__  # type: ignore[attr-defined]

    async def open_(cls: type[Storage], *args: Any, **kwargs: Any) -> Storage:
        kwargs.setdefault("durable", False)
        return await opened(cls, *args, **kwargs)  # type: ignore[no-any-return]

    Storage.open = classmethod(open_)  # type: ignore[method-assign,assignment]


async def run(args: argparse.Namespace, games: int, make: type[Bench] = Bench) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    assert isinstance(loop, VirtualLoop)
    # The presenter's edit gap reads time.monotonic: the virtual clock for it too.
    presenter_worker.time = types.SimpleNamespace(monotonic=loop.time)  # type: ignore[assignment]
    # Tokens' ages, "shown in the last 10 minutes", interactions' created_at: virtual too.
    utcnow = discord.utils.utcnow
    discord.utils.utcnow = lambda: datetime.datetime.fromtimestamp(loop.wall(), datetime.UTC)
    wire = Discord(args.rate)
    client = client_on(wire, not args.no_governor, args.rate)
    deals = random.Random(args.seed)
    options = Options(seed_source=lambda: deals.getrandbits(63), turn_seconds=None)
    metrics.TABLES.since.clear()
    metrics.TABLES.listeners.clear()
    errors = Errors()
    logging.getLogger().addHandler(errors)
    with tempfile.TemporaryDirectory() as folder:
        app = await build(Path(folder) / "bench.db", client, options, clock=loop.wall)
        bench = make(app, wire, args, games)
        started = time.perf_counter()
        ids = await bench.setup()
        await idle(app, 600)  # set up: every table shown before the clock starts
        setup_seconds = time.perf_counter() - started
        marks = (
            len(wire.global_times),
            wire.routes.copy(),
            sum(wire.limited.values()),
            len(wire.invalid),
            sum(wire.failed.values()),
            wire.interactions,
            wire.interaction_routes.copy(),
            wire.pinged_by.copy(),
            bench.clicks.copy(),
            wire.tags.copy(),
        )
        pinged = len(wire.pinged)
        bench.measuring, t0 = True, loop.time()
        channels = [asyncio.create_task(bench.channel(i, g)) for i, g in enumerate(ids)]
        while loop.time() < t0 + args.seconds:
            await asyncio.sleep(1.0)
            pinged = bench.pings(pinged)
        bench.measuring = False
        live_long = sum(game in bench.long for game in bench.current.values())
        played_seconds = time.perf_counter() - started - setup_seconds
        t1 = loop.time()
        times = wire.global_times[marks[0] :]
        routes = wire.routes - marks[1]
        interaction_routes = wire.interaction_routes - marks[6]
        pinged_by = wire.pinged_by - marks[7]
        clicks = bench.clicks - marks[8]
        tags = wire.tags - marks[9]
        ended_in_run = bench.ended
        # Stop: nobody moves any more; what the games still owe is given time to go out.
        bench.stopping = True
        for event in bench.changed.values():
            event.set()
        await asyncio.gather(*channels, *bench.opening, return_exceptions=True)
        await idle(app, 900)
        owed = await app.sessions.owed()
        await app.close()
        await settled()
    logging.getLogger().removeHandler(errors)
    discord.utils.utcnow = utcnow
    moves = max(bench.moves, 1)
    invalid = wire.invalid
    peak_invalid = max(
        (bisect.bisect_left(invalid, t + INVALID_WINDOW) - i for i, t in enumerate(invalid)),
        default=0,
    )
    return {
        "games": games,
        "seconds": round(t1 - t0, 1),
        "moves": bench.moves,
        "moves_per_s": round(bench.moves / (t1 - t0), 1),
        "global_requests": len(times),
        "global_per_move": round(len(times) / moves, 2),
        "per_move_by_route": {r: round(n / moves, 2) for r, n in sorted(routes.items())},
        "per_move_by_priority": {r: round(n / moves, 3) for r, n in sorted(tags.items())},
        "interaction_requests": wire.interactions - marks[5],
        "interaction_per_move_by_route": {
            r: round(n / moves, 2) for r, n in sorted(interaction_routes.items())
        },
        "clicks": dict(clicks),
        "pings_by": dict(pinged_by),
        "keep_hand_open": round(sum(bench.keeps.values()) / max(len(bench.keeps), 1), 2),
        "peak_global_per_s": most_in_a_second(times),
        "rate_limited": dict(wire.limited),
        "invalid_requests": len(invalid),
        "invalid_peak_10min": peak_invalid,
        "banned": peak_invalid > INVALID_LIMIT,
        "other_failures": {str(k): v for k, v in wire.failed.items()},
        "staleness_s": summary(bench.staleness),
        "staleness_bot_token_s": summary(bench.staleness_long),
        "live_tables_bot_token": live_long,
        "ping_delay_s": summary(bench.ping_delays),
        "human_turns": bench.human_turns,
        "games_ended": ended_in_run,
        "ended_all": bench.ended,
        "owed_undelivered": len(owed),
        "live_tables": len(ids),
        "errors_logged": dict(errors.seen),
        "real_seconds": {"setup": round(setup_seconds, 1), "play": round(played_seconds, 1)},
        **bench.report(),
    }


def summary(values: list[float]) -> dict[str, float | int | None]:
    def r(v: float | None) -> float | None:
        return None if v is None else round(v, 2)

    return {
        "n": len(values),
        "p50": r(percentile(values, 0.5)),
        "p95": r(percentile(values, 0.95)),
        "max": r(max(values) if values else None),
        "mean": r(statistics.fmean(values) if values else None),
    }


def printed(out: dict[str, Any], rate: float) -> None:
    s, p = out["staleness_s"], out["ping_delay_s"]
    print(
        f"\n{out['games']:,} games, {out['seconds']} s: {out['moves']:,} moves "
        f"({out['moves_per_s']}/s), real time {out['real_seconds']}"
    )
    print(
        f"  global requests per move: {out['global_per_move']}  "
        f"(peak {out['peak_global_per_s']} in one second; limit {rate:g})"
    )
    for route, n in out["per_move_by_priority"].items():
        print(f"    {route}: {n}")
    print(
        f"  interaction requests (exempt): {out['interaction_requests']:,}; clicks "
        f"{out['clicks']}; {out['keep_hand_open']:.0%} of the people keep their hand open"
    )
    for route, n in out["interaction_per_move_by_route"].items():
        print(f"    {route}: {n}")
    print(
        f"  429s: {out['rate_limited'] or 0}; invalid requests {out['invalid_requests']} "
        f"(most in 10 min {out['invalid_peak_10min']}; banned: {out['banned']}); "
        f"other failures {out['other_failures'] or 0}"
    )
    print(f"  table staleness p50 {s['p50']} s, p95 {s['p95']} s, max {s['max']} s (n={s['n']})")
    b = out["staleness_bot_token_s"]
    print(
        f"    of the {out['live_tables_bot_token']:,} tables edited with the bot token (--long): "
        f"p50 {b['p50']} s, p95 {b['p95']} s, max {b['max']} s (n={b['n']})"
    )
    print(
        f"  turn ping delay p50 {p['p50']} s, p95 {p['p95']} s, max {p['max']} s "
        f"({p['n']:,} pings landed for {out['human_turns']:,} turns of a person; the others "
        f"were superseded before they went, or not owed); pings sent through "
        f"{out['pings_by'] or 'none'}"
    )
    print(
        f"  games ended: {out['games_ended']} (in all {out['ended_all']}); "
        f"owed messages undelivered: {out['owed_undelivered']}"
    )
    for error, n in out["errors_logged"].items():
        print(f"  logged {n}x: {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="10,100,1000,5000")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=50.0, help="the global limit, per second")
    parser.add_argument("--pace", default="2,8", help="a person's seconds per move: low,high")
    parser.add_argument(
        "--closed", type=float, default=0.2,
        help="the share of people who close their hand (the others keep it open)",
    )  # fmt: skip
    parser.add_argument(
        "--long", type=float, default=0.3,
        help="the share of games played as if started over 15 minutes ago (Start's token dead)",
    )  # fmt: skip
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--no-governor", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    args.pace = tuple(float(x) for x in args.pace.split(","))
    without_fsync()
    logging.basicConfig(level=logging.CRITICAL)  # counted and printed once each (Errors)
    results = []
    for n in (int(x) for x in args.games.split(",")):
        with asyncio.Runner(loop_factory=VirtualLoop) as runner:
            out = runner.run(run(args, n))
        results.append(out)
        if not args.json:
            printed(out, args.rate)
    if args.json:
        json.dump(
            {"governor": not args.no_governor, "rate": args.rate, "runs": results}, sys.stdout
        )
        print()


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
