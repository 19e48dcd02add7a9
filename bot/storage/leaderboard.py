"""Per-guild player stats, skill ratings and the leaderboard."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from sqlalchemy import Float, Row, bindparam, cast, delete, func, select, update

from bot.domain.values import PlayerStats, Standing, ordinal

from .schema import players, rated_games
from .sql import upsert_into

if TYPE_CHECKING:
    from .connection import Connection

# A new player's (mu, sigma): openskill's defaults. The app passes bot.domain.ratings's own values
# (Storage.open's start_rating); storage does not import the rating code.
START_RATING = (25.0, 25.0 / 3)

p = players.c
# Players per names query: well inside every backend's limit on parameters (32,766 on SQLite).
NAMES_AT_ONCE = 10_000
# Built once, its lists bound at each call: building an IN of thousands of values costs more
# than running it.
NAMES = select(p.guild_id, p.user_id, p.name).where(
    p.guild_id.in_(bindparam("guilds", expanding=True)),
    p.user_id.in_(bindparam("users", expanding=True)),
)
RATING = p.rating  # bot.domain.values.ordinal(mu, sigma), kept in its own column (indexed)
WIN_RATE = cast(p.wins, Float) / p.games
# Sort orders, each ending in user_id so equal players always come in the same order.
ORDERS: dict[str, tuple[Any, ...]] = {
    "rating": (RATING.desc(), p.wins.desc(), p.user_id),
    "wins": (p.wins.desc(), RATING.desc(), p.user_id),
    "cards": (p.cards.desc(), RATING.desc(), p.user_id),
    "win_rate": (WIN_RATE.desc(), p.games.desc(), RATING.desc(), p.user_id),
}
COLUMNS = (p.guild_id, p.user_id, p.name, p.games, p.wins, p.cards, p.steals, p.biggest_steal,
           p.mu, p.sigma)  # fmt: skip


# The sorts with an index (schema.py): (first key, second key), then user_id.
INDEXED = {
    "rating": (p.rating, p.wins),
    "wins": (p.wins, p.rating),
    "cards": (p.cards, p.rating),
}


def to_stats(r: Row[Any]) -> PlayerStats:
    m = r._mapping
    return PlayerStats(**{c.name: m[c.name] for c in COLUMNS})


def order(sort: str) -> tuple[Any, ...]:
    try:
        return ORDERS[sort]
    except KeyError:
        raise ValueError(f"unknown sort {sort!r}; choose one of {', '.join(ORDERS)}") from None


def upsert(dialect: str) -> Any:
    return upsert_into(players, dialect)


class Stats:
    def __init__(self, connection: Connection, start_rating: tuple[float, float]) -> None:
        self.connection = connection
        self.start = start_rating

    async def get(self, guild_id: int, user_id: str) -> PlayerStats | None:
        row = await self.connection.fetchone(
            select(*COLUMNS).where(p.guild_id == guild_id, p.user_id == str(user_id))
        )
        return to_stats(row) if row else None

    async def leaderboard(
        self, guild_id: int, sort: str = "rating", limit: int | None = 10, offset: int = 0
    ) -> list[Standing]:
        """One page of the guild's players who have finished a game, best first. The page's
        players are found in the sort's index alone (it covers the query: skipping OFFSET
        players reads no rows), then read."""
        page = (
            select(p.user_id)
            .where(p.guild_id == guild_id, p.games > 0)
            .order_by(*order(sort))
            .limit(limit)
            .offset(offset)
        )
        query = (
            select(*COLUMNS)
            .where(p.guild_id == guild_id, p.user_id.in_(page.scalar_subquery()))
            .order_by(*order(sort))
        )
        rows = await self.connection.fetchall(query)
        return [Standing(offset + i + 1, to_stats(r)) for i, r in enumerate(rows)]

    async def rank(self, guild_id: int, user_id: str, sort: str = "rating") -> int | None:
        """The player's place on the board (1 = top), or None if they have no finished game.
        For an indexed sort, 1 + how many come before them: three index ranges counted,
        never the whole guild sorted."""
        order(sort)  # refuses an unknown sort
        if sort in INDEXED:
            return await self._indexed_rank(guild_id, str(user_id), *INDEXED[sort])
        ranked = (
            select(p.user_id, func.row_number().over(order_by=order(sort)).label("rank"))
            .where(p.guild_id == guild_id, p.games > 0)
            .subquery()
        )
        row = await self.connection.fetchone(
            select(ranked.c.rank).where(ranked.c.user_id == str(user_id))
        )
        return int(row.rank) if row else None

    async def _indexed_rank(
        self, guild_id: int, user_id: str, first: Any, second: Any
    ) -> int | None:
        mine = await self.connection.fetchone(
            select(first, second).where(p.guild_id == guild_id, p.user_id == user_id, p.games > 0)
        )
        if mine is None:
            return None
        a, b = tuple(mine)

        def before(*where: Any) -> Any:
            return (
                select(func.count())
                .select_from(players)
                .where(p.guild_id == guild_id, p.games > 0, *where)
                .scalar_subquery()
            )

        ahead = (
            before(first > a)
            + before(first == a, second > b)
            + before(first == a, second == b, p.user_id < user_id)
        )
        row = await self.connection.fetchone(select(ahead))
        assert row is not None
        return 1 + int(row[0])

    async def count(self, guild_id: int) -> int:
        """How many players the board has, for page counts."""
        row = await self.connection.fetchone(
            select(func.count()).select_from(players).where(p.guild_id == guild_id, p.games > 0)
        )
        assert row is not None  # count(*) always answers one row
        return int(row[0])

    async def names(self, guild_id: int, user_ids: Collection[str]) -> dict[str, str]:
        """Last known display names, for players who may have left the guild."""
        ids = [str(u) for u in user_ids]
        rows = await self.connection.fetchall(
            select(p.user_id, p.name).where(p.guild_id == guild_id, p.user_id.in_(ids))
        )
        return {r.user_id: r.name for r in rows}

    async def names_of(self, players: Collection[tuple[int, str]]) -> dict[tuple[int, str], str]:
        """Last known names of many (guild id, user id) at once (restoring every game): one
        query for up to NAMES_AT_ONCE players, not one per game."""
        pairs = {(int(g), str(u)) for g, u in players}
        guilds = sorted({g for g, _ in pairs})
        users = sorted({u for _, u in pairs})
        found: dict[tuple[int, str], str] = {}
        # guild IN and user IN, then only the pairs asked for: a tuple IN costs more to build
        # than the few extra rows (a player seated in one guild, named in another) it saves.
        for start in range(0, len(users), NAMES_AT_ONCE):
            chunk = {"guilds": guilds, "users": users[start : start + NAMES_AT_ONCE]}
            rows = await self.connection.fetchall(NAMES, chunk)
            found.update({k: r.name for r in rows if (k := (r.guild_id, r.user_id)) in pairs})
        return found

    async def ratings(
        self, guild_id: int, user_ids: Collection[str]
    ) -> dict[str, tuple[float, float]]:
        """(mu, sigma) of each player, a new player's start rating for one with no row: what
        a finished game's new ratings are worked out from."""
        ids = [str(u) for u in user_ids]
        rows = await self.connection.fetchall(
            select(p.user_id, p.mu, p.sigma).where(p.guild_id == guild_id, p.user_id.in_(ids))
        )
        found = {r.user_id: (r.mu, r.sigma) for r in rows}
        return {u: found.get(u, self.start) for u in ids}

    async def all(self, guild_id: int) -> list[Standing]:
        """The whole board, best rating first (for an export)."""
        return await self.leaderboard(guild_id, limit=None)

    async def reset(self, guild_id: int) -> int:
        """Start the guild's board afresh: every total and rating back to the start. Names and
        finished games' history stay; the stats card's per-game rows go with the totals.
        Returns how many players had played."""
        mu, sigma = self.start
        async with self.connection.transaction() as db:
            await db.execute(delete(rated_games).where(rated_games.c.guild_id == guild_id))
            result = await db.execute(
                update(players)
                .where(p.guild_id == guild_id, p.games > 0)
                .values(
                    games=0,
                    wins=0,
                    cards=0,
                    steals=0,
                    biggest_steal=0,
                    mu=mu,
                    sigma=sigma,
                    rating=ordinal(mu, sigma),
                )
            )
            return int(result.rowcount)

    async def set_name(
        self, guild_id: int, user_id: str, name: str, *, create: bool = True
    ) -> None:
        """Keep a player's display name; `create` False: only if they have a row already (a
        person is stored once they play, never for looking: docs/privacy.md)."""
        if not create:
            async with self.connection.transaction() as db:
                await db.execute(
                    update(players)
                    .where(p.guild_id == guild_id, p.user_id == str(user_id))
                    .values(name=name)
                )
            return
        mu, sigma = self.start
        stmt = upsert(self.connection.dialect).values(
            guild_id=guild_id, user_id=str(user_id), name=name, mu=mu, sigma=sigma,
            rating=ordinal(mu, sigma),
        )  # fmt: skip
        stmt = stmt.on_conflict_do_update(
            index_elements=[p.guild_id, p.user_id], set_={"name": stmt.excluded.name}
        )
        async with self.connection.transaction() as db:
            await db.execute(stmt)
