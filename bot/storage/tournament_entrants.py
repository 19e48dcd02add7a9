"""A tournament's entrants: signing up, leaving, checking in (storage; see tournament.py).
Each change is made only while the tournament's status allows it, read in the same
transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import delete, select, update

from bot.domain.tournament.records import RUNNING, SIGNUP, Signup

from .schema import tournament_entrants, tournaments
from .sql import upsert_into

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from .connection import Connection

t, e = tournaments.c, tournament_entrants.c


async def _status(db: AsyncConnection, tournament_id: int) -> str | None:
    """The tournament's status, its row locked (shared) until the transaction ends: a
    sign-up change (join, leave, check-in) that saw the sign-up open commits before a start
    or a cancel does, never after it (PostgreSQL; SQLite has one writer at a time)."""
    query = select(t.status).where(t.id == tournament_id).with_for_update(read=True)
    return (await db.execute(query)).scalar()


class Entrants:
    """The entrants' part of storage.tournaments (Tournaments inherits it)."""

    connection: Connection

    async def join(
        self, tournament_id: int, entrant: str, rating: float, *, checked_in: bool = False
    ) -> bool:
        """Sign up (only while the sign-up is open; `checked_in`: in check-in's window,
        joining checks in too). False if they were signed up already or the sign-up is
        over."""
        stmt = upsert_into(tournament_entrants, self.connection.dialect).values(
            tournament_id=tournament_id, entrant=entrant, rating=rating,
            joined_at=self.connection.clock(), dropped=0, checked_in=int(checked_in),
        )  # fmt: skip
        stmt = stmt.on_conflict_do_nothing(index_elements=[e.tournament_id, e.entrant])
        async with self.connection.transaction() as db:
            status = await _status(db, tournament_id)
            if status != SIGNUP:
                return False
            return bool((await db.execute(stmt)).rowcount)

    async def join_many(self, tournament_id: int, entrants: Sequence[tuple[str, float]]) -> int:
        """Sign up several (AI entrants) at once; how many were new."""
        now = self.connection.clock()
        added = 0
        async with self.connection.transaction() as db:
            status = await _status(db, tournament_id)
            if status != SIGNUP:
                return 0
            for entrant, rating in entrants:
                stmt = upsert_into(tournament_entrants, self.connection.dialect).values(
                    tournament_id=tournament_id, entrant=entrant, rating=rating,
                    joined_at=now, dropped=0,
                )  # fmt: skip
                stmt = stmt.on_conflict_do_nothing(index_elements=[e.tournament_id, e.entrant])
                added += int((await db.execute(stmt)).rowcount)
        return added

    async def leave(self, tournament_id: int, entrant: str) -> bool:
        """Leave: during the sign-up the entrant's row goes; once running they are dropped
        from later rounds (their row and results stay). False if they were not in it."""
        async with self.connection.transaction() as db:
            status = await _status(db, tournament_id)
            mine = (e.tournament_id == tournament_id) & (e.entrant == entrant)
            if status == SIGNUP:
                return bool((await db.execute(delete(tournament_entrants).where(mine))).rowcount)
            if status == RUNNING:
                stmt = update(tournament_entrants).where(mine, e.dropped == 0).values(dropped=1)
                return bool((await db.execute(stmt)).rowcount)
            return False

    async def check_in(self, tournament_id: int, entrant: str) -> bool:
        """Check in (only during the sign-up). False if not signed up, checked in already,
        or the sign-up is over."""
        mine = (e.tournament_id == tournament_id) & (e.entrant == entrant) & (e.checked_in == 0)
        async with self.connection.transaction() as db:
            status = await _status(db, tournament_id)
            if status != SIGNUP:
                return False
            stmt = update(tournament_entrants).where(mine).values(checked_in=1)
            return bool((await db.execute(stmt)).rowcount)

    async def entrants(self, tournament_id: int) -> list[Signup]:
        """In the order they signed up."""
        query = (
            select(e.entrant, e.rating, e.joined_at, e.dropped, e.checked_in)
            .where(e.tournament_id == tournament_id)
            .order_by(e.joined_at, e.entrant)
        )
        return [
            Signup(r.entrant, r.rating, r.joined_at, bool(r.dropped), bool(r.checked_in))
            for r in await self.connection.fetchall(query)
        ]
