"""A server's leaderboard seasons: the season under way, the archive of the ones that ended,
and ending one, in one transaction: its board archived, every rating soft-reset and every total
back to 0, the next season begun, and its announcement owed in the outbox.

Storage saves, it does not decide: the soft reset (bot.domain.ratings.soft_reset) and the
announcement's kind come from the session layer."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, delete, func, select, update

from bot.domain.values import PlayerStats, Season, SeasonEnd, Standing, ordinal

from .schema import games, guild_settings, history, players, rated_games, season_standings
from .schema import seasons as seasons_table
from .sql import encode_owed, insert_owed, upsert_into

if TYPE_CHECKING:
    from .connection import Connection

s = seasons_table.c
a = season_standings.c
p = players.c
Reset = Callable[[float, float], tuple[float, float]]
SEASON_LENGTH = "season_length"  # the setting (bot.domain.server_settings): weeks, 0 off
STATS = ("games", "wins", "cards", "steals", "biggest_steal")
ARCHIVED = (a.guild_id, a.user_id, a.name, a.games, a.wins, a.cards, a.steals, a.biggest_steal,
            a.mu, a.sigma)  # fmt: skip
# The players' new ratings and totals back to 0, one row at a time (executemany).
RESET = (
    update(players)
    .where(p.guild_id == bindparam("g"), p.user_id == bindparam("u"))
    .values(
        mu=bindparam("mu"), sigma=bindparam("sigma"), rating=bindparam("r"),
        **{column: 0 for column in STATS},
    )
)  # fmt: skip


def game_lang(options: str | None) -> str | None:
    """The language a game's public messages are in (its stored options' `lang`)."""
    try:
        lang = json.loads(options or "{}").get("lang")
    except (ValueError, AttributeError):
        return None
    return lang if isinstance(lang, str) else None


def to_season(row: Any) -> Season:
    return Season(int(row.guild_id), int(row.number), float(row.started_at), row.ended_at)


def to_standing(row: Any) -> Standing:
    m = row._mapping
    return Standing(int(m["rank"]), PlayerStats(**{c.name: m[c.name] for c in ARCHIVED}))


class Seasons:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def current(self, guild_id: int) -> Season | None:
        """The season under way; None if the server never had one (its board is season 1)."""
        row = await self.connection.fetchone(
            select(seasons_table)
            .where(s.guild_id == guild_id, s.ended_at.is_(None))
            .order_by(s.number.desc())
            .limit(1)
        )
        return to_season(row) if row else None

    async def begin(self, guild_id: int, now: float) -> Season:
        """The season under way, season 1 begun `now` if the server has none: a timed season's
        due time is worked out from its stored start, so a restart never moves it."""
        current = await self.current(guild_id)
        if current is not None:
            return current
        first = upsert_into(seasons_table, self.connection.dialect).values(
            guild_id=guild_id, number=1, started_at=now
        )
        async with self.connection.transaction() as db:
            await db.execute(first.on_conflict_do_nothing())  # another process was first
        found = await self.current(guild_id)
        assert found is not None, "season 1 was just begun"
        return found

    async def past(self, guild_id: int) -> list[Season]:
        """The seasons that ended, newest first."""
        rows = await self.connection.fetchall(
            select(seasons_table)
            .where(s.guild_id == guild_id, s.ended_at.is_not(None))
            .order_by(s.number.desc())
        )
        return [to_season(r) for r in rows]

    async def timed(self) -> dict[int, int]:
        """Every server with timed seasons: guild id -> its season length in weeks."""
        g = guild_settings.c
        rows = await self.connection.fetchall(
            select(g.guild_id, g.value).where(g.key == SEASON_LENGTH)
        )
        out = {}
        for row in rows:
            try:
                weeks = int(json.loads(row.value))
            except (TypeError, ValueError):
                continue  # an unreadable value: as off
            if weeks > 0:
                out[int(row.guild_id)] = weeks
        return out

    async def standings(
        self, guild_id: int, season: int, limit: int | None = 10, offset: int = 0
    ) -> list[Standing]:
        """One page of an ended season's board, as it stood."""
        rows = await self.connection.fetchall(
            select(a.rank, *ARCHIVED)
            .where(a.guild_id == guild_id, a.season == season)
            .order_by(a.rank)
            .limit(limit)
            .offset(offset)
        )
        return [to_standing(r) for r in rows]

    async def standing(self, guild_id: int, season: int, user_id: str) -> Standing | None:
        row = await self.connection.fetchone(
            select(a.rank, *ARCHIVED).where(
                a.guild_id == guild_id, a.season == season, a.user_id == str(user_id)
            )
        )
        return to_standing(row) if row else None

    async def count(self, guild_id: int, season: int) -> int:
        row = await self.connection.fetchone(
            select(func.count())
            .select_from(season_standings)
            .where(a.guild_id == guild_id, a.season == season)
        )
        assert row is not None
        return int(row[0])

    async def medals(self, guild_id: int, user_id: str) -> tuple[int, int, int]:
        """How many seasons the player ended first, second and third."""
        rows = await self.connection.fetchall(
            select(a.rank, func.count().label("n"))
            .where(a.guild_id == guild_id, a.user_id == str(user_id), a.rank <= 3)
            .group_by(a.rank)
        )
        counts = {int(r.rank): int(r.n) for r in rows}
        return counts.get(1, 0), counts.get(2, 0), counts.get(3, 0)

    async def end(
        self,
        guild_id: int,
        number: int,
        now: float,
        reset: Reset,
        owed: tuple[str, Mapping[str, Any]] | None = None,
        top: int = 3,
    ) -> SeasonEnd | None:
        """End season `number` of the server, in one transaction: its board (every player with
        a game this season, in the board's rating order) archived; every player's rating
        `reset(mu, sigma)` and their totals and stats card rows gone, as a board reset does;
        season number + 1 begun `now`; and, if `owed` (kind, payload) and the server had a
        game, the announcement owed to the channel of its latest game, its payload with the
        season's number and `top` players added. None, changing nothing, if that season is
        not the one under way (it ended already: a retry, another process, a second click).
        Season 1 is stored as it ends if it never was (started at the server's first game)."""
        async with self.connection.transaction() as db:
            if number == 1:
                first_game = (
                    select(func.min(history.c.finished_at))
                    .where(history.c.board_id == guild_id)
                    .scalar_subquery()
                )
                start = func.coalesce(first_game, now)
                first = upsert_into(seasons_table, self.connection.dialect).values(
                    guild_id=guild_id, number=1, started_at=start
                )
                await db.execute(first.on_conflict_do_nothing())
            ended = await db.execute(
                update(seasons_table)
                .where(s.guild_id == guild_id, s.number == number, s.ended_at.is_(None))
                .values(ended_at=now)
            )
            if ended.rowcount == 0:
                return None
            board = (
                await db.execute(
                    select(*(getattr(p, c.name) for c in ARCHIVED))
                    .where(p.guild_id == guild_id, p.games > 0)
                    .order_by(p.rating.desc(), p.wins.desc(), p.user_id)
                    .with_for_update()
                )
            ).all()
            archive = [
                {**row._mapping, "season": number, "rank": rank}
                for rank, row in enumerate(board, start=1)
            ]
            if archive:
                await db.execute(season_standings.insert(), archive)
            rated = (
                await db.execute(
                    select(p.user_id, p.mu, p.sigma).where(p.guild_id == guild_id).with_for_update()
                )
            ).all()
            resets = []
            for row in rated:
                mu, sigma = reset(row.mu, row.sigma)
                resets.append({"g": guild_id, "u": row.user_id, "mu": mu, "sigma": sigma,
                               "r": ordinal(mu, sigma)})  # fmt: skip
            if resets:
                await db.execute(RESET, resets)
            await db.execute(delete(rated_games).where(rated_games.c.guild_id == guild_id))
            await db.execute(
                seasons_table.insert().values(guild_id=guild_id, number=number + 1, started_at=now)
            )
            standings = tuple(
                Standing(r["rank"], PlayerStats(**{c.name: r[c.name] for c in ARCHIVED}))
                for r in archive[:top]
            )
            latest = (
                await db.execute(
                    select(games.c.id, games.c.channel_id, games.c.options)
                    .where(games.c.guild_id == guild_id)
                    .order_by(games.c.id.desc())
                    .limit(1)
                )
            ).first()
            game_id = None if latest is None else int(latest.id)
            channel_id = None if latest is None else int(latest.channel_id)
            item, said = None, {}
            if owed is not None and latest is not None and standings:
                kind, payload = owed
                said = {
                    **payload, "guild_id": guild_id, "channel_id": channel_id, "season": number,
                    "players": len(archive), "game_lang": game_lang(latest.options),
                    "top": [[x.rank, x.player.user_id, x.player.name, x.player.mu,
                             x.player.sigma] for x in standings],
                }  # fmt: skip
                [item] = await insert_owed(db, int(latest.id), encode_owed([(kind, said)]), now)
            return SeasonEnd(
                guild_id, number, standings, game_id, channel_id, len(archive), item, said
            )
