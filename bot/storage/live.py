"""Lobbies and live games: their rows, written and read, and their moves read back."""

from __future__ import annotations

import json
import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import RowMapping, select, update

from .errors import StaleVersion
from .schema import games, moves
from .sql import (
    ACTIVE,
    BROKEN,
    BY_ID,
    KEEP,
    LIVE,
    LOBBY,
    Keep,
    dumps,
    encode,
    insert_game,
    require,
)

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from .connection import Connection

log = logging.getLogger(__name__)

CHUNK = 500  # ids per IN (...) list, well inside every backend's limit on parameters
MAX_PLAYERS = 4  # a lobby's seat limit when none is given: the column's default (migration 3)

# Columns `update` may change, by keyword.
UPDATABLE = (
    "host_id",
    "seats",
    "rules",
    "lobby_message_id",
    "table_message_id",
    "ping_message_id",
    "deadline",
    "state",
    "max_players",
    "match",
    "options",
)


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None  # None: no server (a group DM)
    channel_id: int
    host_id: str
    status: str
    seats: tuple[str, ...]
    rules: dict[str, Any]
    state: dict[str, Any] | None  # the engine's to_dict(); None while a lobby
    version: int  # moves saved so far
    lobby_message_id: int | None
    table_message_id: int | None
    ping_message_id: int | None
    deadline: float | None
    max_players: int  # a lobby's seat limit
    match: dict[str, Any] | None  # a lobby's match settings: {"games": n, "scoring": ...}
    options: dict[str, Any]  # from the server's settings at the lobby's opening; {} if none
    created_at: float
    updated_at: float
    place: dict[str, Any] | None = None  # bot.domain.place; None: a server channel, bot in it


