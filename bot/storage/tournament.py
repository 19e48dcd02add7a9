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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import Select, delete, insert, select, update

from .schema import tournament_entrants, tournament_tables, tournaments
from .sql import ACTIVE, dumps, encode, insert_game, upsert_into

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from .connection import Connection

log = logging.getLogger(__name__)

t, e, tt = tournaments.c, tournament_entrants.c, tournament_tables.c

SIGNUP, RUNNING, FINISHED, CANCELLED = "signup", "running", "finished", "cancelled"
OPEN = (SIGNUP, RUNNING)
# A table's status: the round's byes (table 0), seated (no game yet), playing, done.
BYE, SEATED, PLAYING, DONE = "bye", "seated", "playing", "done"


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    name: str
    host_id: str
    format: str
    table_size: int
    rounds: int
    preset: str
    turn_seconds: int | None
    signup_ends: float | None
    starts_at: float | None
    check_in: bool
    counted: bool
    status: str
    round: int
    seed: int
    settings: dict[str, Any] = field(default_factory=dict)
    message_id: int | None = None
    created_at: float = 0.0


@dataclass(frozen=True)
class EntrantRow:
    entrant: str
    rating: float
    joined_at: float
    dropped: bool
    checked_in: bool = False


@dataclass(frozen=True)
class TableRow:
    tournament_id: int
    round: int
    table_no: int
    entrants: tuple[str, ...]
    thread_id: int | None
    game_id: int | None
    status: str
    result: dict[str, Any] | None


def _tournament(r: Any) -> TournamentRow:
    """The row; ValueError if its settings cannot be read (Tournaments.set_aside)."""
    settings = json.loads(r.settings)
    if not isinstance(settings, dict):
        raise ValueError("a tournament's settings are a JSON object")
    return TournamentRow(
        id=r.id, guild_id=r.guild_id, channel_id=r.channel_id, name=r.name, host_id=r.host_id,
        format=r.format, table_size=r.table_size, rounds=r.rounds, preset=r.preset,
        turn_seconds=r.turn_seconds, signup_ends=r.signup_ends, starts_at=r.starts_at,
        check_in=bool(r.check_in), counted=bool(r.counted), status=r.status, round=r.round,
        seed=int(r.seed), settings=settings, message_id=r.message_id,
        created_at=r.created_at,
    )  # fmt: skip


def _table(r: Any) -> TableRow:
    return TableRow(
        r.tournament_id, r.round, r.table_no, tuple(json.loads(r.entrants)), r.thread_id,
        r.game_id, r.status, None if r.result is None else json.loads(r.result),
    )  # fmt: skip


async def _status(db: AsyncConnection, tournament_id: int) -> str | None:
    """The tournament's status, its row locked (shared) until the transaction ends: a
    sign-up change (join, leave, check-in) that saw the sign-up open commits before a start
    or a cancel does, never after it (PostgreSQL; SQLite has one writer at a time)."""
    query = select(t.status).where(t.id == tournament_id).with_for_update(read=True)
    return (await db.execute(query)).scalar()


