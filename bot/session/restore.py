"""After a restart: every stored lobby and game registered again, and a game's state read on
its first use (lazy restore: `load`, `due`, `load_all`). A collaborator Sessions owns; it
shares Sessions' registry."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from bot.domain.match import Match
from bot.domain.seats import is_ai
from bot.domain.table_setup import TableSetup
from bot.engine import Game, Rules, from_dict
from bot.storage import GameRow, LiveHead

from . import events as ev
from . import results, retry
from .errors import NoGame
from .lobbies import LobbyOps
from .matches import Matches
from .models import Lobby, Table, board_of, place_of_row, with_moves
from .parts import Parts

log = logging.getLogger(__name__)

# After a restart, the person whose turn it is gets at least this long (seconds) before the bot
# plays for them: their stored deadline may have run out while the bot was down (a deploy), and
# they had no chance to play then.
RESTORE_GRACE = 60.0

# A running game's table with its game read (Restorer.load), as the other collaborators take it.
Load = Callable[[int], Awaitable[Table]]


def ended_state(state: dict[str, Any] | None) -> bool:
    """Whether a stored engine state is of a game that is over (its result is set)."""
    return state is not None and state.get("result") is not None


def table_of(row: GameRow, moves: list[dict[str, Any]], game: Game | None = None) -> Table:
    """A stored game and its moves (or the `game` itself) as a table: the engine's state
    and the session's bookkeeping."""
    session = (row.state or {}).get("session") or {}
    if game is None:
        assert row.state is not None
        game = from_dict(with_moves(row.state, moves))
    forfeited = set(session.get("forfeited", ()))
    # A game read over (after a restart) has its places worked out here, once.
    standing = results.standing(game, forfeited) if game.over else None
    return Table(
        row.id, board_of(row.guild_id, row.channel_id), row.channel_id, row.host_id, game,
        row.version, deadline=row.deadline, place=place_of_row(row.place),
        autos={int(s): int(n) for s, n in session.get("autos", {}).items()},
        away=set(session.get("away", ())),
        forfeited=forfeited,
        match=Match.read(session.get("match")),
        setup=TableSetup.from_dict(row.options),
        hints={int(s): int(n) for s, n in session.get("hints", {}).items()},
        standing=standing,
    )  # fmt: skip


def waits_for_person(table: Table) -> bool:
    seat = table.turn
    if seat is None or is_ai(table.seats[seat]):
        return False
    return seat not in table.away and seat not in table.forfeited


