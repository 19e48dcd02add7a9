"""A tournament's world for the session tests: Sessions over one storage with the adapter's
part (threads, announcements) faked, rebuilt as a restart would, and a driver that plays the
people's turns (the AI plays its own)."""

from __future__ import annotations

import asyncio
import contextlib

from bot.session import SessionError, Sessions
from bot.session import events as ev
from bot.storage import Storage

from .conftest import GUILD, with_options

CHANNEL = 77
HOST = "900"
PEOPLE = ["901", "902", "903", "904"]


class Threads:
    """The adapter's part, faked: a new thread id per table; none while `failing`."""

    def __init__(self) -> None:
        self.made: list[tuple[int, int, int]] = []
        self.failing = False

    async def __call__(self, row, round: int, table_no: int, entrants) -> int:
        if self.failing:
            raise ConnectionError("the bot may not make threads there")
        self.made.append((row.id, round, table_no))
        return 5000 + len(self.made)


class World:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.threads = Threads()
        self.said: list[ev.TournamentEvent] = []
        self.s = self.build()

    def build(self) -> Sessions:
        s = Sessions(
            self.storage, retry_seconds=30.0,
            options=with_options({"bot_delay": 0.0, "away_delay": 0.0, "turn_seconds": None,
                                  "seed_source": lambda: 4242}),
        )  # fmt: skip
        s.tournaments.threads = self.threads
        s.tournaments.announce = self.heard
        return s

    async def heard(self, event: ev.TournamentEvent) -> None:
        self.said.append(event)
        await self.s.tournaments.announced(event.tournament_id, event.key)

    async def new(self, **kw):
        kw.setdefault("table_size", 2)
        kw.setdefault("turn_seconds", None)
        return await self.s.tournaments.create(GUILD, CHANNEL, HOST, "Winter Cup", **kw)

    async def play_once(self, people=PEOPLE) -> int:
        """One move for each of `people` whose turn it is; how many were played."""
        played = 0
        for game_id in list(self.s.tables):
            table = self.s.table_of(game_id)
            if table is None:
                continue
            if not table.loaded:
                await self.s.load(game_id)
            if table.game.over or table.turn is None:
                continue
            user = table.seats[table.turn]
            if user in people:
                hand = await self.s.hand(game_id, user)
                with contextlib.suppress(SessionError):  # the table moved meanwhile
                    await self.s.play(game_id, user, hand.legal[0], hand.version)
                    played += 1
        return played

    async def drive(self, tid: int, until: str = "finished") -> None:
        """Play the people's turns until the tournament is `until`."""
        loop = asyncio.get_running_loop()
        end = loop.time() + 60
        while (await self.storage.tournaments.get(tid)).status != until:
            assert loop.time() < end, "the tournament is stuck"
            await self.play_once()
            await asyncio.sleep(0.001)  # let the AI's turns and the rounds' steps run
        await self.s.tournaments.settle()
