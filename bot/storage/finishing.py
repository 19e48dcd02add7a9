"""A game's end: a result saved to history and its players' stats (and, in a match, the next
game created), or a cancellation; each in one transaction with the outbox rows it owes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, and_, case, delete, insert, update

from bot.domain.values import GameResult, ordinal

from . import ladder, tallies
from .errors import StaleRatings
from .schema import games, history, history_players, moves, players
from .sql import (
    ACTIVE,
    BROKEN,
    CANCELLED,
    FINISHED,
    LIVE,
    LOBBY,
    Owed,
    dumps,
    encode,
    encode_owed,
    insert_game,
    insert_owed,
    require,
    upsert_into,
)

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from .connection import Connection

p = players.c


class Finishing:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def cancel(self, game_id: int, *, owed: Owed = ()) -> bool:
        """End a lobby or game (or one set aside as broken) without a result. False, changing
        nothing, if it had already ended. `owed` (kind, payload) items go to the outbox in the
        same transaction, so the game is never cancelled without them; they are not added
        when it returns False."""
        encoded = encode_owed(owed)
        now = self.connection.clock()
        async with self.connection.transaction() as db:
            result = await db.execute(
                update(games)
                .where(games.c.id == game_id, games.c.status.in_((*LIVE, BROKEN)))
                .values(status=CANCELLED, deadline=None, updated_at=now)
            )
            if result.rowcount == 0:
                await require(db, game_id, (LOBBY, ACTIVE, FINISHED, CANCELLED, BROKEN))
                return False
            await insert_owed(db, game_id, encoded, now)
            return True

    async def finish(
        self,
        game_id: int,
        result: GameResult,
        *,
        owed: Owed = (),
        board_id: int | None = None,
        guild_id: int | None = None,
    ) -> bool:
        """Move an active game to history and add its result to its players' stats, all at
        once (the session layer works the result out: bot/session/results.py). Its move rows
        are dropped: the record holds the moves. `owed` (kind, payload) items go to the
        outbox in the same transaction: a game never ends without the messages its end owes.
        `board_id`: the board it counts on (Place.board_id) and `guild_id` its server (None:
        none), as the session knows its place; without a board, the game row's server is both.
        Rated seats with a global rating worked out count on the global ladder too.

        Returns False, changing nothing, if the game was already finished, so calling it twice
        counts the game once (and owes its messages once). Raises StaleRatings, changing
        nothing, if a player's rating changed since the result was worked out.
        """
        board = (board_id, guild_id)
        return await self._finish(game_id, result, None, owed, board) != -1

    async def finish_then(
        self,
        game_id: int,
        result: GameResult,
        state: Mapping[str, Any],
        *,
        deadline: float | None = None,
        options: Mapping[str, Any] | None = None,
        owed: Owed = (),
        board_id: int | None = None,
        guild_id: int | None = None,
    ) -> int | None:
        """`finish`, and the match's next game (`state`: a game under way, in the same channel,
        with its turn `deadline` and `options`) created in the same transaction, so a crash can
        never keep the one without the other. The next game's id; None, changing nothing, if
        this game was already finished (its next game was created then). `owed` items are
        owed for this game (`game_id`), not the next. `board_id`, `guild_id`: as `finish`."""
        board = (board_id, guild_id)
        new_id = await self._finish(game_id, result, (state, deadline, options), owed, board)
        return None if new_id == -1 else new_id

    async def _finish(
        self,
        game_id: int,
        result: GameResult,
        then: tuple[Mapping[str, Any], float | None, Mapping[str, Any] | None] | None,
        owed: Owed,
        board: tuple[int | None, int | None],
    ) -> int:
        """-1 if already finished; else the id of the game created from `then`, or 0."""
        unknown = set(result.forfeited) - set(result.user_ids)
        if unknown:
            raise ValueError(f"{', '.join(sorted(unknown))} did not play in game {game_id}")
        encoded = encode_owed(owed)
        next_values = None
        if then is not None:
            state, deadline, options = then
            next_values = {
                "status": ACTIVE, "seats": dumps(list(state["seats"])), "state": dumps(state),
                "deadline": deadline, "options": encode("options", options),
            }  # fmt: skip
        record = dumps(result.record)
        now = self.connection.clock()
        async with self.connection.transaction() as db:
            row = await require(db, game_id, (ACTIVE, FINISHED), lock=True)
            if row["status"] == FINISHED:
                return -1
            board_id, guild_id = board
            if board_id is None:  # a server's game, as before places: its board is the server's
                board_id = guild_id = row["guild_id"]
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
            await insert_owed(db, game_id, encoded, now)
            await db.execute(
                insert(history).values(
                    game_id=game_id, board_id=board_id, guild_id=guild_id,
                    channel_id=row["channel_id"],
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
                await add_game(db, board_id, result, game_id)
                await ladder.add(db, result)
            if next_values is None:
                return 0
            values = {
                **next_values,
                "guild_id": row["guild_id"],
                "channel_id": row["channel_id"],
                "host_id": row["host_id"],
                "rules": row["rules"],
                "place": row["place"],
            }
            return await insert_game(db, values, self.connection.clock())


async def add_game(db: AsyncConnection, board_id: int, result: GameResult, game_id: int) -> None:
    """Count one finished game for its rated players on the board `board_id` (players'
    guild_id column: a server's id, or a channel's outside servers), inside the caller's
    transaction.

    Totals are added in the statement itself (games = games + 1), so they are never lost. A
    new rating is written only where the stored one is still the rating it was worked out
    from; else StaleRatings rolls the whole finish back, and the session works the ratings
    out again from the new ones. PostgreSQL's ON CONFLICT locks the row and checks the
    committed values, so this holds for two processes at once; SQLite takes one writer at a
    time anyway. Each rated seat's ratings and captures go to rated_games (bot/storage/
    tallies.py), numbered by the games count the upsert returns."""
    stmt = upsert_into(players, db.dialect.name)
    ex = stmt.excluded
    for seat in result.seats:
        if not seat.rated:
            continue
        (mu0, sigma0), (mu, sigma) = seat.before, seat.after
        insert_ = stmt.values(
            guild_id=board_id, user_id=seat.user_id, name=result.names.get(seat.user_id, ""),
            games=1, wins=int(seat.won), cards=seat.cards, steals=seat.steals,
            biggest_steal=seat.biggest_steal, mu=mu, sigma=sigma, rating=ordinal(mu, sigma),
        )  # fmt: skip
        bigger: ColumnElement[Any] = case(
            (ex.biggest_steal > p.biggest_steal, ex.biggest_steal), else_=p.biggest_steal
        )
        row = await db.execute(
            insert_.on_conflict_do_update(
                index_elements=[p.guild_id, p.user_id],
                set_={
                    "name": case((ex.name == "", p.name), else_=ex.name),
                    "games": p.games + 1,
                    "wins": p.wins + ex.wins,
                    "cards": p.cards + ex.cards,
                    "steals": p.steals + ex.steals,
                    "biggest_steal": bigger,
                    "mu": ex.mu,
                    "sigma": ex.sigma,
                    "rating": ex.rating,
                },
                where=and_(p.mu == mu0, p.sigma == sigma0),
            ).returning(p.games)
        )
        counted = row.scalar_one_or_none()
        if counted is None:
            raise StaleRatings(f"the rating of player {seat.user_id} changed meanwhile")
        await tallies.add(db, board_id, game_id, seat, counted)
