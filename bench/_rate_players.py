"""The players of bench/rate_limits.py: people who click at a human pace, on the benches'
fake Discord with its limits (bench/_rest_limits.py), and what they see of the bot's traffic
(how stale tables get, how late turn pings come)."""

from __future__ import annotations

import argparse
import asyncio
import collections
import datetime
import itertools
import json
import random
import types
from typing import Any

import discord

from bot import metrics
from bot.app import App
from bot.domain.seats import is_ai
from bot.engine import preset
from bot.session import Table
from bot.session import events as ev

from ._fake_discord import API, APPLICATION, CHANNEL_MESSAGE, UPDATE_MESSAGE
from ._rest_limits import TOKEN_LIFE, Discord
from .virtual_time import VirtualLoop


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
        wire.issue(self.token, self.id, channel)  # answered now: the stand-in takes its answer

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

    async def start(self, channel: int, host: str, lobby: int) -> Table:
        """Start, clicked on the lobby message (as cogs/lobbies.py): the lobby becomes the
        table, drawn as the click's answer (its callback edits the message it is on). A game
        of the --long share plays as one started more than 15 minutes ago: its Start click's
        token is dead, so its table is edited with the bot's token."""
        old = self.rng.random() < self.args.long
        click = Click(self.wire, channel, lobby, age=TOKEN_LIFE if old else 0.0)

        async def handled() -> Table:
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
