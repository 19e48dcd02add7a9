"""A tournament's tables, round by round (storage; see tournament.py): a round seated once,
a table's thread and game set once, its result recorded once."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import insert, select, update

from bot.domain.tournament.records import (
    BYE,
    DONE,
    PLAYING,
    RUNNING,
    SEATED,
    RoundTable,
    TableStatus,
)

from .schema import tournament_tables, tournaments
from .sql import ACTIVE, dumps, encode, insert_game

if TYPE_CHECKING:
    from .connection import Connection

t, tt = tournaments.c, tournament_tables.c


def _table(r: Any) -> RoundTable:
    return RoundTable(
        r.tournament_id, r.round, r.table_no, tuple(json.loads(r.entrants)), r.thread_id,
        r.game_id, cast(TableStatus, r.status),
        None if r.result is None else json.loads(r.result),
    )  # fmt: skip


class RoundTables:
    """The tables' part of storage.tournaments (Tournaments inherits it)."""

    connection: Connection

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

    async def tables(self, tournament_id: int, round: int | None = None) -> list[RoundTable]:
        """The tournament's tables (of one round), by round and number; byes are table 0."""
        query = select(tournament_tables).where(tt.tournament_id == tournament_id)
        if round is not None:
            query = query.where(tt.round == round)
        query = query.order_by(tt.round, tt.table_no)
        return [_table(r) for r in await self.connection.fetchall(query)]

    async def table_of_game(self, game_id: int) -> RoundTable | None:
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