class Restorer:
    def __init__(
        self, parts: Parts, lobby_ops: LobbyOps, matches: Matches, *, restore_grace: float
    ) -> None:
        self.live = parts.live
        self.storage = parts.storage
        self.timers = parts.timers
        self.lobby_ops = lobby_ops
        self.matches = matches
        self.notify = parts.notify
        self.clock = parts.clock
        self.owns = parts.owns
        self.restore_grace = restore_grace
        self.retry_seconds = parts.retry_seconds  # after a timer's game could not be read

    async def restore(self) -> list[int]:
        """Register every stored lobby and game of this process's guilds (`owns`) and re-arm
        their timers from the stored deadlines; finish games that ended before a restart.

        Lazy: a game's state, moves and players' names are read on its first use (`load`: a
        click, a hand, its timer running out), not here. Lobbies are read; so are the states
        (not the moves) of games with no stored deadline, to tell one that ended (read whole
        and finished) from an untimed one. A person whose turn it is gets RESTORE_GRACE from
        now, applied when the game is read."""
        restored = []
        heads = [h for h in await self.storage.games.heads() if self.owns(h.guild_id)]
        lobbies = {h.id for h in heads if h.status == "lobby"}
        untimed = {h.id for h in heads if h.status != "lobby" and h.deadline is None}
        # Three queries for all of them, not three per game: the rows of lobbies and untimed
        # games, the moves of those that ended, the names of those shown now (lobbies) or
        # finished now. The names in other games are read with the game (`load`, `load_all`).
        rows = {r.id: r for r in await self.storage.games.rows(lobbies | untimed)}
        ended = {i for i in untimed if i in rows and ended_state(rows[i].state)}
        moves = await self.storage.games.moves_of(ended)
        boards = {r.id: board_of(r.guild_id, r.channel_id) for r in rows.values()}
        await self._learn_names({(boards[r.id], s) for r in rows.values() for s in r.seats})
        now = self.clock()
        for head in heads:
            try:
                row = rows.get(head.id)
                if head.id in lobbies or head.id in ended:
                    ok = row is not None and await self._restore(row, moves.get(head.id, []))
                elif head.id in untimed:
                    ok = row is not None and self._restore_head(head, self._deadline_of(row), now)
                else:
                    ok = self._restore_head(head, head.deadline, now)
                if ok:
                    restored.append(head.id)
            except Exception:  # its row reads, but not as a lobby or game: set aside
                log.exception("could not restore game %s", head.id)
                await self.set_aside(head.id)
        return restored

    async def set_aside(self, game_id: int) -> None:
        """A stored lobby or game that cannot be read: status broken in storage, so its
        channel is free after every restart and an admin can end it (/steal-admin end-game).
        If even that fails, it is only forgotten here (the next restart tries again)."""
        try:
            await self.storage.games.set_aside([game_id])
        except Exception:
            log.exception("game %s: could not be set aside", game_id)

    def _restore_head(self, head: LiveHead, deadline: float | None, now: float) -> bool:
        """A game registered unread at `now`: routed, and its timer armed."""
        live = self.live
        if head.id in live.tables:
            return True
        if head.channel_id in live.channels:
            log.warning("game %s: channel %s is already taken", head.id, head.channel_id)
            return False
        table = Table(
            head.id, board_of(head.guild_id, head.channel_id), head.channel_id, head.host_id,
            None, head.version, deadline=deadline, setup=TableSetup.from_dict(head.options),
            stored_seats=head.seats, grace=now + self.restore_grace,
            place=place_of_row(head.place),
        )  # fmt: skip
        live.tables[head.id] = table
        live.channels[head.channel_id] = head.id
        self.timers.arm_restored(table, now)
        return True

    def _deadline_of(self, row: GameRow) -> float | None:
        """A game with no stored deadline (not over): its seat to act's, from the stored state
        alone (no moves, no engine)."""
        state = row.state or {}
        playoffs = state["playoffs"]
        seat = (playoffs[-1] if playoffs else state)["turn"]
        if seat is None:
            return None
        session = state.get("session") or {}
        absent = {*session.get("away", ()), *session.get("forfeited", ())}
        setup = TableSetup.from_dict(row.options)
        return self.timers.deadline_of(seat, row.seats[seat], absent, setup)

    async def load(self, game_id: int) -> Table:
        """A running game's table with its game read: a restored game's first use reads its
        state and moves, and so does the first use after a failed or uncertain write (`stale`).
        NoGame if there is none, or if its state cannot be read (logged; the game is set
        aside and dropped)."""
        table = self.live.table(game_id)
        await self._ready(table)
        return table

    def due(self, game_ids: Collection[int]) -> list[int]:
        """Restored games not read yet whose turn runs out within the restart's grace: the
        bot reads them at start-up, so their tables show the time the grace gives at once
        (the others still show what they showed)."""
        return [
            i
            for i in game_ids
            if (t := self.live.tables.get(i)) is not None
            and not t.loaded
            and t.deadline is not None
            and t.grace is not None
            and t.deadline < t.grace
        ]

    async def load_all(self, game_ids: Collection[int]) -> None:
        """`load` for many games at once (three queries), e.g. to show every restored table;
        those that cannot be read are dropped. Lobbies and unknown ids are left alone."""
        tables = self.live.tables
        waiting = [t for i in game_ids if (t := tables.get(i)) is not None and not t.current]
        if not waiting:
            return
        ids = [t.game_id for t in waiting]
        rows = {r.id: r for r in await self.storage.games.rows(ids)}
        moves = await self.storage.games.moves_of(ids)
        await self._learn_names({(t.guild_id, s) for t in waiting for s in t.seats})
        for table in waiting:
            async with table.lock:
                if table.current or tables.get(table.game_id) is not table:  # a click read it
                    continue
                with contextlib.suppress(NoGame):
                    await self._adopt(table, rows.get(table.game_id), moves.get(table.game_id, []))

    async def _ready(self, table: Table) -> None:
        """Read a restored (or stale) table's game, once. NoGame if it cannot be read or
        turns out to be over; a storage error is raised as it is (the next use retries)."""
        if table.current:
            return
        async with table.lock:  # one read, however many clicks wait for it
            if table.current:
                return
            if self.live.tables.get(table.game_id) is not table:  # dropped while we waited
                raise NoGame()
            await self.reread(table)

    async def reread(self, table: Table) -> None:
        """`_ready`'s read, under the table's lock (which the caller holds)."""
        try:
            row = await self.storage.games.get(table.game_id)
        except ValueError as exc:  # its row's JSON does not read
            log.exception("could not restore game %s", table.game_id)
            self.live.drop(table)
            await self.set_aside(table.game_id)
            raise NoGame() from exc
        moves = await self.storage.games.moves(table.game_id)
        await self._learn_names({(table.guild_id, s) for s in table.seats})
        await self._adopt(table, row, moves)

    async def _learn_names(self, seated: set[tuple[int, str]]) -> None:
        """The stored names of these (guild, player), in one query; a name seen since is kept."""
        if not seated:
            return
        for (guild_id, user_id), name in (await self.storage.stats.names_of(seated)).items():
            self.live.names_in(guild_id).setdefault(user_id, name)

    async def timer_ready(self, table: Table) -> None:
        """_ready for a timer that ran out: if storage failed, it tries again later (waiting
        longer each time: retry.py)."""
        try:
            await self._ready(table)
        except NoGame:
            raise
        except Exception:
            retry.failed("reading the game for its timer", table.game_id, table.failures)
            table.deadline = self.clock() + retry.wait(table.failures, self.retry_seconds)
            table.failures += 1
            self.timers.arm(table)
            raise

    async def _adopt(self, table: Table, row: GameRow | None, moves: list[dict[str, Any]]) -> None:
        """A restored or stale table takes its game from its stored row and moves (under its
        lock), and a restored one the grace it was restored with. Raises NoGame, dropping the
        table, if the game has ended in storage, if they do not read (it is set aside), or if
        the game is over (it is finished, as restore() finishes one)."""
        if row is None or row.status not in ("lobby", "active") or row.state is None:
            # Ended meanwhile (cancelled elsewhere): nothing to read.
            log.warning("game %s: no longer live in storage (%s)", table.game_id, row)
            self.live.drop(table)
            raise NoGame()
        try:
            read = table_of(row, moves)
        except Exception as exc:
            log.exception("could not restore game %s", table.game_id)
            self.live.drop(table)
            await self.set_aside(table.game_id)
            raise NoGame() from exc
        stale, table.stale = table.stale, False
        table.game, table.autos, table.away = read.game, read.autos, read.away
        table.forfeited, table.match, table.hints = read.forfeited, read.match, read.hints
        if table.version != row.version or stale:  # what storage holds is what counts
            table.version, table.deadline = row.version, row.deadline
            self.timers.arm(table)
        grace, table.grace = table.grace, None
        if read.game.over:  # restore reads those with no deadline, where an ended one is
            await self._end_restored(table)
            raise NoGame()
        waits = table.deadline is not None and grace is not None and table.deadline < grace
        if waits and waits_for_person(table):  # see RESTORE_GRACE (AI, away: no grace)
            table.deadline = grace
            self.timers.arm(table)

    async def _restore(self, row: GameRow, moves: list[dict[str, Any]]) -> bool:
        """A lobby, or a game read whole: one that ended before the restart, finished now
        (False: it is not restored)."""
        live = self.live
        if row.id in live.lobbies or row.id in live.tables:
            return True
        if row.channel_id in live.channels:
            log.warning("game %s: channel %s is already taken", row.id, row.channel_id)
            return False
        if row.state is None:
            lobby = Lobby(
                row.id, board_of(row.guild_id, row.channel_id), row.channel_id, row.host_id,
                Rules.from_dict(row.rules), list(row.seats), row.max_players, row.deadline,
                Match.read(row.match), TableSetup.from_dict(row.options),
                place=place_of_row(row.place),
            )  # fmt: skip
            self.lobby_ops.add(lobby)
            return True
        table = table_of(row, moves)
        if not table.game.over:  # restore reads no other game whole
            raise ValueError(f"game {row.id} was read whole but is not over")
        # Registered while it is recorded: its channel stays claimed until then.
        live.tables[row.id] = table
        live.channels[row.channel_id] = row.id
        await self._end_restored(table)
        return False

    async def _end_restored(self, table: Table) -> None:
        """A game that ended before a restart (or before a re-read) but was not recorded:
        record it now (or, if storage fails, in the background: Matches.finish)."""
        nxt = await self.matches.finish(table)
        if table.recorded:
            await self.notify(ev.GameOver(table, nxt))
