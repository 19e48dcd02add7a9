"""Each counted game's ratings and captures per player (rated_games): what /steal stats reads,
a player's last rows, instead of replaying the server's history. Written with the finish
(finishing.add_game), deleted with a board reset (leaderboard.Stats.reset)."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row, delete, func, insert, select

from bot.domain.values import RatedGame, SeatResult

from .schema import history, players, rated_games, stats_backfill

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from .connection import Connection

r = rated_games.c
COLUMNS = (r.n, r.game_id, r.mu0, r.sigma0, r.mu, r.sigma, r.captures)
CHUNK = 500  # game ids a statement names at most (both backends cap bound parameters)


def values(guild_id: int, user_id: str, game: RatedGame) -> dict[str, Any]:
    (mu0, sigma0), (mu, sigma) = game.before, game.after
    captures = json.dumps({str(rank): n for rank, n in game.captures}, sort_keys=True)
    return {
        "guild_id": guild_id, "user_id": user_id, "n": game.n, "game_id": game.game_id,
        "mu0": mu0, "sigma0": sigma0, "mu": mu, "sigma": sigma, "captures": captures,
    }  # fmt: skip


def to_game(row: Row[Any]) -> RatedGame:
    captures = tuple(sorted((int(k), int(v)) for k, v in json.loads(row.captures).items()))
    return RatedGame(row.n, row.game_id, (row.mu0, row.sigma0), (row.mu, row.sigma), captures)


async def add(db: AsyncConnection, guild_id: int, game_id: int, seat: SeatResult, n: int) -> None:
    """The row of one rated seat of a counted game, inside the finish's transaction; `n` is
    the player's games count the finish just made."""
    game = RatedGame(n, game_id, seat.before, seat.after, seat.captures)
    await db.execute(insert(rated_games).values(values(guild_id, seat.user_id, game)))


class Tallies:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def recent(self, guild_id: int, user_id: str, limit: int) -> list[RatedGame]:
        """The player's last `limit` counted games, newest first: one index range."""
        query = (
            select(*COLUMNS)
            .where(r.guild_id == guild_id, r.user_id == str(user_id))
            .order_by(r.n.desc())
            .limit(limit)
        )
        return [to_game(row) for row in await self.connection.fetchall(query)]

    async def pending(self) -> list[int]:
        """The guilds whose rows are still to be worked out from their history."""
        rows = await self.connection.fetchall(select(stats_backfill.c.guild_id))
        return sorted(int(row.guild_id) for row in rows)

    async def backfill(
        self,
        guild_id: int,
        games: Collection[tuple[str, Sequence[RatedGame]]],
        read: Sequence[int] | None = None,
        totals: int | None = None,
    ) -> bool | None:
        """The guild's rows worked out from its history, (user id, their games), with its
        pending mark taken off, at once. False, writing nothing, if it was not pending (another
        process did it first). The games play on meanwhile: `read` (the ids of the history
        worked out from) and `totals` (the sum of the board's games counts then) are checked,
        and if a game finished or the board was reset since, None, writing nothing: work it
        out again. Only the rows of the games read are replaced, so a game finished during
        the transaction keeps its own (`read` None: every row of the guild, unchecked)."""
        rows = [values(guild_id, user, game) for user, mine in games for game in mine]
        count = select(func.count()).where(history.c.board_id == guild_id)
        played = select(func.coalesce(func.sum(players.c.games), 0)).where(
            players.c.guild_id == guild_id
        )
        async with self.connection.transaction() as db:
            if read is not None and (
                (await db.execute(count)).scalar_one() != len(read)
                or (totals is not None and (await db.execute(played)).scalar_one() != totals)
            ):
                return None  # the mark stays
            done = await db.execute(
                delete(stats_backfill).where(stats_backfill.c.guild_id == guild_id)
            )
            if done.rowcount == 0:
                return False
            if read is None:
                await db.execute(delete(rated_games).where(r.guild_id == guild_id))
            else:
                for at in range(0, len(read), CHUNK):
                    ids = list(read[at : at + CHUNK])
                    await db.execute(
                        delete(rated_games).where(r.guild_id == guild_id, r.game_id.in_(ids))
                    )
            if rows:
                await db.execute(insert(rated_games), rows)
            return True
