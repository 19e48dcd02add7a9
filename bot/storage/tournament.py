"""Tournaments: the event, its entrants and its tables, round by round (revision 15).

It saves; the session (bot/session/tournament/) decides. Every step that moves a
tournament on is keyed, so doing it twice (a restart, two tries) changes nothing the second
time: a round is seated once (`seat_round` moves `round` on only from the one before), a
table's thread and game are set once (`set_thread`, `start_table`), its result recorded
once (`record`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Select, delete, insert, select, update

from bot.domain.tournament.records import (
    CANCELLED,
    FINISHED,
    OPEN,
    RUNNING,
    SIGNUP,
    Format,
    Status,
    Tournament,
)

from .schema import tournament_entrants, tournaments
from .sql import dumps
from .tournament_entrants import Entrants
from .tournament_tables import RoundTables

if TYPE_CHECKING:
    from .connection import Connection

log = logging.getLogger(__name__)

t, e = tournaments.c, tournament_entrants.c


def _tournament(r: Any) -> Tournament:
    """The row; ValueError if its settings cannot be read (Tournaments.set_aside)."""
    settings = json.loads(r.settings)
    if not isinstance(settings, dict):
        raise ValueError("a tournament's settings are a JSON object")
    return Tournament(
        id=r.id, guild_id=r.guild_id, channel_id=r.channel_id, name=r.name, host_id=r.host_id,
        format=cast(Format, r.format), table_size=r.table_size, rounds=r.rounds,
        preset=r.preset, turn_seconds=r.turn_seconds, signup_ends=r.signup_ends,
        starts_at=r.starts_at, check_in=bool(r.check_in), counted=bool(r.counted),
        status=cast(Status, r.status), round=r.round, seed=int(r.seed), settings=settings,
        message_id=r.message_id, created_at=r.created_at,
    )  # fmt: skip


class Tournaments(Entrants, RoundTables):
    """storage.tournaments: the event here, its entrants and tables in the modules it
    inherits."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        name: str,
        host_id: str | int,
        *,
        format: str,
        table_size: int,
        rounds: int,
        preset: str,
        seed: int,
        turn_seconds: int | None = None,
        signup_ends: float | None = None,
        starts_at: float | None = None,
        check_in: bool = False,
        counted: bool = True,
        settings: Mapping[str, Any] | None = None,
    ) -> Tournament:
        now = self.connection.clock()
        values = {
            "guild_id": guild_id, "channel_id": channel_id, "name": name,
            "host_id": str(host_id), "format": format, "table_size": table_size,
            "rounds": rounds, "preset": preset, "turn_seconds": turn_seconds,
            "signup_ends": signup_ends, "starts_at": starts_at, "check_in": int(check_in),
            "counted": int(counted), "status": SIGNUP, "round": 0, "seed": seed,
            "settings": dumps(dict(settings or {})), "created_at": now, "updated_at": now,
        }  # fmt: skip
        async with self.connection.transaction() as db:
            new_id = (
                await db.execute(insert(tournaments).values(**values).returning(t.id))
            ).scalar_one()
            row = (await db.execute(select(tournaments).where(t.id == new_id))).one()
            return _tournament(row)

    async def _read(self, query: Select[Any]) -> list[Tournament]:
        """The rows of `query`. One whose settings cannot be read is set aside first
        (`set_aside`), then read as it is after that: one bad row never stops the others."""
        found, unreadable = [], []
        for r in await self.connection.fetchall(query):
            try:
                found.append(_tournament(r))
            except (TypeError, ValueError):
                unreadable.append((r.id, r.settings))
        if not unreadable:
            return found
        await self.set_aside(unreadable)
        return [_tournament(r) for r in await self.connection.fetchall(query)]

    async def set_aside(self, unreadable: Sequence[tuple[int, str]]) -> None:
        """Tournaments whose settings (id, the text stored) cannot be read: without them
        nothing of the tournament can run (its rules, its tables' options, what was posted),
        so one still open is cancelled (its end is then posted as any cancel's:
        `unannounced_ends`) and one over already stays over, not posted again. Their
        settings become readable, so each is set aside and logged once, by whoever changed
        it (docs/architecture.md)."""
        now = self.connection.clock()
        done = []
        async with self.connection.transaction() as db:
            for tid, text in unreadable:
                key = (t.id == tid) & (t.settings == text)
                status = (await db.execute(select(t.status).where(key))).scalar()
                if status is None:
                    continue  # set aside meanwhile
                if status in OPEN:
                    values = {"settings": dumps({"unreadable": True}), "status": CANCELLED,
                              "updated_at": now}  # fmt: skip
                else:
                    values = {"settings": dumps({"unreadable": True, "announced": {"ended": True}})}
                await db.execute(update(tournaments).where(key).values(**values))
                done.append((tid, CANCELLED if status in OPEN else status))
        for tid, status in done:
            log.error("tournament %s: its stored settings cannot be read; set aside (%s)",
                      tid, status)  # fmt: skip

    async def get(self, tournament_id: int) -> Tournament | None:
        rows = await self._read(select(tournaments).where(t.id == tournament_id))
        return rows[0] if rows else None

    async def by_guild(self, guild_id: int, limit: int = 25) -> list[Tournament]:
        """The server's tournaments, newest first."""
        query = select(tournaments).where(t.guild_id == guild_id).order_by(t.id.desc())
        return await self._read(query.limit(limit))

    async def open(self) -> list[Tournament]:
        """Every tournament still in sign-up or running (what a restart resumes)."""
        return await self._read(select(tournaments).where(t.status.in_(OPEN)).order_by(t.id))

    async def unannounced_ends(self, since: float) -> list[Tournament]:
        """Tournaments that ended (finished or cancelled) since `since` whose end was not
        marked posted (settings' announced "ended"): a restart came between the two."""
        query = (
            select(tournaments)
            .where(
                t.status.in_((FINISHED, CANCELLED)),
                t.updated_at >= since,
                t.settings.not_like('%"ended":true%'),
            )
            .order_by(t.id)
        )
        return await self._read(query)

    async def set_message(self, tournament_id: int, message_id: int | None) -> None:
        async with self.connection.transaction() as db:
            await db.execute(
                update(tournaments).where(t.id == tournament_id).values(message_id=message_id)
            )

    async def update_settings(self, tournament_id: int, **changes: Any) -> None:
        """Merge `changes` into the tournament's settings JSON."""
        async with self.connection.transaction() as db:
            row = (await db.execute(select(t.settings).where(t.id == tournament_id))).one()
            merged = {**json.loads(row.settings), **changes}
            await db.execute(
                update(tournaments)
                .where(t.id == tournament_id)
                .values(settings=dumps(merged), updated_at=self.connection.clock())
            )

    # ----- the tournament's course

    async def start(
        self, tournament_id: int, *, rounds: int | None = None, absent: Sequence[str] = ()
    ) -> bool:
        """The sign-up is over: running (with its number of rounds worked out, if given).
        `absent`: entrants who did not check in, taken out in the same transaction (those of
        them still not checked in) and kept in the settings' "no_check_in" for round 1's
        message. False if it was not in sign-up (started already, or cancelled)."""
        values: dict[str, Any] = {"status": RUNNING, "updated_at": self.connection.clock()}
        if rounds is not None:
            values["rounds"] = rounds
        stmt = update(tournaments).where(t.id == tournament_id, t.status == SIGNUP)
        theirs = (
            (e.tournament_id == tournament_id) & e.entrant.in_(list(absent)) & (e.checked_in == 0)
        )
        async with self.connection.transaction() as db:
            if absent:
                out = [r.entrant for r in await db.execute(select(e.entrant).where(theirs))]
                row = (await db.execute(select(t.settings).where(t.id == tournament_id))).one()
                merged = {**json.loads(row.settings), "no_check_in": sorted(out)}
                values["settings"] = dumps(merged)
            if not (await db.execute(stmt.values(**values))).rowcount:
                return False
            if absent:
                await db.execute(delete(tournament_entrants).where(theirs))
            return True

    async def end(self, tournament_id: int, status: str, **settings: Any) -> bool:
        """Finished or cancelled (with `settings` merged, e.g. the champion). False if it was
        over already."""
        assert status in (FINISHED, CANCELLED)
        async with self.connection.transaction() as db:
            row = (
                await db.execute(select(t.settings, t.status).where(t.id == tournament_id))
            ).first()
            if row is None or row.status not in OPEN:
                return False
            merged = dumps({**json.loads(row.settings), **settings})
            await db.execute(
                update(tournaments)
                .where(t.id == tournament_id)
                .values(status=status, settings=merged, updated_at=self.connection.clock())
            )
            return True
