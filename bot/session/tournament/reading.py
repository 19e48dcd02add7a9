"""Reading tournaments: one, the server's, the standings, a round's tables."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from datetime import UTC, datetime

from bot.domain import tournament as tour
from bot.domain.tournament import BYE, DONE, RUNNING, SIGNUP, RoundTable, Tournament

from .core import Core, check_in_opens
from .refusals import Refusal, Refused


class Reading(Core):
    async def info(self, tournament_id: int, guild_id: int | None = None) -> tour.TournamentInfo:
        row = await self.get(tournament_id, guild_id)
        entrants = await self.storage.tournaments.entrants(tournament_id)
        if row.status == SIGNUP:  # a dropped entry then is a forgotten person's: nobody
            entrants = [e for e in entrants if not e.dropped]
        info = tour.TournamentInfo.of(row, [tour.Entrant(e.entrant, e.rating) for e in entrants])
        if not row.check_in:
            return info
        checked = sum(e.checked_in or tour.is_ai_entrant(e.entrant) for e in entrants)
        opens = None if self.check_in_open(row) else when(check_in_opens(row))
        return replace(info, checked=checked, check_in_opens=opens)

    async def current(self, guild_id: int, channels: Collection[int] = ()) -> Tournament:
        """The tournament still in sign-up or running in one of `channels`, else the
        server's newest such."""
        rows = [
            r for r in await self.storage.tournaments.by_guild(guild_id)
            if r.status in (SIGNUP, RUNNING)
        ]  # fmt: skip
        for row in rows:
            if row.channel_id in channels:
                return row
        if rows:
            return rows[0]
        raise Refused(Refusal.NOT_FOUND)

    async def of_guild(self, guild_id: int, limit: int = 25) -> list[tour.TournamentInfo]:
        rows = await self.storage.tournaments.by_guild(guild_id, limit)
        out = []
        for row in rows:
            entrants = await self.storage.tournaments.entrants(row.id)
            out.append(
                tour.TournamentInfo.of(row, [tour.Entrant(e.entrant, e.rating) for e in entrants])
            )
        return out

    async def standings(self, tournament_id: int) -> list[tour.Row]:
        entrants, rounds, byes, dropped = await self._course(tournament_id)
        return tour.standings(entrants, rounds, byes, dropped)

    async def tables(self, tournament_id: int, round: int) -> list[RoundTable]:
        return await self.storage.tournaments.tables(tournament_id, round)

    async def plan(self, tournament_id: int, round: int) -> tuple[tour.RoundPlan, list[int | None]]:
        """A seated round as the ui shows it, and each table's thread."""
        rows = await self.storage.tournaments.tables(tournament_id, round)
        tables = [r for r in rows if r.status != BYE]
        byes = next((r.entrants for r in rows if r.status == BYE), ())
        dropped = {e.entrant for e in await self.storage.tournaments.entrants(tournament_id)
                   if e.dropped}  # fmt: skip
        before = {e for r in await self.storage.tournaments.tables(tournament_id, round - 1)
                  for e in r.entrants}  # fmt: skip
        row = await self.storage.tournaments.get(tournament_id)
        absent = tuple(row.settings.get("no_check_in", ())) if row and round == 1 else ()
        plan = tour.RoundPlan(
            round, tuple(r.entrants for r in tables), tuple(byes),
            left=tuple(sorted(dropped & before)), absent=absent,
        )  # fmt: skip
        return plan, [r.thread_id for r in tables]

    async def _course(
        self, tournament_id: int
    ) -> tuple[list[tour.Entrant], list[list[tour.TableResult]], list[list[str]], set[str]]:
        """What the domain's functions take: the entrants, each finished round's results and
        byes, and who dropped out."""
        rows = await self.storage.tournaments.entrants(tournament_id)
        entrants = [tour.Entrant(e.entrant, e.rating) for e in rows]
        dropped = {e.entrant for e in rows if e.dropped}
        tables = await self.storage.tournaments.tables(tournament_id)
        numbers = sorted({t.round for t in tables})
        rounds: list[list[tour.TableResult]] = []
        byes: list[list[str]] = []
        for n in numbers:
            these = [t for t in tables if t.round == n]
            played = [t for t in these if t.status != BYE]
            if any(t.status != DONE for t in played):
                break  # the round under way: not in the standings yet
            rounds.append([result_of(t) for t in played])
            byes.append([e for t in these if t.status == BYE for e in t.entrants])
        return entrants, rounds, byes, dropped


def result_of(table: RoundTable) -> tour.TableResult:
    result = table.result or {}
    n = len(table.entrants)
    places = tuple(int(p) for p in result.get("places", [0] * n))
    cards = tuple(int(c) for c in result.get("cards", [0] * n))
    return tour.TableResult(table.entrants, places, cards)


def when(unix: float | None) -> datetime | None:
    return None if unix is None else datetime.fromtimestamp(unix, UTC)
