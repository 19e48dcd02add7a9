"""The global ladder: one openskill rating per person over every rated game in every place
(a server, a group DM, a DM), beside each board's own; and the profile that says whether a
person's name is shown on it (hidden by default: docs/privacy.md).

A finished game's new global ratings come worked out from the session (SeatResult's
global_before / global_after) and are written in the finish's transaction (`add`), checked
like the boards' ratings: a rating that changed meanwhile raises StaleRatings."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row, and_, delete, func, select

from bot.domain.values import GameResult, LadderEntry, ordinal

from .errors import StaleRatings
from .schema import global_ratings, profiles
from .sql import upsert_into

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from .connection import Connection

g, pr = global_ratings.c, profiles.c
ORDER = (g.rating.desc(), g.wins.desc(), g.user_id)  # the index's order (schema.py)
# Who is on the ladder, and the name they show (NULL while hidden).
SHOWN = func.nullif(pr.name, "")
ENTRY = select(
    g.user_id, g.games, g.wins, g.mu, g.sigma, g.rating, SHOWN.label("name")
).select_from(global_ratings.outerjoin(profiles, and_(pr.user_id == g.user_id, pr.show_name == 1)))


def to_entry(rank: int, r: Row[Any]) -> LadderEntry:
    return LadderEntry(rank, r.user_id, r.games, r.wins, r.mu, r.sigma, r.name)


async def add(db: AsyncConnection, result: GameResult) -> None:
    """Count one finished game on the global ladder, inside the finish's transaction: every
    seat the session rated there (global_after set). The new rating is written only where
    the stored one is still `global_before`; else StaleRatings rolls the finish back."""
    stmt = upsert_into(global_ratings, db.dialect.name)
    ex = stmt.excluded
    for seat in result.seats:
        if seat.global_after is None or seat.global_before is None:
            continue
        (mu0, sigma0), (mu, sigma) = seat.global_before, seat.global_after
        insert_ = stmt.values(
            user_id=seat.user_id, games=1, wins=int(seat.won), mu=mu, sigma=sigma,
            rating=ordinal(mu, sigma),
        )  # fmt: skip
        row = await db.execute(
            insert_.on_conflict_do_update(
                index_elements=[g.user_id],
                set_={
                    "games": g.games + 1,
                    "wins": g.wins + ex.wins,
                    "mu": ex.mu,
                    "sigma": ex.sigma,
                    "rating": ex.rating,
                },
                where=and_(g.mu == mu0, g.sigma == sigma0),
            ).returning(g.games)
        )
        if row.scalar_one_or_none() is None:
            raise StaleRatings(f"the global rating of player {seat.user_id} changed meanwhile")


async def forget(db: AsyncConnection, user: str) -> int:
    """Delete a person's global rating and profile, inside the forget's transaction."""
    gone = (await db.execute(delete(global_ratings).where(g.user_id == user))).rowcount
    gone += (await db.execute(delete(profiles).where(pr.user_id == user))).rowcount
    return int(gone)


class Ladder:
    def __init__(self, connection: Connection, start_rating: tuple[float, float]) -> None:
        self.connection = connection
        self.start = start_rating

    async def ratings(self, user_ids: Collection[str]) -> dict[str, tuple[float, float]]:
        """(mu, sigma) on the global ladder of each person, the start for one not on it."""
        ids = [str(u) for u in user_ids]
        rows = await self.connection.fetchall(
            select(g.user_id, g.mu, g.sigma).where(g.user_id.in_(ids))
        )
        found = {r.user_id: (r.mu, r.sigma) for r in rows}
        return {u: found.get(u, self.start) for u in ids}

    async def page(self, limit: int, offset: int = 0) -> list[LadderEntry]:
        """One page of the ladder, best first: the page's people found in the index alone."""
        ids = select(g.user_id).where(g.games > 0).order_by(*ORDER).limit(limit).offset(offset)
        query = ENTRY.where(g.user_id.in_(ids.scalar_subquery())).order_by(*ORDER)
        rows = await self.connection.fetchall(query)
        return [to_entry(offset + i + 1, r) for i, r in enumerate(rows)]

    async def count(self) -> int:
        row = await self.connection.fetchone(
            select(func.count()).select_from(global_ratings).where(g.games > 0)
        )
        assert row is not None  # count(*) always answers one row
        return int(row[0])

    async def entry(self, user_id: str) -> LadderEntry | None:
        """A person's place on the ladder, None if they have no rated game there: the rank
        counted from the index (the people ahead), never the ladder sorted."""
        user = str(user_id)
        mine = await self.connection.fetchone(ENTRY.where(g.user_id == user, g.games > 0))
        if mine is None:
            return None
        rating, wins = mine.rating, mine.wins

        def before(*where: Any) -> Any:  # each one range of the index (an OR would scan)
            return (
                select(func.count())
                .select_from(global_ratings)
                .where(g.games > 0, *where)
                .scalar_subquery()
            )

        ahead = (
            before(g.rating > rating)
            + before(g.rating == rating, g.wins > wins)
            + before(g.rating == rating, g.wins == wins, g.user_id < user)
        )
        row = await self.connection.fetchone(select(ahead))
        assert row is not None
        return to_entry(1 + int(row[0]), mine)

    async def profile(self, user_id: str) -> tuple[bool, str] | None:
        """(shows their name, the name) as the person set it; None: never set (hidden)."""
        row = await self.connection.fetchone(
            select(pr.show_name, pr.name).where(pr.user_id == str(user_id))
        )
        return None if row is None else (bool(row.show_name), row.name)

    async def set_profile(self, user_id: str, show: bool, name: str) -> None:
        """Show (with `name`) or hide a person's name on the global ladder. Hidden keeps no
        name. The row is written when they set it, played or not: it is their choice."""
        kept = name if show else ""
        stmt = upsert_into(profiles, self.connection.dialect).values(
            user_id=str(user_id), show_name=int(show), name=kept,
            updated_at=self.connection.clock(),
        )  # fmt: skip
        stmt = stmt.on_conflict_do_update(
            index_elements=[pr.user_id],
            set_={
                "show_name": stmt.excluded.show_name,
                "name": stmt.excluded.name,
                "updated_at": stmt.excluded.updated_at,
            },
        )
        async with self.connection.transaction() as db:
            await db.execute(stmt)
