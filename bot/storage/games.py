"""Lobbies and live games: one row per game, its moves, and the move to history when it ends."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from sqlalchemy import (
    BigInteger,
    Boolean,
    Insert,
    RowMapping,
    Update,
    bindparam,
    case,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from bot.domain.values import GameResult

from . import outbox
from .errors import ChannelTaken, GameNotFound, StaleVersion, StorageError, WrongStatus
from .group import GroupCommit
from .leaderboard import add_game
from .schema import Real, games, history, history_players, moves
from .sqlite_moves import MoveWrites

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from .db import Storage

LOBBY, ACTIVE, FINISHED, CANCELLED = "lobby", "active", "finished", "cancelled"
LIVE = (LOBBY, ACTIVE)
CHUNK = 500  # ids per IN (...) list, well inside every backend's limit on parameters
MAX_PLAYERS = 4  # a lobby's seat limit when none is given: the column's default (migration 3)
# What a game's end owes Discord: (kind, payload) items for the outbox.
Owed = Sequence[tuple[str, Mapping[str, Any]]]


class Keep:
    """The type of KEEP: "leave this column as it is", as opposed to None, which clears it."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = Keep()

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


def bound(name: str, type_: Any = None) -> Any:
    """A statement's value given when it runs (sqlite_moves.py gives a trigger's instead)."""
    return bindparam(name, type_=type_)


def save_move(value: Callable[..., Any] = bound) -> Update:
    """The UPDATE that saves a move's state, if the game is at the move before it."""
    return (
        update(games)
        .where(
            games.c.id == value("game_id"),
            games.c.status == ACTIVE,
            games.c.version == value("before"),
        )
        .values(
            state=value("state"),
            version=value("version"),
            updated_at=value("now"),
            # KEEP: each message id and the deadline change only when a flag says so.
            table_message_id=case(
                (value("set_table", Boolean), value("table_id", BigInteger)),
                else_=games.c.table_message_id,
            ),
            ping_message_id=case(
                (value("set_ping", Boolean), value("ping_id", BigInteger)),
                else_=games.c.ping_message_id,
            ),
            deadline=case(
                (value("set_deadline", Boolean), value("new_deadline", Real)),
                else_=games.c.deadline,
            ),
        )
    )


def add_move(value: Callable[..., Any] = bound) -> Insert:
    return insert(moves).values(game_id=value("game_id"), n=value("n"), move=value("m"))


# Built once: SQLAlchemy caches a statement's compiled SQL by its shape.
SAVE_MOVE = save_move()
ADD_MOVE = add_move()
BY_ID = select(games).where(games.c.id == bindparam("game_id"))


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int
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


class LiveHead(NamedTuple):
    """What start-up reads of a live game: enough to route its clicks and arm its timer. Its
    state and moves are read on its first use (`rows`, `moves_of`). A tuple: a thousand are
    made at every start-up."""

    id: int
    guild_id: int
    channel_id: int
    host_id: str
    status: str
    seats: tuple[str, ...]
    version: int
    deadline: float | None
    options: dict[str, Any]


# The columns of a LiveHead, in its order: the state (the big one) is not among them.
HEADS = select(
    games.c.id, games.c.guild_id, games.c.channel_id, games.c.host_id, games.c.status,
    games.c.seats, games.c.version, games.c.deadline, games.c.options,
).where(games.c.status.in_(LIVE)).order_by(games.c.id)  # fmt: skip


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def encode(column: str, value: Any) -> Any:
    if column == "seats":
        return dumps([str(s) for s in value])
    if column == "rules":
        return dumps(dict(value))
    if column == "host_id":
        return str(value)
    if column in ("state", "match", "options"):
        return None if value is None else dumps(dict(value))
    return value


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
    )


def refusal(params: Mapping[str, Any], row: Mapping[Any, Any] | None) -> StorageError:
    """Why a move's UPDATE matched no row: `row` is the game's as stored (None: no game)."""
    game_id = params["game_id"]
    if row is None:
        return GameNotFound(f"there is no game {game_id}")
    if row["status"] != ACTIVE:
        return WrongStatus(f"game {game_id} is {row['status']}, not {ACTIVE}")
    return StaleVersion(
        f"game {game_id} is at move {row['version']}, so move {params['version']} cannot be"
        f" saved (it expects move {params['before']}); reload the game"
    )


