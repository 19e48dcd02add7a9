"""Deleting people's and servers' data (docs/privacy.md).

A person forgotten: their stats rows (players, rated_games) and their places in past seasons
(season_standings) go; forgotten everywhere (/steal forget-me, not one server's admin), so do
their global rating and profile (global_ratings, profiles). In the games they played
(history, records, game rows and what those games still owe) their id is replaced by
`former:<seat>`, which the screens show as "former player". No display name is kept anywhere
but `players`, `season_standings`, a shown `profiles` name and a season's announcement still
owed (outbox), so their name goes with those rows and is dropped from the announcement.
A server purged: every row of it goes; its players' global ratings stay (they are the
players', earned in every place, and hold no server's id).
Servers the bot was removed from wait in `guild_purges` until their grace is over, so a
restart never loses one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, or_, select, update

from bot.domain.former import former
from bot.domain.tournament.records import RUNNING, SEATED, SIGNUP

from . import ladder
from .errors import StillPlaying, StillSeated
from .schema import (
    anchor_tokens,
    games,
    guild_purges,
    guild_settings,
    hand_tokens,
    history,
    history_players,
    moves,
    outbox,
    players,
    rated_games,
    season_standings,
    seasons,
    stats_backfill,
    tournament_entrants,
    tournament_tables,
    tournaments,
)
from .sql import LIVE, dumps, upsert_into

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from .connection import Connection

USER_ID = re.compile(r"[0-9]{1,20}")  # a Discord user id, as storage keeps it


def check_user(user_id: str | int) -> str:
    user = str(user_id)
    if not USER_ID.fullmatch(user):
        raise ValueError(f"{user!r} is not a Discord user id")
    return user


def swap(value: Any, old: str, new: str) -> Any:
    """`value` (decoded JSON) with every string `old`, as a value or a key, made `new`."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [swap(v, old, new) for v in value]
    if isinstance(value, dict):
        return {(new if k == old else k): swap(v, old, new) for k, v in value.items()}
    return value


def label_in(seats: Sequence[str], user: str) -> str:
    """The id that replaces `user` in a game seated `seats`."""
    return former(list(seats).index(user) + 1) if user in seats else former(0)


def rewrite(text: str | None, old: str, new: str) -> str | None:
    return None if text is None else dumps(swap(json.loads(text), old, new))


@dataclass(frozen=True)
class Forgotten:
    players: int  # stats rows deleted (one a server)
    history: int  # finished games whose record now says "former player"
    games: int  # game rows rewritten (finished and cancelled)


