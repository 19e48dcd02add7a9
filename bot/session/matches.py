"""The end of a game: its result recorded and the game forgotten and, in a match that goes on,
its next game started. A collaborator Sessions owns; it shares Sessions' registry."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from bot.domain.match import GameResult, after_game, next_dealer
from bot.domain.seats import is_ai
from bot.engine import new_game
from bot.storage import GameNotFound, WrongStatus

from . import events as ev
from . import results, retry
from .models import ENDED, Table, state_of
from .parts import Parts

log = logging.getLogger(__name__)


class Matches:
    def __init__(self, parts: Parts, *, on_retry: Callable[[], None] = lambda: None) -> None:
        self.on_retry = on_retry  # a finish worked out again: counted (bot/metrics.py)
        self.live = parts.live
        self.storage = parts.storage
        self.timers = parts.timers
        self.notify = parts.notify
        self.seed_source = parts.seed_source
        self.retry_seconds = parts.retry_seconds  # before recording a finished game again
        self.jobs: set[asyncio.Task[None]] = set()  # games being recorded in the background

    async def finish(self, table: Table) -> Table | None:
        """Record a game that is over and forget it (`table.recorded`; the caller then says
        GameOver). In a match that goes on, the next game is saved in the same transaction,
        started and returned. If storage fails, the game stays (its channel claimed; cancel
        and admin end-game find it) and is recorded in the background, trying again until it
        works or the game is ended otherwise: then that says GameOver."""
        if table.standing is None:  # once, for every screen (one read over has it already)
            table.standing = results.standing(table.game, table.forfeited)
        nxt = self._next_game(table)  # once: it counts the game in its match
        try:
            return await self._record(table, nxt)
        except Exception:
            retry.failed("recording the finished game", table.game_id, 0)
        job = asyncio.create_task(self._keep_recording(table, nxt))
        table.timer = job  # stopped with the table (a cancel, Sessions.close)
        self.jobs.add(job)
        job.add_done_callback(self.jobs.discard)
        return None

    async def _keep_recording(self, table: Table, nxt: Table | None) -> None:
        async def attempt() -> tuple[bool, Table | None]:
            async with table.lock:
                if self.live.tables.get(table.game_id) is not table:  # ended otherwise
                    return False, None
                return True, await self._record(table, nxt, routed=True)

        await asyncio.sleep(retry.wait(0, self.retry_seconds))
        done, started = await retry.until_done(
            attempt, what="recording the finished game", game_id=table.game_id,
            first=self.retry_seconds, failures=1,
        )  # fmt: skip
        if done and table.recorded:
            await self.notify(ev.GameOver(table, started))

    async def _record(
        self, table: Table, nxt: Table | None, *, routed: bool = False
    ) -> Table | None:
        """Save the result (and the next game); raises, the game still routed, if storage
        fails. `routed`: it stays routed while it is saved (a try again: a cancel then waits
        for the try, and finds it if it failed)."""
        live = self.live
        # Not routed while it is first saved (a cancel meanwhile finds nothing to cancel),
        # but its channel stays claimed by this game's id until the next game has its own:
        # never free while that is saved, or a /steal new (open_lobby, which claims channels
        # under live.lock) could open a second live game in it. Not live.lock here: we hold
        # the table's lock, and Sessions.cancel takes live.lock and then the table's.
        if not routed:
            live.tables.pop(table.game_id, None)
        live.channels[table.channel_id] = table.game_id
        game = table.game
        known = live.names_in(table.guild_id)
        bots = {s for s in game.seats if is_ai(s)}
        details: dict[str, Any] = {
            "names": {s: known[s] for s in game.seats if s in known},
            "forfeited": [game.seats[s] for s in sorted(table.forfeited)],
            "counted": table.counted,
            "unrated": bots,
            "placed": table.standing,
            # The end screen is owed with the result, so a restart cannot lose it.
            "owed": [(ENDED, {"guild_id": table.guild_id, "channel_id": table.channel_id})],
        }
        then = None if nxt is None else (state_of(nxt, nxt.game), nxt.deadline, nxt.setup.to_dict())
        try:
            # Outside a server (the place says so) `guild_id` is the channel's board.
            serverless = table.place is not None and table.place.guild_id is None
            new_id = await results.finish(
                self.storage, table.game_id, table.guild_id, game, then=then,
                on_retry=self.on_retry, serverless=serverless, **details,
            )  # fmt: skip
        except (GameNotFound, WrongStatus):  # ended in storage meanwhile: nothing to record
            log.warning("game %s is over but no longer live in storage", table.game_id)
            live.drop(table)
            return None
        except Exception:
            live.tables[table.game_id] = table  # still going, until it is recorded
            raise
        table.recorded = True
        live.drop(table)  # frees the channel, unless the next game takes it below
        if nxt is None or new_id is None:  # None: finished before (its next game restored)
            return None
        nxt.game_id = new_id
        live.tables[new_id] = nxt
        live.channels[nxt.channel_id] = new_id  # the hand-over: no await since the claim
        self.timers.arm(nxt)
        return nxt

    def _next_game(self, last: Table) -> Table | None:
        """Counts the game in its match; if the match goes on, its next game (not saved yet):
        same seats and rules, the deal passed one seat on."""
        if last.match is None:
            return None
        old = last.game
        assert last.standing is not None  # set by finish, which asks
        result = GameResult(
            last.game_id,
            tuple(old.result.bundle_sizes) if old.result else (),
            tuple(last.standing.places),
            tuple(sorted(last.forfeited)),
        )
        last.match = last.match.counted(result)
        verdict, winners = after_game(last.match, len(old.seats), old.rules.tiebreak)
        if verdict == "over":
            last.match = last.match.won_by(winners)
            return None
        n = len(old.seats)
        game = new_game(
            old.rules, old.seats, seed=self.seed_source(),
            dealer=next_dealer(old.dealer, n, old.rules.step),
        )  # fmt: skip
        match = last.match.next_game()
        table = Table(
            0, last.guild_id, last.channel_id, last.host_id, game, version=0,
            away=set(last.away), forfeited=set(last.forfeited), match=match,
            setup=last.setup, place=last.place,
        )  # fmt: skip
        table.deadline = self.timers.deadline(table, game, table.away, table.forfeited)
        return table