class Tournaments:
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
    ) -> TournamentRow:
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

    async def _read(self, query: Select[Any]) -> list[TournamentRow]:
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

    async def get(self, tournament_id: int) -> TournamentRow | None:
        rows = await self._read(select(tournaments).where(t.id == tournament_id))
        return rows[0] if rows else None

    async def by_guild(self, guild_id: int, limit: int = 25) -> list[TournamentRow]:
        """The server's tournaments, newest first."""
        query = select(tournaments).where(t.guild_id == guild_id).order_by(t.id.desc())
        return await self._read(query.limit(limit))

    async def open(self) -> list[TournamentRow]:
        """Every tournament still in sign-up or running (what a restart resumes)."""
        return await self._read(select(tournaments).where(t.status.in_(OPEN)).order_by(t.id))

    async def unannounced_ends(self, since: float) -> list[TournamentRow]:
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

    # ----- entrants

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

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """In the order they signed up."""
        query = (
            select(e.entrant, e.rating, e.joined_at, e.dropped, e.checked_in)
            .where(e.tournament_id == tournament_id)
            .order_by(e.joined_at, e.entrant)
        )
        return [
            EntrantRow(r.entrant, r.rating, r.joined_at, bool(r.dropped), bool(r.checked_in))
            for r in await self.connection.fetchall(query)
        ]

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

    async def seat_round(
        self,
        tournament_id: int,
        number: int,
        tables: Sequence[Sequence[str]],
        byes: Sequence[str] = (),
    ) -> bool:
        """Round `number` seated, in one transaction: the tournament's round moves on from
        the one before and its tables (and byes, table 0) are written. False, writing
        nothing, if that round was seated already (or the tournament is not running)."""
        async with self.connection.transaction() as db:
            moved = await db.execute(
                update(tournaments)
                .where(t.id == tournament_id, t.status == RUNNING, t.round == number - 1)
                .values(round=number, updated_at=self.connection.clock())
            )
            if not moved.rowcount:
                return False
            rows = [
                {"tournament_id": tournament_id, "round": number, "table_no": no,
                 "entrants": dumps(list(seats)), "status": SEATED}
                for no, seats in enumerate(tables, start=1)
            ]  # fmt: skip
            if byes:
                rows.append(
                    {"tournament_id": tournament_id, "round": number, "table_no": 0,
                     "entrants": dumps(list(byes)), "status": BYE}
                )  # fmt: skip
            if rows:
                await db.execute(insert(tournament_tables), rows)
            return True

    async def tables(self, tournament_id: int, round: int | None = None) -> list[TableRow]:
        """The tournament's tables (of one round), by round and number; byes are table 0."""
        query = select(tournament_tables).where(tt.tournament_id == tournament_id)
        if round is not None:
            query = query.where(tt.round == round)
        query = query.order_by(tt.round, tt.table_no)
        return [_table(r) for r in await self.connection.fetchall(query)]

    async def table_of_game(self, game_id: int) -> TableRow | None:
        row = await self.connection.fetchone(select(tournament_tables).where(tt.game_id == game_id))
        return None if row is None else _table(row)

    async def set_thread(
        self, tournament_id: int, round: int, table_no: int, thread_id: int
    ) -> int:
        """The table's thread, unless it has one already: the thread it has now."""
        key = (tt.tournament_id == tournament_id) & (tt.round == round) & (tt.table_no == table_no)
        async with self.connection.transaction() as db:
            await db.execute(
                update(tournament_tables)
                .where(key, tt.thread_id.is_(None))
                .values(thread_id=thread_id)
            )
            return int((await db.execute(select(tt.thread_id).where(key))).scalar_one())

    async def start_table(
        self,
        tournament_id: int,
        round: int,
        table_no: int,
        *,
        guild_id: int,
        channel_id: int,
        host_id: str,
        rules: Mapping[str, Any],
        state: Mapping[str, Any],
        deadline: float | None,
        options: Mapping[str, Any],
    ) -> tuple[int, bool]:
        """The table's game, written with the table in one transaction: (its id, True) when
        it is new; (the id it has, False) when the table had its game already. Raises
        ChannelTaken if its thread has another live game."""
        key = (tt.tournament_id == tournament_id) & (tt.round == round) & (tt.table_no == table_no)
        async with self.connection.transaction() as db:
            row = (await db.execute(select(tt.game_id, tt.status).where(key))).one()
            if row.game_id is not None:
                return int(row.game_id), False
            values = {
                "guild_id": guild_id, "channel_id": channel_id, "host_id": str(host_id),
                "status": ACTIVE, "seats": dumps(list(state["seats"])), "rules": dumps(dict(rules)),
                "state": dumps(dict(state)), "lobby_message_id": None, "deadline": deadline,
                "max_players": len(state["seats"]), "match": None,
                "options": encode("options", options),
            }  # fmt: skip
            game_id = await insert_game(db, values, self.connection.clock())
            await db.execute(
                update(tournament_tables).where(key).values(game_id=game_id, status=PLAYING)
            )
            return game_id, True

    async def record(
        self, tournament_id: int, round: int, table_no: int, result: Mapping[str, Any]
    ) -> bool:
        """A table's result (its places and cards), once: False if it had one already."""
        key = (tt.tournament_id == tournament_id) & (tt.round == round) & (tt.table_no == table_no)
        async with self.connection.transaction() as db:
            stmt = (
                update(tournament_tables)
                .where(key, tt.status.in_((SEATED, PLAYING)))
                .values(status=DONE, result=dumps(dict(result)))
            )
            return bool((await db.execute(stmt)).rowcount)