class Forgetting:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def playing(self, user_id: str | int, guild_id: int | None = None) -> list[int]:
        """The lobbies and games under way that seat (or are hosted by) the person."""
        async with self.connection.transaction() as db:
            return [g for g, _ in await _games_of(db, check_user(user_id), guild_id, live=True)]

    async def forget(self, user_id: str | int, guild_id: int | None = None) -> Forgotten:
        """Forget a person, in one server or (guild_id None) every one, in one transaction.
        Raises StillPlaying, changing nothing, while they are seated in a live game."""
        user = check_user(user_id)
        async with self.connection.transaction() as db:
            live = await _games_of(db, user, guild_id, live=True)
            if live:
                raise StillPlaying(user, [g for g, _ in live])
            seated = await _seated(db, user, guild_id)
            if seated:
                raise StillSeated(user, seated)
            gone = delete(players).where(players.c.user_id == user)
            if guild_id is not None:
                gone = gone.where(players.c.guild_id == guild_id)
            deleted = (await db.execute(gone)).rowcount
            rated = delete(rated_games).where(rated_games.c.user_id == user)
            if guild_id is not None:
                rated = rated.where(rated_games.c.guild_id == guild_id)
            await db.execute(rated)
            archived = delete(season_standings).where(season_standings.c.user_id == user)
            if guild_id is not None:
                archived = archived.where(season_standings.c.guild_id == guild_id)
            await db.execute(archived)  # their places in past seasons (the others' stay)
            tokens = delete(hand_tokens).where(hand_tokens.c.user_id == user)
            await db.execute(tokens)  # open hands' tokens: minutes old, of any server
            await db.execute(  # the anchors of their games (a click of theirs may be one)
                delete(anchor_tokens).where(anchor_tokens.c.game_id.in_(_seated_games(user)))
            )
            if guild_id is None:  # the global ladder and the profile are the person's own
                await ladder.forget(db, user)
            kept = await _rewrite_history(db, user, guild_id)
            await _rewrite_tournaments(db, user, guild_id)
            await _scrub_outbox(db, user, guild_id)  # before the games: names go too
            rewritten = 0
            for game_id, seats in await _games_of(db, user, guild_id, live=False):
                await _rewrite_game(db, game_id, user, label_in(seats, user))
                rewritten += 1
            return Forgotten(int(deleted), kept, rewritten)

    async def purge_guild(self, guild_id: int) -> int:
        """Delete every row of a server (and its pending purge); how many rows went."""
        async with self.connection.transaction() as db:
            return await _purge(db, guild_id)

    async def schedule_purge(self, guild_id: int, due_at: float) -> None:
        """The server's data is to go at `due_at`; a purge already pending keeps its date."""
        now = self.connection.clock()
        stmt = upsert_into(guild_purges, self.connection.dialect).values(
            guild_id=guild_id, due_at=due_at, requested_at=now
        )
        async with self.connection.transaction() as db:
            await db.execute(stmt.on_conflict_do_nothing(index_elements=[guild_purges.c.guild_id]))

    async def cancel_purge(self, guild_id: int) -> bool:
        """The bot is back in the server: its data stays. Whether a purge was pending."""
        async with self.connection.transaction() as db:
            result = await db.execute(
                delete(guild_purges).where(guild_purges.c.guild_id == guild_id)
            )
            return bool(result.rowcount)

    async def pending_purges(self) -> dict[int, float]:
        """Every pending purge: guild id -> when it is due."""
        rows = await self.connection.fetchall(
            select(guild_purges.c.guild_id, guild_purges.c.due_at)
        )
        return {r.guild_id: r.due_at for r in rows}


async def _games_of(
    db: AsyncConnection, user: str, guild_id: int | None, *, live: bool
) -> list[tuple[int, list[str]]]:
    """(id, seats) of the games that seat the person or that they host, live or not."""
    g = games.c
    seated = or_(g.seats.like(f'%"{user}"%'), g.host_id == user)  # the digits need no escape
    status = g.status.in_(LIVE) if live else g.status.not_in(LIVE)
    query = select(g.id, g.seats, g.host_id).where(seated, status).order_by(g.id)
    if guild_id is not None:
        query = query.where(g.guild_id == guild_id)
    found = []
    for r in (await db.execute(query)).all():
        seats = json.loads(r.seats)
        if user in seats or r.host_id == user:
            found.append((int(r.id), seats))
    return found


def _seated_games(user: str) -> Any:
    """The ids of every game that seats the person or that they host (a subquery)."""
    g = games.c
    return select(g.id).where(or_(g.seats.like(f'%"{user}"%'), g.host_id == user))


async def _seated(db: AsyncConnection, user: str, guild_id: int | None) -> list[int]:
    """The running tournaments that seat the person at a table whose game has not started
    (its thread not made yet)."""
    t, tt = tournaments.c, tournament_tables.c
    query = (
        select(tt.tournament_id, tt.entrants)
        .select_from(tournament_tables.join(tournaments, t.id == tt.tournament_id))
        .where(tt.status == SEATED, t.status == RUNNING, tt.entrants.like(f'%"{user}"%'))
    )
    if guild_id is not None:
        query = query.where(t.guild_id == guild_id)
    found = {
        r.tournament_id for r in (await db.execute(query)).all() if user in json.loads(r.entrants)
    }
    return sorted(found)


