"""Lobbies and live games: one row per game, its moves, and the move to history when it ends."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from bot import stats
from bot.engine import Game, record, to_dict

from . import outbox
from .errors import ChannelTaken, GameNotFound, StaleVersion, WrongStatus
from .leaderboard import add_game

if TYPE_CHECKING:
    import aiosqlite

    from .db import Storage

LOBBY, ACTIVE, FINISHED, CANCELLED = "lobby", "active", "finished", "cancelled"
LIVE = (LOBBY, ACTIVE)
MAX_PLAYERS = 4  # a lobby's seat limit when none is given: the column's default (migration 3)
# What a game's end owes Discord: (kind, payload) items for the outbox.
Owed = Sequence[tuple[str, Mapping[str, Any]]]


class Keep:
    """The type of KEEP: "leave this column as it is", as opposed to None, which clears it."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = Keep()

# Columns `update` may change, by keyword. Fixed names, so building SQL from them is safe.
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


def to_row(r: sqlite3.Row) -> GameRow:
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


class Games:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

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
        async with self.storage.transaction() as db:
            new_id = await self._insert(
                db, guild_id, channel_id, host_id, status, seats, rules, state,
                lobby_message_id=lobby_message_id, deadline=deadline, max_players=max_players,
                match=match, options=options,
            )  # fmt: skip
            return await self._get(db, new_id)

    async def _insert(
        self,
        db: aiosqlite.Connection,
        guild_id: int,
        channel_id: int,
        host_id: str,
        status: str,
        seats: Sequence[str],
        rules: Mapping[str, Any],
        state: Mapping[str, Any] | None,
        *,
        lobby_message_id: int | None = None,
        deadline: float | None = None,
        max_players: int = MAX_PLAYERS,
        match: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> int:
        """Insert a game inside the caller's transaction; its id. Raises ChannelTaken."""
        now = self.storage.clock()
        try:
            cursor = await db.execute(
                "INSERT INTO games (guild_id, channel_id, host_id, status, seats, rules, state,"
                " lobby_message_id, deadline, max_players, match, options, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    str(host_id),
                    status,
                    dumps(list(seats)),
                    dumps(dict(rules)),
                    None if state is None else dumps(state),
                    lobby_message_id,
                    deadline,
                    max_players,
                    encode("match", match),
                    encode("options", options),
                    now,
                    now,
                ),
            )
        except sqlite3.IntegrityError as exc:
            # Only the unique index games_live_channel can refuse these values; make sure.
            async with db.execute(
                "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            ) as found:
                taken = await found.fetchone()
            if taken is None:
                raise
            raise ChannelTaken(channel_id, taken["id"]) from exc
        assert cursor.lastrowid is not None  # set by every successful INSERT
        return cursor.lastrowid

    async def get(self, game_id: int) -> GameRow | None:
        row = await self.storage.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        return to_row(row) if row else None

    async def live(self) -> list[GameRow]:
        """Every lobby and active game, oldest first: what to restore at start-up.

        An active game whose state is over was stopped between its last move and `finish`:
        call `finish` for it.
        """
        rows = await self.storage.fetchall(
            "SELECT * FROM games WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        return [to_row(r) for r in rows]

    async def moves(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self.storage.fetchall(
            "SELECT move FROM moves WHERE game_id = ? ORDER BY n", (game_id,)
        )
        return [json.loads(r["move"]) for r in rows]

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
            sets = "".join(f"{column} = ?, " for column in values)
            await db.execute(
                f"UPDATE games SET {sets}updated_at = ? WHERE id = ?",
                (*values.values(), self.storage.clock(), game_id),
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
        keep = table_message_id is KEEP
        async with self.storage.transaction() as db:
            await self._require(db, game_id, (LOBBY,))
            await db.execute(
                "UPDATE games SET status = 'active', state = ?, seats = ?, version = 0,"
                " table_message_id = CASE WHEN ? THEN table_message_id ELSE ? END,"
                " deadline = ?, updated_at = ? WHERE id = ?",
                (
                    dumps(state),
                    dumps(list(state["seats"])),
                    keep,
                    None if keep else table_message_id,
                    deadline,
                    self.storage.clock(),
                    game_id,
                ),
            )
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
        optional = {
            "table_message_id": table_message_id,
            "ping_message_id": ping_message_id,
            "deadline": deadline,
        }
        optional = {k: v for k, v in optional.items() if v is not KEEP}
        sets = "".join(f"{column} = ?, " for column in optional)
        async with self.storage.transaction() as db:
            cursor = await db.execute(
                f"UPDATE games SET state = ?, version = ?, {sets}updated_at = ?"
                " WHERE id = ? AND status = 'active' AND version = ?",
                (
                    dumps(state),
                    version,
                    *optional.values(),
                    self.storage.clock(),
                    game_id,
                    version - 1,
                ),
            )
            if cursor.rowcount != 1:
                row = await self._require(db, game_id, (ACTIVE,))
                raise StaleVersion(
                    f"game {game_id} is at move {row['version']}, so move {version} cannot be"
                    f" saved (it expects move {version - 1}); reload the game"
                )
            await db.execute(
                "INSERT INTO moves (game_id, n, move) VALUES (?, ?, ?)",
                (game_id, version, dumps(move)),
            )

    async def cancel(self, game_id: int, *, owed: Owed = ()) -> bool:
        """End a lobby or game without a result. False, changing nothing, if it had already
        ended. `owed` (kind, payload) items go to the outbox in the same transaction, so the
        game is never cancelled without them; they are not added when it returns False."""
        encoded = outbox.encode(owed)
        now = self.storage.clock()
        async with self.storage.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'cancelled', deadline = NULL, updated_at = ?"
                " WHERE id = ? AND status IN ('lobby', 'active')",
                (now, game_id),
            )
            if cursor.rowcount == 0:
                await self._require(db, game_id, (LOBBY, ACTIVE, FINISHED, CANCELLED))
                return False
            await outbox.insert(db, game_id, encoded, now)
            return True

    async def finish(
        self,
        game_id: int,
        game: Game,
        *,
        names: Mapping[str, str] | None = None,
        forfeited: Collection[str] = (),
        counted: bool = True,
        unrated: Collection[str] = (),
        owed: Owed = (),
    ) -> bool:
        """Move an active game to history and add it to its players' stats, all at once.
        `counted` False: history only, no stats. Seats in `unrated` (AI opponents) never get
        stats or a leaderboard row. `owed` (kind, payload) items go to the outbox in the same
        transaction: a game never ends without the messages its end owes.

        Returns False, changing nothing, if the game was already finished, so calling it twice
        counts the game once (and owes its messages once). `names` (player id -> display name)
        keeps the leaderboard's names fresh. Players in `forfeited` share the last place and
        cannot win; the best of the others win. A game that is not over can be finished this
        way (placed by bundle size).
        """
        args = (names, forfeited, counted, unrated, owed)
        return await self._finish(game_id, game, None, *args) != -1

    async def finish_then(
        self,
        game_id: int,
        game: Game,
        state: Mapping[str, Any],
        *,
        deadline: float | None = None,
        options: Mapping[str, Any] | None = None,
        names: Mapping[str, str] | None = None,
        forfeited: Collection[str] = (),
        counted: bool = True,
        unrated: Collection[str] = (),
        owed: Owed = (),
    ) -> int | None:
        """`finish`, and the match's next game (`state`: a game under way, in the same channel,
        with its turn `deadline` and `options`) created in the same transaction, so a crash can
        never keep the one without the other. The next game's id; None, changing nothing, if
        this game was already finished (its next game was created then). `owed` items are
        owed for this game (`game_id`), not the next."""
        then = (state, deadline, options)
        args = (names, forfeited, counted, unrated, owed)
        new_id = await self._finish(game_id, game, then, *args)
        return None if new_id == -1 else new_id

    async def _finish(
        self,
        game_id: int,
        game: Game,
        then: tuple[Mapping[str, Any], float | None, Mapping[str, Any] | None] | None,
        names: Mapping[str, str] | None,
        forfeited: Collection[str],
        counted: bool,
        unrated: Collection[str],
        owed: Owed,
    ) -> int:
        """-1 if already finished; else the id of the game created from `then`, or 0."""
        unknown = {str(p) for p in forfeited} - set(game.seats)
        if unknown:
            raise ValueError(f"{', '.join(sorted(unknown))} did not play in game {game_id}")
        encoded = outbox.encode(owed)
        out = {game.seats.index(str(p)) for p in forfeited}
        seat_places = stats.places(game, out)
        won = set(stats.winners(seat_places, out))
        per_seat = stats.seat_stats(game)
        rec = record(game)
        now = self.storage.clock()
        async with self.storage.transaction() as db:
            row = await self._require(db, game_id, (ACTIVE, FINISHED))
            if row["status"] == FINISHED:
                return -1
            if tuple(json.loads(row["seats"])) != game.seats:
                raise ValueError(f"game {game_id} is seated {row['seats']}, not {game.seats}")
            await db.execute(
                "UPDATE games SET status = 'finished', state = ?, deadline = NULL,"
                " updated_at = ? WHERE id = ?",
                (dumps(to_dict(game)), now, game_id),
            )
            await outbox.insert(db, game_id, encoded, now)
            await db.execute(
                "INSERT INTO history (game_id, guild_id, channel_id, finished_at, seats, places,"
                " forfeited, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    row["guild_id"],
                    row["channel_id"],
                    now,
                    dumps(list(game.seats)),
                    dumps(list(seat_places)),
                    dumps([game.seats[s] for s in sorted(out)]),
                    dumps(rec),
                ),
            )
            await db.executemany(
                "INSERT INTO history_players (game_id, user_id) VALUES (?, ?)",
                [(game_id, seat) for seat in game.seats],
            )
            if counted:
                await add_game(
                    db, row["guild_id"], game.seats, seat_places, won, per_seat, names or {},
                    unrated=unrated,
                )  # fmt: skip
            if then is None:
                return 0
            state, deadline, options = then
            return await self._insert(
                db, row["guild_id"], row["channel_id"], row["host_id"], ACTIVE, state["seats"],
                json.loads(row["rules"]), state, deadline=deadline, options=options,
            )  # fmt: skip

    @staticmethod
    async def _get(db: aiosqlite.Connection, game_id: int) -> GameRow:
        async with db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        assert row is not None  # the callers wrote or checked it in this transaction
        return to_row(row)

    @staticmethod
    async def _require(
        db: aiosqlite.Connection, game_id: int, statuses: Sequence[str]
    ) -> sqlite3.Row:
        async with db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise GameNotFound(f"there is no game {game_id}")
        if row["status"] not in statuses:
            raise WrongStatus(f"game {game_id} is {row['status']}, not {' or '.join(statuses)}")
        return row