class LiveHead(NamedTuple):
    """What start-up reads of a live game: enough to route its clicks and arm its timer. Its
    state and moves are read on its first use (`rows`, `moves_of`). A tuple: a thousand are
    made at every start-up."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: str
    status: str
    seats: tuple[str, ...]
    version: int
    deadline: float | None
    options: dict[str, Any]
    place: dict[str, Any] | None


# The columns of a LiveHead, in its order: the state (the big one) is not among them.
HEADS = select(
    games.c.id, games.c.guild_id, games.c.channel_id, games.c.host_id, games.c.status,
    games.c.seats, games.c.version, games.c.deadline, games.c.options, games.c.place,
).where(games.c.status.in_(LIVE)).order_by(games.c.id)  # fmt: skip


def to_row(r: RowMapping) -> GameRow:
    return GameRow(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        host_id=r["host_id"],
        status=r["status"],
        seats=tuple(json.loads(r["seats"])),
        rules=json.loads(r["rules"]),
        state=json.loads(r["state"]) if r["state"] is not None else None,
        version=r["version"],
        lobby_message_id=r["lobby_message_id"],
        table_message_id=r["table_message_id"],
        ping_message_id=r["ping_message_id"],
        deadline=r["deadline"],
        max_players=r["max_players"],
        match=json.loads(r["match"]) if r["match"] is not None else None,
        options=json.loads(r["options"]) if r["options"] is not None else {},
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        place=json.loads(r["place"]) if r["place"] is not None else None,
    )


async def written(db: AsyncConnection, game_id: int) -> GameRow:
    """The row a caller wrote or checked in this transaction."""
    row = (await db.execute(BY_ID, {"game_id": game_id})).mappings().first()
    assert row is not None
    return to_row(row)


class LiveGames:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def create(
        self,
        guild_id: int | None,
        channel_id: int,
        host_id: str,
        rules: Mapping[str, Any],
        seats: Sequence[str] = (),
        *,
        state: Mapping[str, Any] | None = None,
        lobby_message_id: int | None = None,
        deadline: float | None = None,
        max_players: int = MAX_PLAYERS,
        match: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
        place: Mapping[str, Any] | None = None,
    ) -> GameRow:
        """A new lobby; or, given an engine state, a game already under way (status active),
        seated as the state says. Everything is written in one transaction, so a lobby is
        never saved without its deadline, seat limit, match settings and options.

        Raises ChannelTaken, saving nothing, if the channel has a lobby or game under way.
        """
        status = LOBBY if state is None else ACTIVE
        if state is not None:
            if seats and list(seats) != list(state["seats"]):
                raise ValueError(f"seats {list(seats)} differ from the state's {state['seats']}")
            seats = state["seats"]
        values = {
            "guild_id": guild_id, "channel_id": channel_id, "host_id": str(host_id),
            "status": status, "seats": dumps(list(seats)), "rules": dumps(dict(rules)),
            "state": None if state is None else dumps(state),
            "lobby_message_id": lobby_message_id, "deadline": deadline,
            "max_players": max_players, "match": encode("match", match),
            "options": encode("options", options), "place": encode("place", place),
        }  # fmt: skip
        async with self.connection.transaction() as db:
            new_id = await insert_game(db, values, self.connection.clock())
            return await written(db, new_id)

    async def get(self, game_id: int) -> GameRow | None:
        row = await self.connection.fetchone(BY_ID, {"game_id": game_id})
        return to_row(row._mapping) if row else None

    async def live(self) -> list[GameRow]:
        """Every lobby and active game, oldest first: what to restore at start-up.

        An active game whose state is over was stopped between its last move and `finish`:
        call `finish` for it.
        """
        rows = await self.connection.fetchall(
            select(games).where(games.c.status.in_(LIVE)).order_by(games.c.id)
        )
        return [to_row(r._mapping) for r in rows]

    async def heads(self) -> list[LiveHead]:
        """Every lobby and active game, oldest first, without its state: what start-up reads.
        A row that cannot be read is set aside (`set_aside`), never returned: one bad row
        must not stop the bot from starting."""
        loads = json.loads
        # Most games share their options' text (their server's settings): parsed once, and
        # the same dict given to each (the caller copies it before changing it).
        options: dict[str | None, dict[str, Any]] = {None: {}}
        heads, unreadable = [], []
        rows: list[Any] = await self.connection.fetchall(HEADS)  # tuples of its columns
        for game_id, guild, channel, host, status, seats, version, deadline, text, at in rows:
            try:
                if text not in options:
                    options[text] = loads(text)
                seated = tuple(loads(seats))
                place = None if at is None else loads(at)
            except (TypeError, ValueError):
                unreadable.append(game_id)
                continue
            head = (game_id, guild, channel, host, status, seated, version, deadline,
                    options[text], place)  # fmt: skip
            heads.append(LiveHead._make(head))
        await self.set_aside(unreadable)
        return heads

    async def rows(self, game_ids: Collection[int]) -> list[GameRow]:
        """Many games' rows at once, by id (those of `game_ids` that exist). A live row that
        cannot be read is set aside and left out."""
        found: list[GameRow] = []
        unreadable: list[int] = []
        ids = sorted(game_ids)
        for start in range(0, len(ids), CHUNK):
            rows = await self.connection.fetchall(
                select(games).where(games.c.id.in_(ids[start : start + CHUNK])).order_by(games.c.id)
            )
            for r in rows:
                try:
                    found.append(to_row(r._mapping))
                except (TypeError, ValueError):
                    unreadable.append(r.id)
        await self.set_aside(unreadable)
        return found

    async def set_aside(self, game_ids: Collection[int]) -> list[int]:
        """Lobbies and games whose rows cannot be read: status broken, so their channels are
        free and they are never restored; an admin ends them (`broken`, Finishing.cancel).
        Logged once each (a broken row is not read again). The ids set aside now."""
        if not game_ids:
            return []
        async with self.connection.transaction() as db:
            found = await db.execute(
                update(games)
                .where(games.c.id.in_(sorted(game_ids)), games.c.status.in_(LIVE))
                .values(status=BROKEN, deadline=None, updated_at=self.connection.clock())
                .returning(games.c.id)
            )
            ids = sorted(found.scalars())
        for game_id in ids:
            log.error("game %s: its stored row cannot be read; set aside as broken", game_id)
        return ids

    async def broken(self, guild_id: int) -> list[tuple[int, int]]:
        """The guild's set-aside games, oldest first: (game id, channel id)."""
        rows = await self.connection.fetchall(
            select(games.c.id, games.c.channel_id)
            .where(games.c.guild_id == guild_id, games.c.status == BROKEN)
            .order_by(games.c.id)
        )
        return [(r.id, r.channel_id) for r in rows]

    async def moves(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self.connection.fetchall(
            select(moves.c.move).where(moves.c.game_id == game_id).order_by(moves.c.n)
        )
        return [json.loads(r.move) for r in rows]

    async def moves_of(self, game_ids: Collection[int]) -> dict[int, list[dict[str, Any]]]:
        """The moves of many games at once (restoring them all): game id -> its moves."""
        found: dict[int, list[dict[str, Any]]] = {}
        bad: set[int] = set()
        ids = sorted(game_ids)
        for start in range(0, len(ids), CHUNK):
            rows = await self.connection.fetchall(
                select(moves.c.game_id, moves.c.move)
                .where(moves.c.game_id.in_(ids[start : start + CHUNK]))
                .order_by(moves.c.game_id, moves.c.n)
            )
            for r in rows:
                if r.game_id in bad:
                    continue
                try:
                    found.setdefault(r.game_id, []).append(json.loads(r.move))
                except ValueError:  # the game reads as having fewer moves: its reader refuses it
                    bad.add(r.game_id)
                    found.pop(r.game_id, None)
        return found

    async def update(self, game_id: int, *, version: int | None = None, **changes: Any) -> GameRow:
        """Change lobby details, message ids or the deadline of a live game.

        Keywords: host_id, seats, rules, lobby_message_id, table_message_id, ping_message_id,
        deadline, max_players, match, options, and state: the same game with new session
        details (a forfeit), never a move, which goes through save_move. A new state needs
        `version`, the moves saved that it was worked out at: StaleVersion, changing nothing,
        if the stored game has moved on (the writer's copy is old).
        """
        if "state" in changes and version is None:
            raise TypeError("a new state needs the version it was worked out at")
        unknown = set(changes) - set(UPDATABLE)
        if unknown:
            raise TypeError(f"cannot update {', '.join(sorted(unknown))}")
        values = {column: encode(column, value) for column, value in changes.items()}
        async with self.connection.transaction() as db:
            row = await require(db, game_id, LIVE)
            if version is not None and row["version"] != version:
                raise StaleVersion(
                    f"game {game_id} is at move {row['version']}, not {version}: reload it"
                )
            await db.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(**values, updated_at=self.connection.clock())
            )
            return await written(db, game_id)

    async def start(
        self,
        game_id: int,
        state: Mapping[str, Any],
        *,
        table_message_id: int | Keep | None = KEEP,
        deadline: float | None = None,
    ) -> GameRow:
        """Lobby to active: the deal is made; seats are taken from the state. KEEP leaves the
        table message id as it is (the lobby message usually becomes the table)."""
        values: dict[str, Any] = {
            "status": ACTIVE,
            "state": dumps(state),
            "seats": dumps(list(state["seats"])),
            "version": 0,
            "deadline": deadline,
            "updated_at": self.connection.clock(),
        }
        if table_message_id is not KEEP:
            values["table_message_id"] = table_message_id
        async with self.connection.transaction() as db:
            await require(db, game_id, (LOBBY,))
            await db.execute(update(games).where(games.c.id == game_id).values(**values))
            return await written(db, game_id)