async def _rewrite_history(db: AsyncConnection, user: str, guild_id: int | None) -> int:
    h, hp = history.c, history_players.c
    query = (
        select(h.game_id, h.seats, h.forfeited, h.record)
        .select_from(history_players.join(history, h.game_id == hp.game_id))
        .where(hp.user_id == user)
    )
    if guild_id is not None:
        query = query.where(h.guild_id == guild_id)
    rows = (await db.execute(query)).all()
    for r in rows:
        new = label_in(json.loads(r.seats), user)
        await db.execute(
            update(history)
            .where(h.game_id == r.game_id)
            .values(
                seats=rewrite(r.seats, user, new),
                forfeited=rewrite(r.forfeited, user, new),
                record=rewrite(r.record, user, new),
            )
        )
        await db.execute(delete(history_players).where(hp.game_id == r.game_id, hp.user_id == user))
    return len(rows)


async def _rewrite_game(db: AsyncConnection, game_id: int, user: str, new: str) -> None:
    g = games.c
    row = (
        await db.execute(
            select(g.seats, g.host_id, g.state, g.match, g.options).where(g.id == game_id)
        )
    ).one()
    await db.execute(
        update(games)
        .where(g.id == game_id)
        .values(
            seats=rewrite(row.seats, user, new),
            host_id=new if row.host_id == user else row.host_id,
            state=rewrite(row.state, user, new),
            match=rewrite(row.match, user, new),
            options=rewrite(row.options, user, new),
        )
    )
    o = outbox.c
    for item in (await db.execute(select(o.id, o.payload).where(o.game_id == game_id))).all():
        payload = rewrite(item.payload, user, new)
        await db.execute(update(outbox).where(o.id == item.id).values(payload=payload))


async def _rewrite_tournaments(db: AsyncConnection, user: str, guild_id: int | None) -> None:
    """In each tournament the person signed up for (or hosts), their id becomes a former
    entrant's, numbered apart from the tournament's other former entrants, and they are
    dropped from its later rounds; from one still in sign-up their entry goes. A tournament
    that did not seat them for want of a check-in forgets that they were signed up
    (settings' "no_check_in")."""
    t, e, tt = tournaments.c, tournament_entrants.c, tournament_tables.c
    renamed: dict[int, str] = {}  # tournament id -> the person's former entrant's id there
    query = select(t.id, t.host_id, t.status).where(
        or_(t.host_id == user, t.id.in_(select(e.tournament_id).where(e.entrant == user)))
    )
    if guild_id is not None:
        query = query.where(t.guild_id == guild_id)
    for tid, host, status in (await db.execute(query)).all():
        if status == SIGNUP:  # not seated yet: their entry goes, as a leave's would
            await db.execute(
                delete(tournament_entrants).where(e.tournament_id == tid, e.entrant == user)
            )
        taken = {
            r.entrant
            for r in (await db.execute(select(e.entrant).where(e.tournament_id == tid))).all()
        }
        n = 1
        while former(n) in taken:
            n += 1
        new = renamed[tid] = former(n)
        await db.execute(
            update(tournament_entrants)
            .where(e.tournament_id == tid, e.entrant == user)
            .values(entrant=new, dropped=1)
        )
        if host == user:
            await db.execute(update(tournaments).where(t.id == tid).values(host_id=former(0)))
        rows = (
            await db.execute(
                select(tt.round, tt.table_no, tt.entrants, tt.result).where(tt.tournament_id == tid)
            )
        ).all()
        for r in rows:
            if user not in json.loads(r.entrants):
                continue
            await db.execute(
                update(tournament_tables)
                .where(tt.tournament_id == tid, tt.round == r.round, tt.table_no == r.table_no)
                .values(
                    entrants=rewrite(r.entrants, user, new), result=rewrite(r.result, user, new)
                )
            )
    await _scrub_settings(db, user, guild_id, renamed)


