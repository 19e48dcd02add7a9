"""The rounds: stepping a running tournament on, its tables' games and their results."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Collection, Sequence
from dataclasses import replace

from bot.domain import tournament as tour
from bot.domain.seats import new_ai
from bot.domain.table_setup import TableSetup
from bot.domain.tournament import BYE, FINISHED, PLAYING, RUNNING, SEATED, RoundTable, Tournament
from bot.engine import PRESETS, Rules, new_game
from bot.storage import ChannelTaken

from .. import events as ev
from .. import retry
from ..errors import SaveFailed
from ..models import Table, state_of
from .core import MIN_ENTRANTS, Core, ThreadRefused
from .refusals import Refusal, Refused

log = logging.getLogger(__name__)

# Tries of a round whose threads the channel refuses before the tournament waits for a
# manager (only they can give the permission back); a few, so a blip does not pause it.
THREAD_TRIES = 3


def seats_of(entrants: Sequence[str]) -> list[str]:
    """A table's seats: a member as themself, an AI entrant ("bot:<level>:<n>") as an
    ordinary AI seat of its level."""
    seats: list[str] = []
    for entrant in entrants:
        if tour.is_ai_entrant(entrant):
            seats.append(new_ai(entrant.split(":")[1], seats))
        else:
            seats.append(entrant)
    return seats


def leavers_last(places: Sequence[int], out: Collection[int]) -> list[int]:
    """A table's places from its game's (0 = first; ties share): the seats in `out` (who
    forfeited, left or were removed during the game) share the last place, the others keep
    the order the game gave them (docs/tournaments.md, Points)."""
    kept = sorted({p for seat, p in enumerate(places) if seat not in out})
    rank = {p: n for n, p in enumerate(kept)}
    return [len(kept) if seat in out else rank[p] for seat, p in enumerate(places)]


class Rounds(Core):
    def kick(self, tournament_id: int) -> None:
        """Step the tournament in the background (again after the running step, if one is)."""
        job = self.jobs.get(tournament_id)
        if job is not None and not job.done():
            self.again.add(tournament_id)
            return
        job = asyncio.create_task(self._stepping(tournament_id))
        self.jobs[tournament_id] = job

    async def _stepping(self, tournament_id: int) -> None:
        while True:
            self.again.discard(tournament_id)
            await retry.until_done(
                lambda: self._step_or_pause(tournament_id), what="the tournament's round",
                game_id=tournament_id, first=self.retry_seconds,
            )  # fmt: skip
            if tournament_id not in self.again:
                break
        if self.jobs.get(tournament_id) is asyncio.current_task():
            del self.jobs[tournament_id]

    async def _step_or_pause(self, tournament_id: int) -> None:
        """`step`; a round whose threads are refused THREAD_TRIES times in a row pauses the
        tournament (stored: a restart keeps it paused) and the managers are told what to fix
        (RoundBlocked); `resume_round` goes on."""
        try:
            await self.step(tournament_id)
        except ThreadRefused as refused:
            tries = self.refused.get(tournament_id, 0) + 1
            self.refused[tournament_id] = tries
            if tries < THREAD_TRIES:
                raise
            del self.refused[tournament_id]
            await self._pause(tournament_id, refused.reason)
        else:
            self.refused.pop(tournament_id, None)

    async def _pause(self, tournament_id: int, reason: str) -> None:
        row = await self.storage.tournaments.get(tournament_id)
        if row is None:
            return
        serial = int(row.settings.get("blocks", 0)) + 1
        paused = {"round": row.round, "reason": reason}
        await self.storage.tournaments.update_settings(tournament_id, paused=paused, blocks=serial)
        log.warning("tournament %s: round %s paused, its channel refuses threads (%s)",
                    tournament_id, row.round, reason)  # fmt: skip
        await self._announce(
            ev.RoundBlocked(row.id, row.guild_id, row.channel_id, row.round, reason, serial)
        )

    async def resume_round(self, tournament_id: int, guild_id: int) -> Tournament:
        """A manager fixed the channel: the paused round is tried again (in the background;
        refused again, it pauses again and says so)."""
        row = await self.get(tournament_id, guild_id)
        if row.status != RUNNING:
            raise Refused(Refusal.OVER)
        if row.settings.get("paused"):
            try:
                await self.storage.tournaments.update_settings(tournament_id, paused=None)
            except Exception as exc:
                raise SaveFailed("tourop.error.save") from exc
        self.kick(tournament_id)
        return row

    async def settle(self) -> None:
        """Wait until no step is running or asked for (tests, the bench)."""
        while True:
            running = [j for j in self.jobs.values() if not j.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    async def step(self, tournament_id: int) -> None:
        """Move a running tournament on as far as it goes now (see the module's docstring).
        Idempotent; raises if storage or Discord fails (the caller tries again)."""
        async with self.lock_of(tournament_id):
            while True:
                row = await self.storage.tournaments.get(tournament_id)
                if row is None or row.status != RUNNING or not self.owns(row.guild_id):
                    return
                if row.settings.get("paused"):  # waits for a manager (resume_round)
                    return
                tables = [
                    t
                    for t in await self.storage.tournaments.tables(tournament_id, row.round)
                    if t.status != BYE
                ]
                opened = False
                for table in tables:
                    if table.status == SEATED:
                        await self._open(row, table)
                        opened = True
                    elif table.status == PLAYING:
                        await self._settle_table(row, table)
                if opened:
                    await self._announce(
                        ev.RoundStarted(row.id, row.guild_id, row.channel_id, row.round)
                    )
                tables = await self.storage.tournaments.tables(tournament_id, row.round)
                if any(t.status in (SEATED, PLAYING) for t in tables):
                    return  # the round is under way: its games' ends step it again
                if not await self._next_round(row):
                    return

    async def _next_round(self, row: Tournament) -> bool:
        """The round is over: standings said, then the next round seated (True: go on and
        open it) or the champion named (False)."""
        entrants, rounds, byes, dropped = await self._course(row.id)
        if row.round > 0:
            await self._announce(ev.RoundOver(row.id, row.guild_id, row.channel_id, row.round))
        fmt = row.format
        live = [e for e in entrants if e.id not in dropped]
        over = len(live) < MIN_ENTRANTS or tour.is_over(
            fmt, row.rounds, entrants, rounds, byes, dropped
        )
        plan = None
        if not over:
            seed = random.Random(f"{row.seed}/{row.round + 1}").getrandbits(63)
            if fmt == "knockout":
                plan = tour.seat_knockout(entrants, rounds, byes, dropped, row.table_size, seed)
            else:
                plan = tour.seat_swiss(entrants, rounds, byes, dropped, row.table_size, seed)
            over = plan is None or not plan.tables
        if over or plan is None:
            champion = tour.champion(fmt, entrants, rounds, byes, dropped)
            if champion is None and live and len(live) == 1:
                champion = live[0].id
            if await self.storage.tournaments.end(row.id, FINISHED, champion=champion):
                await self._announce(
                    ev.TournamentOver(row.id, row.guild_id, row.channel_id, champion)
                )
            return False
        await self.storage.tournaments.seat_round(row.id, row.round + 1, plan.tables, plan.byes)
        return True  # seated now, or by a step before a restart: open it either way

    async def _open(self, row: Tournament, table: RoundTable) -> None:
        """A seated table's thread (made once) and its game, started there."""
        thread_id = table.thread_id
        if thread_id is None:
            if self.threads is None:
                raise RuntimeError("no thread maker: the composition root sets one")
            made = await self.threads(row, table.round, table.table_no, table.entrants)
            thread_id = await self.storage.tournaments.set_thread(
                row.id, table.round, table.table_no, made
            )
        rules = Rules.from_dict(row.settings["rules"]) if row.settings.get("rules") else None
        if rules is None:
            rules = PRESETS.get(row.preset) or PRESETS["standard"]
        seats = seats_of(table.entrants)
        seed = random.Random(f"{row.seed}/{table.round}/{table.table_no}").getrandbits(63)
        game = new_game(rules, seats, seed=seed, dealer=seed % len(seats))
        setup = replace(
            TableSetup.from_dict(row.settings.get("options", {})),
            turn_seconds=row.turn_seconds, counted=row.counted, tournament=row.id,
            tournament_round=table.round, tournament_table=table.table_no,
        )  # fmt: skip
        live = Table(
            0, row.guild_id, thread_id, row.host_id, game, version=0, setup=setup,
        )  # fmt: skip
        live.deadline = self.timers.deadline(live, game, live.away, live.forfeited)
        async with self.live.lock:
            try:
                game_id, made_now = await self.storage.tournaments.start_table(
                    row.id, table.round, table.table_no, guild_id=row.guild_id,
                    channel_id=thread_id, host_id=row.host_id, rules=rules.to_dict(),
                    state=state_of(live, game), deadline=live.deadline, options=setup.to_dict(),
                )  # fmt: skip
            except ChannelTaken as exc:  # its thread plays another game (never ours)
                log.error("tournament %s: thread %s is taken by game %s", row.id, thread_id,
                          exc.game_id)  # fmt: skip
                raise
            if not made_now:  # a step before a restart started it: restore has it
                return
            live.game_id = game_id
            self.live.tables[game_id] = live
            self.live.channels[thread_id] = game_id
            self.timers.arm(live)
        await self.notify(ev.Started(live))

    async def _settle_table(self, row: Tournament, table: RoundTable) -> None:
        """A table whose game may have ended while nobody listened (a restart): its result
        read from the game's stored end; a game ended with no result (cancelled, set aside)
        is a draw at 0 cards."""
        if table.game_id is None or table.game_id in self.live.tables:
            return
        game = await self.storage.games.get(table.game_id)
        if game is None or game.status in ("lobby", "active"):
            return  # under way (being recorded, or another process's)
        out: set[int] = set()
        if game.status == "finished":
            entry = await self.storage.history.get(table.game_id)
            if entry is None:
                return
            result = entry.record.get("result") or {}
            cards = list(result.get("bundle_sizes") or [0] * len(table.entrants))
            places = list(entry.places)
            out = {i for i, seat in enumerate(entry.seats) if seat in entry.forfeited}
        else:
            places, cards = [0] * len(table.entrants), [0] * len(table.entrants)
        out |= await self._left(row.id, table.entrants)
        result = {"places": leavers_last(places, out), "cards": cards}
        await self.storage.tournaments.record(row.id, table.round, table.table_no, result)

    async def _left(self, tournament_id: int, seats: Sequence[str]) -> set[int]:
        """The seats of a table whose entrants left the tournament (or were removed): they
        were seated, so they left during its game."""
        dropped = {e.entrant for e in await self.storage.tournaments.entrants(tournament_id)
                   if e.dropped}  # fmt: skip
        return {i for i, seat in enumerate(seats) if seat in dropped}

    async def game_over(self, table: Table) -> None:
        """A tournament table's game ended (GameOver): its result recorded, then the
        tournament stepped on. If storage fails, `step` finds the result in the game's own
        record later."""
        tid = table.setup.tournament
        if tid is None:
            return
        rnd, no = table.setup.tournament_round, table.setup.tournament_table
        if table.standing is not None and isinstance(rnd, int) and isinstance(no, int):
            game = table.game
            n = len(game.seats)
            cards = list(game.result.bundle_sizes) if game.result else [0] * n
            try:
                out = table.forfeited | await self._left(tid, game.seats)
                result = {"places": leavers_last(table.standing.places, out), "cards": cards}
                await self.storage.tournaments.record(tid, rnd, no, result)
            except Exception:
                log.warning("tournament %s: could not record table %s/%s yet", tid, rnd, no,
                            exc_info=True)  # fmt: skip
        self.kick(tid)

    async def game_closed(self, game_id: int) -> None:
        """A game ended with no result: if a tournament table's, it steps the tournament
        (the table counts as a draw)."""
        try:
            found = await self.storage.tournaments.table_of_game(game_id)
        except Exception:
            return
        if found is not None:
            self.kick(found.tournament_id)
