"""The move write path: a move's row and the game's state after it, saved together, every move
waiting at that moment in one transaction (group.py); on SQLite one statement a move, run on
the event loop's own connection when it can be without waiting (sqlite_moves.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import Boolean, Insert, Update, bindparam, case, insert, select, update

from .errors import GameNotFound, StaleVersion, StorageError, WrongStatus
from .group import GroupCommit
from .schema import Real, games, moves
from .sql import ACTIVE, BY_ID, KEEP, Keep, dumps
from .sqlite_moves import MoveWrites

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from .connection import Connection


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
            # KEEP: the deadline changes only when the flag says so.
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


class MoveSaves:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        # The transaction is looked up at each batch (a test slows it down).
        self.fast: MoveWrites | None = None
        if connection.writer is not None:  # SQLite: one statement a move (sqlite_moves.py)
            self.fast = fast = MoveWrites(save_move, add_move, refusal)
            self.group = GroupCommit(
                lambda: connection.driver_transaction(),
                fast.one,
                fast.many,
                lambda: connection.driver(),
            )
        else:
            self.group = GroupCommit(
                lambda: connection.transaction(), self._write_move, self._write_moves
            )

    async def prepare(self) -> None:
        """Once the storage is open: on SQLite, what the move saves run on."""
        if self.fast is not None:
            async with self.connection.driver() as db:
                await self.fast.make(db, self.connection.loop_db)

    async def close(self) -> None:
        """Wait for the moves already submitted."""
        await self.group.close()

    async def save_move(
        self,
        game_id: int,
        state: Mapping[str, Any],
        move: Mapping[str, Any],
        version: int,
        *,
        deadline: float | Keep | None = KEEP,
    ) -> None:
        """Save move number `version` (1 for the first) and the state after it, together.

        Optimistic: raises StaleVersion unless the stored game is at `version - 1`, so two
        writers can never both save "the next move". KEEP leaves the deadline as it is.
        """
        params = {
            "game_id": game_id,
            "before": version - 1,
            "state": dumps(state),
            "version": version,
            "now": self.connection.clock(),
            "set_deadline": deadline is not KEEP,
            "new_deadline": None if isinstance(deadline, Keep) else deadline,
        }
        payload = (params, {"game_id": game_id, "n": version, "m": dumps(move)})
        if self.fast is not None:
            await self._sqlite(self.fast, payload)
            return
        # Committed with every other move waiting (group.py): returns once it is durable.
        await self.group.submit(payload)

    async def _sqlite(self, fast: MoveWrites, payload: Any) -> None:
        """On the loop's connection if that cannot wait, else through the writer's thread
        (sqlite_moves.py): returns once the move is committed."""
        connection = self.connection
        if fast.ready() and connection.loop_free() and fast.now(connection.on_loop(), payload):
            return
        if fast.due():  # a checkpoint, then this move, on the thread
            async with connection.driver() as db:
                await fast.checkpointed(db, payload)
            return
        await self.group.submit(payload)
        fast.since += 1

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