async def _scrub_settings(
    db: AsyncConnection, user: str, guild_id: int | None, renamed: dict[int, str]
) -> None:
    """Every tournament setting that names the person (its champion, the manager who
    cancelled it) names their former entrant there, or "former:0" where they were none; a
    tournament that did not seat them for want of a check-in forgets that they signed up."""
    t = tournaments.c
    named = select(t.id, t.settings).where(t.settings.like("%" + json.dumps(user) + "%"))
    if guild_id is not None:
        named = named.where(t.guild_id == guild_id)
    for tid, text in (await db.execute(named)).all():
        settings = json.loads(text)
        out = settings.get("no_check_in") or []
        if user in out:
            settings["no_check_in"] = [x for x in out if x != user]
        settings = swap(settings, user, renamed.get(tid, former(0)))
        await db.execute(update(tournaments).where(t.id == tid).values(settings=dumps(settings)))


async def _scrub_outbox(db: AsyncConnection, user: str, guild_id: int | None) -> None:
    """Messages still owed that name the person, whoever's game they are owed to: a season's
    announcement (its `top` rows, bot/storage/seasons.py: rank, id, name, mu, sigma) keeps
    their place as "former player" with no name; any other mention of their id (a manager
    who cancelled) becomes a former player's."""
    o, g = outbox.c, games.c
    query = (
        select(o.id, o.payload, g.seats)
        .select_from(outbox.join(games, g.id == o.game_id))
        .where(o.payload.like("%" + json.dumps(user) + "%"))
    )
    if guild_id is not None:
        query = query.where(g.guild_id == guild_id)
    for item in (await db.execute(query)).all():
        payload = json.loads(item.payload)
        if isinstance(payload.get("top"), list):
            payload["top"] = [
                [row[0], former(0), "", *row[3:]] if row[1] == user else row
                for row in payload["top"]
            ]
        payload = swap(payload, user, label_in(json.loads(item.seats or "[]"), user))
        await db.execute(update(outbox).where(o.id == item.id).values(payload=dumps(payload)))


async def _purge(db: AsyncConnection, guild_id: int) -> int:
    of_guild = select(games.c.id).where(games.c.guild_id == guild_id).scalar_subquery()
    of_tournaments = (
        select(tournaments.c.id).where(tournaments.c.guild_id == guild_id).scalar_subquery()
    )
    # A server's finished games are on its board (keyed by its id): the index's range.
    finished = select(history.c.game_id).where(history.c.board_id == guild_id).scalar_subquery()
    statements = (  # children before parents
        delete(tournament_tables).where(tournament_tables.c.tournament_id.in_(of_tournaments)),
        delete(tournament_entrants).where(tournament_entrants.c.tournament_id.in_(of_tournaments)),
        delete(tournaments).where(tournaments.c.guild_id == guild_id),
        delete(outbox).where(outbox.c.game_id.in_(of_guild)),
        delete(hand_tokens).where(hand_tokens.c.game_id.in_(of_guild)),
        delete(anchor_tokens).where(anchor_tokens.c.game_id.in_(of_guild)),
        delete(moves).where(moves.c.game_id.in_(of_guild)),
        delete(history_players).where(history_players.c.game_id.in_(finished)),
        delete(rated_games).where(rated_games.c.guild_id == guild_id),
        delete(stats_backfill).where(stats_backfill.c.guild_id == guild_id),
        delete(history).where(history.c.board_id == guild_id),
        delete(games).where(games.c.guild_id == guild_id),
        delete(players).where(players.c.guild_id == guild_id),
        delete(guild_settings).where(guild_settings.c.guild_id == guild_id),
        delete(season_standings).where(season_standings.c.guild_id == guild_id),
        delete(seasons).where(seasons.c.guild_id == guild_id),
        delete(guild_purges).where(guild_purges.c.guild_id == guild_id),
    )
    total = 0
    for statement in statements:
        total += int((await db.execute(statement)).rowcount)
    return total