class Games:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        # The transaction is looked up at each batch (a test slows it down).
        self.fast: MoveWrites | None = None
        if storage.writer is not None:  # SQLite: one statement a move (sqlite_moves.py)
            self.fast = fast = MoveWrites(save_move, add_move, refusal)
            self.group = GroupCommit(
                lambda: storage.driver_transaction(), fast.one, fast.many, lambda: storage.driver()
            )
        else:
            self.group = GroupCommit(
                lambda: storage.transaction(), self._write_move, self._write_moves
            )

    async def prepare(self) -> None:
        """Once the storage is open: on SQLite, what the move saves run on."""
        if self.fast is not None:
            async with self.storage.driver() as db:
                await self.fast.make(db)

    async def create(
        self,
        guild_id: int,
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
            "options": encode("options", options),
        }  # fmt: skip
        async with self.storage.transaction() as db:
            new_id = await self._insert(db, values)
            return await self._get(db, new_id)

    async def _insert(self, db: AsyncConnection, values: dict[str, Any]) -> int:
        """Insert a game inside the caller's transaction; its id. Raises ChannelTaken."""
        now = self.storage.clock()
        try:
            # A savepoint: on PostgreSQL a failed statement spoils the whole transaction.
            async with db.begin_nested():
                result = await db.execute(
                    insert(games)
                    .values(**values, created_at=now, updated_at=now)
                    .returning(games.c.id)
                )
                new_id: int = result.scalar_one()
        except IntegrityError as exc:
            # Only the unique index games_live_channel can refuse these values; make sure.
            taken = (
                await db.execute(
                    select(games.c.id).where(
                        games.c.channel_id == values["channel_id"], games.c.status.in_(LIVE)
                    )
                )
            ).scalar()
            if taken is None:
                raise
            raise ChannelTaken(values["channel_id"], taken) from exc
        return new_id

    async def get(self, game_id: int) -> GameRow | None:
        row = await self.storage.fetchone(BY_ID, {"game_id": game_id})
        return to_row(row._mapping) if row else None

    async def live(self) -> list[GameRow]:
        """Every lobby and active game, oldest first: what to restore at start-up.

        An active game whose state is over was stopped between its last move and `finish`:
        call `finish` for it.
        """
        rows = await self.storage.fetchall(
            select(games).where(games.c.status.in_(LIVE)).order_by(games.c.id)
        )
        return [to_row(r._mapping) for r in rows]

    async def heads(self) -> list[LiveHead]:
        """Every lobby and active game, oldest first, without its state: what start-up reads."""
        loads = json.loads
        # Most games share their options' text (their server's settings): parsed once, and
        # the same dict given to each (the caller copies it before changing it).
        options: dict[str | None, dict[str, Any]] = {None: {}}
        heads = []
        rows: list[Any] = await self.storage.fetchall(HEADS)  # tuples of its columns
        for game_id, guild, channel, host, status, seats, version, deadline, text in rows:
            if text not in options:
                options[text] = loads(text)
            seated = tuple(loads(seats))
            head = (game_id, guild, channel, host, status, seated, version, deadline, options[text])
            heads.append(LiveHead._make(head))
        return heads

    async def rows(self, game_ids: Collection[int]) -> list[GameRow]:
        """Many games' rows at once, by id (those of `game_ids` that exist)."""
        found: list[GameRow] = []
        ids = sorted(game_ids)
        for start in range(0, len(ids), CHUNK):
            rows = await self.storage.fetchall(
                select(games).where(games.c.id.in_(ids[start : start + CHUNK])).order_by(games.c.id)
            )
            found += [to_row(r._mapping) for r in rows]
        return found

    async def moves(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self.storage.fetchall(
            select(moves.c.move).where(moves.c.game_id == game_id).order_by(moves.c.n)
        )
        return [json.loads(r.move) for r in rows]

    async def moves_of(self, game_ids: Collection[int]) -> dict[int, list[dict[str, Any]]]:
        """The moves of many games at once (restoring them all): game id -> its moves."""
        found: dict[int, list[dict[str, Any]]] = {}
        ids = sorted(game_ids)
        for start in range(0, len(ids), CHUNK):
            rows = await self.storage.fetchall(
                select(moves.c.game_id, moves.c.move)
                .where(moves.c.game_id.in_(ids[start : start + CHUNK]))
                .order_by(moves.c.game_id, moves.c.n)
            )
            for r in rows:
                found.setdefault(r.game_id, []).append(json.loads(r.move))
        return found

    async def update(self, game_id: int, **changes: Any) -> GameRow:
        """Change lobby details, message ids or the deadline of a live game.

        Keywords: host_id, seats, rules, lobby_message_id, table_message_id, ping_message_id,
        deadline, max_players, match, options, and state: the same game with new session
        details (a forfeit), never a move, which goes through save_move.
        """
        unknown = set(changes) - set(UPDATABLE)
        if unknown:
            raise TypeError(f"cannot update {', '.join(sorted(unknown))}")
        values = {column: encode(column, value) for column, value in changes.items()}
        async with self.storage.transaction() as db:
            await self._require(db, game_id, LIVE)
            await db.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(**values, updated_at=self.storage.clock())
            )
            return await self._get(db, game_id)

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
            "updated_at": self.storage.clock(),
        }
        if table_message_id is not KEEP:
            values["table_message_id"] = table_message_id
        async with self.storage.transaction() as db:
            await self._require(db, game_id, (LOBBY,))
            await db.execute(update(games).where(games.c.id == game_id).values(**values))
            return await self._get(db, game_id)

    async def save_move(
        self,
        game_id: int,
        state: Mapping[str, Any],
        move: Mapping[str, Any],
        version: int,
        *,
        table_message_id: int | Keep | None = KEEP,
        ping_message_id: int | Keep | None = KEEP,
        deadline: float | Keep | None = KEEP,
    ) -> None:
        """Save move number `version` (1 for the first) and the state after it, together.

        Optimistic: raises StaleVersion unless the stored game is at `version - 1`, so two
        writers can never both save "the next move". KEEP leaves a column as it is.
        """
        params = {
            "game_id": game_id,
            "before": version - 1,
            "state": dumps(state),
            "version": version,
            "now": self.storage.clock(),
            "set_table": table_message_id is not KEEP,
            "table_id": None if isinstance(table_message_id, Keep) else table_message_id,
            "set_ping": ping_message_id is not KEEP,
            "ping_id": None if isinstance(ping_message_id, Keep) else ping_message_id,
            "set_deadline": deadline is not KEEP,
            "new_deadline": None if isinstance(deadline, Keep) else deadline,
        }
        # Committed with every other move waiting (group.py): returns once it is durable.
        await self.group.submit((params, {"game_id": game_id, "n": version, "m": dumps(move)}))

    async def _write_moves(self, db: AsyncConnection, payloads: list[Any]) -> bool:
        """A batch of moves of different games in three statements: every game's UPDATE at
        once, a check that each game is now at its move, every move's row at once. False if
        a game was not at the move before (the caller rolls back and goes one by one)."""
        params = [p for p, _ in payloads]
        ids = [p["game_id"] for p in params]
        if len(set(ids)) != len(ids):
            return False
        await db.execute(SAVE_MOVE, params)
        found = await db.execute(select(games.c.id, games.c.version).where(games.c.id.in_(ids)))
        versions = {r.id: r.version for r in found}
        if any(versions.get(p["game_id"]) != p["version"] for p in params):
            return False
        # Another writer saving the same move number first makes this fail on the key.
        await db.execute(ADD_MOVE, [m for _, m in payloads])
        return True

    async def _write_move(self, db: AsyncConnection, payload: Any) -> None:
        """One move inside a batch's transaction; raises, having changed nothing, if the game
        is not at the move before it."""
        params, move = payload
        result = await db.execute(SAVE_MOVE, params)
        if result.rowcount != 1:
            row = (await db.execute(BY_ID, {"game_id": params["game_id"]})).mappings().first()
            raise refusal(params, row)
        await db.execute(ADD_MOVE, move)

    async def cancel(self, game_id: int, *, owed: Owed = ()) -> bool:
        """End a lobby or game without a result. False, changing nothing, if it had already
        ended. `owed` (kind, payload) items go to the outbox in the same transaction, so the
        game is never cancelled without them; they are not added when it returns False."""
        encoded = outbox.encode(owed)
        now = self.storage.clock()
        async with self.storage.transaction() as db:
            result = await db.execute(
                update(games)
                .where(games.c.id == game_id, games.c.status.in_(LIVE))
                .values(status=CANCELLED, deadline=None, updated_at=now)
            )
            if result.rowcount == 0:
                await self._require(db, game_id, (LOBBY, ACTIVE, FINISHED, CANCELLED))
                return False
            await outbox.insert_items(db, game_id, encoded, now)
            return True

    async def finish(self, game_id: int, result: GameResult, *, owed: Owed = ()) -> bool:
        """Move an active game to history and add its result to its players' stats, all at
        once (the session layer works the result out: bot/session/results.py). Its move rows
        are dropped: the record holds the moves. `owed` (kind, payload) items go to the
        outbox in the same transaction: a game never ends without the messages its end owes.

        Returns False, changing nothing, if the game was already finished, so calling it twice
        counts the game once (and owes its messages once). Raises StaleRatings, changing
        nothing, if a player's rating changed since the result was worked out.
        """
        return await self._finish(game_id, result, None, owed) != -1

    async def finish_then(
        self,
        game_id: int,
        result: GameResult,
        state: Mapping[str, Any],
        *,
        deadline: float | None = None,
        options: Mapping[str, Any] | None = None,
        owed: Owed = (),
    ) -> int | None:
        """`finish`, and the match's next game (`state`: a game under way, in the same channel,
        with its turn `deadline` and `options`) created in the same transaction, so a crash can
        never keep the one without the other. The next game's id; None, changing nothing, if
        this game was already finished (its next game was created then). `owed` items are
        owed for this game (`game_id`), not the next."""
        new_id = await self._finish(game_id, result, (state, deadline, options), owed)
        return None if new_id == -1 else new_id

    async def _finish(
        self,
        game_id: int,
        result: GameResult,
        then: tuple[Mapping[str, Any], float | None, Mapping[str, Any] | None] | None,
        owed: Owed,
    ) -> int:
        """-1 if already finished; else the id of the game created from `then`, or 0."""
        unknown = set(result.forfeited) - set(result.user_ids)
        if unknown:
            raise ValueError(f"{', '.join(sorted(unknown))} did not play in game {game_id}")
        encoded = outbox.encode(owed)
        next_values = None
        if then is not None:
            state, deadline, options = then
            next_values = {
                "status": ACTIVE, "seats": dumps(list(state["seats"])), "state": dumps(state),
                "deadline": deadline, "options": encode("options", options),
            }  # fmt: skip
        record = dumps(result.record)
        now = self.storage.clock()
        async with self.storage.transaction() as db:
            row = await self._require(db, game_id, (ACTIVE, FINISHED), lock=True)
            if row["status"] == FINISHED:
                return -1
            if tuple(json.loads(row["seats"])) != result.user_ids:
                raise ValueError(f"game {game_id} is seated {row['seats']}, not {result.user_ids}")
            await db.execute(
                update(games)
                .where(games.c.id == game_id)
                # Its state goes too: the record replays to the end (Sessions.ended_table).
                .values(status=FINISHED, state=None, deadline=None, updated_at=now)
            )
            # A finished game keeps its history record, which holds every move: its move rows
            # go, in the same transaction.
            await db.execute(delete(moves).where(moves.c.game_id == game_id))
            await outbox.insert_items(db, game_id, encoded, now)
            await db.execute(
                insert(history).values(
                    game_id=game_id, guild_id=row["guild_id"], channel_id=row["channel_id"],
                    finished_at=now, seats=dumps(list(result.user_ids)),
                    places=dumps(list(result.places)), forfeited=dumps(list(result.forfeited)),
                    record=record,
                )
            )  # fmt: skip
            await db.execute(
                insert(history_players),
                [{"game_id": game_id, "user_id": seat} for seat in result.user_ids],
            )
            if result.counted:
                await add_game(db, row["guild_id"], result)
            if next_values is None:
                return 0
            return await self._insert(
                db,
                {
                    **next_values,
                    "guild_id": row["guild_id"],
                    "channel_id": row["channel_id"],
                    "host_id": row["host_id"],
                    "rules": row["rules"],
                },
            )

    @staticmethod
    async def _get(db: AsyncConnection, game_id: int) -> GameRow:
        row = (await db.execute(BY_ID, {"game_id": game_id})).mappings().first()
        assert row is not None  # the callers wrote or checked it in this transaction
        return to_row(row)

    @staticmethod
    async def _require(
        db: AsyncConnection, game_id: int, statuses: Sequence[str], *, lock: bool = False
    ) -> RowMapping:
        """The game's row, checked; `lock`: FOR UPDATE on PostgreSQL, so two processes that
        finish the same game take turns (SQLite's write lock does that already)."""
        query = BY_ID.with_for_update() if lock else BY_ID
        row = (await db.execute(query, {"game_id": game_id})).mappings().first()
        if row is None:
            raise GameNotFound(f"there is no game {game_id}")
        if row["status"] not in statuses:
            raise WrongStatus(f"game {game_id} is {row['status']}, not {' or '.join(statuses)}")
        return row
