"""What one move costs in our code, beside a button handler that only answers the click and
beside discord.py's own cost of handling the same click (the floor).

    python bench/moves.py [--json] [--games 100] [--players 2] [--seed S] [--postgres URL]

The bot's own code runs for real: the buttons' DynamicItem callbacks, the session layer (the
game's lock, engine, turn timers), the Storage on a SQLite file in a temporary folder, opened
as the bot opens it (and with --postgres, then on a schema of its own on that PostgreSQL
server), rendering, and the presenter with its background task per game, wired by the bot's own
composition root (bot/app.py `build`). Only Discord is stood in for, by `Discord` in
bench/standin.py: each call the bot makes (interaction response, message edit, send, delete) is
built and JSON-encoded with discord.py's own helpers (the CPU a real call spends before the
network) and answered on the event loop's next turn, with no network delay.

GAMES games of PLAYERS players are opened, joined and started through the cog (the /steal new
callback, the Join, Start and My hand buttons) and spread over a game's length: game i is
played on, untimed, i/GAMES of the way, so the moves that re-deal or end a game come at their
natural rate. A game that ends is replaced by a new one in its channel, untimed.

Then come rounds. In a round the player to act in every game clicks one of their hand's move
buttons (a legal move at random: a move is one click), and one player of every game clicks a button
whose handler only answers: `await interaction.response.edit_message(content="ok")`. Each click
is a new interaction handed to the handler in a task of its own, as discord.py does. Two phases:

- at once: all the games' move clicks are handed over together (GAMES handlers in flight), then
  all the trivial clicks, or the other way round in the next round (AB BA AB ...). Everybody
  clicking in the same instant: the worst case for GAMES concurrent games.
- one at a time: the same games, one click in flight, a move and a trivial click taking turns;
  each click comes once the previous one and its background work are done. What a move costs
  when it waits for nobody. Before each move, the floor: the very same click (its custom_id,
  the hand message as the player sees it) handed to discord.py alone, from the gateway frame
  to the answer's HTTP request, with a button that only answers (bench/floor.py). "our move /
  floor" is the issue's measure: our cost per move over discord.py's cost of the same click.

Timed, per click, with time.perf_counter: from entering the button's callback (its family's
DynamicItem, built from the custom_id as discord.py builds it) to its return, which is when the
response has been sent. For a move:
the player's name check, the hand's legal moves, the game's lock, engine apply, the commit to
SQLite, arming the turn timer, the session event for the presenter, rendering the new hand and
building, encoding and sending the response. Only clicks that played a move count, and a click
the bot refused or an error logged fails the run ("unexpected" must be 0). At once, the
figures include waiting for the other games' work: one event loop, and one SQLite connection
that commits one transaction at a time.

Counted in every phase: the database's write transactions (storage's `transaction`, and on
SQLite the driver's own), with the bot's function that asked for each, during the move clicks
and their background work; the moves that dealt new hands or ended a game beside them.

Not in the move figures, timed on their own: the presenter's background work after a move.
"table update" is one table message edit (the picture, drawn in a thread unless cached, the
card and the call); "presenter flush" is all
of it for the move: the table, the turn ping (delete, send, save its id) and the next player's
hand. It shares the event loop and the database with the moves, as in production.

Not included: Discord's network round trip (a real handler also waits for it before it
returns); and in the move and trivial figures, discord.py's gateway parsing and routing of the
click, which come before the handler is entered (the floor is exactly that). Why not
SimCord: its actors cannot act concurrently, it settles for at least 50 ms after each action,
and with settling bypassed its tracking of every callback the bot schedules dominated the
figures and grew with the number of games (100 games gave 62 moves/s at once where 10 gave
149; a trivial click cost 0.4 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import json
import logging
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from floor import Floor  # bench/, beside this script
from standin import GUILD, REFUSED, Bot, Interaction, Message, User, make_bot

from bot.adapter.buttons import FAMILIES
from bot.engine import preset
from bot.engine.playout import random_game
from bot.session import Sessions
from bot.storage import parse
from bot.ui import ids
from cogs.steal import Steal

TRIVIAL = "bench:ok"  # the trivial button's custom_id (not one the bot could have sent)
AT_ONCE, ONE_BY_ONE = "at_once", "one_at_a_time"
# Set per click by Probe.on_button; Probe.play marks it when a move was played. A dict, so the
# mark made in the task the cog plays the move in (it gets a copy of the context) is seen here.
PLAYED: contextvars.ContextVar[dict[str, bool]] = contextvars.ContextVar("played")


# ----- timing


class Probe(logging.Handler):
    """Clicks buttons as discord.py does (the family's item built from the custom_id, then its
    callback) and wraps Sessions.play and two presenter methods, on the instances (the bot's
    code is unchanged). Keeps the timings, and what went wrong: errors logged, and clicks the
    bot answered with a refusal or an error (an ephemeral answer that is not a hand)."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(logging.ERROR)
        logging.getLogger().addHandler(self)
        assert bot.app is not None
        self.problems = REFUSED
        self.phase: str | None = None  # where samples go; None: not recording
        self.samples: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.first_entry = self.last_return = 0.0
        self.presenter = bot.app.presenter
        sessions = bot.app.sessions
        self._play = sessions.play
        worker = self.presenter.worker  # the presenter's part that sends the tables
        self._send_table, self._flush = worker._send_table, worker._flush
        sessions.play = self.play  # type: ignore[method-assign]
        worker._send_table = self.timed_send_table  # type: ignore[method-assign]
        worker._flush = self.timed_flush  # type: ignore[method-assign]
        # Write transactions, per phase and by the code that asked for them.
        self.writes: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.deals: dict[str, int] = defaultdict(int)  # moves that dealt new hands, per phase
        self.ends: dict[str, int] = defaultdict(int)  # moves that ended a game, per phase
        connection = sessions.storage.connection
        for name in ("transaction", "driver_transaction", "driver", "on_loop"):
            if name != "transaction" and connection.writer is None:
                continue  # PostgreSQL: only transaction()
            setattr(connection, name, self.counted(getattr(connection, name)))

    def emit(self, record: logging.LogRecord) -> None:
        self.problems.append(record.getMessage())

    def record(self, kind: str, seconds: float) -> None:
        if self.phase is not None:
            self.samples[(self.phase, kind)].append(seconds)

    async def on_button(self, interaction: Interaction, custom_id: str) -> None:
        item = None
        for family in FAMILIES:  # built before the clock starts, as discord.py does
            match = family.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None:
                button = discord.ui.Button(custom_id=custom_id)  # type: ignore[var-annotated]
                item = family.of(button, match)  # type: ignore[arg-type]
                break
        started = time.perf_counter()
        self.first_entry = self.first_entry or started
        mark = {"played": False}
        token = PLAYED.set(mark)
        try:
            if item is None:
                await interaction.response.edit_message(content="ok")
                kind = "trivial"
            else:
                await item.callback(interaction)  # type: ignore[attr-defined]
                kind = "move" if mark["played"] else "other"
        finally:
            PLAYED.reset(token)
        self.last_return = time.perf_counter()
        self.record(kind, self.last_return - started)

    async def play(self, *args: Any, **kwargs: Any) -> Any:
        played = await self._play(*args, **kwargs)
        mark = PLAYED.get(None)
        if mark is not None:
            mark["played"] = True
        if self.phase is not None:
            self.deals[self.phase] += any(e["type"] == "hands_dealt" for e in played.events)
            self.ends[self.phase] += played.ended
        return played

    def counted(self, opened: Any) -> Any:
        """A write transaction of storage's connection (transaction, or on SQLite the
        driver's own), counted for the phase with the bot's function that asked for it."""

        @contextlib.asynccontextmanager
        async def counting() -> Any:
            if self.phase is not None:
                self.writes[self.phase][asker()] += 1
            async with opened() as db:
                yield db

        return counting

    async def timed_send_table(self, ch: Any) -> None:
        started = time.perf_counter()
        await self._send_table(ch)
        self.record("table_update", time.perf_counter() - started)

    async def timed_flush(self, ch: Any) -> None:
        started = time.perf_counter()
        await self._flush(ch)
        self.record("presenter_flush", time.perf_counter() - started)

    async def presenter_idle(self) -> None:
        while workers := [
            ch.worker
            for ch in self.presenter.channels.values()
            if ch.worker is not None and not ch.worker.done()
        ]:
            await asyncio.wait(workers)
        while edits := set(self.presenter.hands.edits):  # tokens stored, older hands deleted
            await asyncio.wait(edits)


def asker() -> str:
    """The first function outside storage (and the libraries) on the stack: who writes."""
    frame: Any = sys._getframe(1)
    while frame is not None:
        path = frame.f_code.co_filename
        if "/bot/" in path and "/bot/storage/" not in path and not path.endswith("/bot/app.py"):
            return f"{path.rpartition('/bot/')[2]}:{frame.f_code.co_name}"
        frame = frame.f_back
    return "?"


# ----- the bench


class Game:
    """One channel, its players and the messages they click."""

    def __init__(self, channel_id: int, users: list[User]) -> None:
        self.channel_id, self.users = channel_id, users
        self.game_id = -1
        self.table: Message | None = None  # the lobby message, which becomes the table
        self.hands: dict[str, Message] = {}  # player id -> their hand message
        self.trivial: Message | None = None


Click = tuple[User, int, Message | None, str]  # who, channel, the message clicked, custom_id


class Bench:
    def __init__(self, bot: Bot, args: argparse.Namespace) -> None:
        assert bot.app is not None
        self.bot, self.args = bot, args
        self.sessions: Sessions = bot.app.sessions
        self.wire = bot.wire
        self.rng = random.Random(args.seed)
        self.probe = Probe(bot)
        self.floor, self.floor_clicks = Floor(), 0
        self.games: list[Game] = []
        self.rates: dict[str, list[float]] = defaultdict(list)  # clicks/s per round, at once

    # ----- clicking

    async def click(self, click: Click) -> Interaction:
        user, channel_id, message, custom_id = click
        made = Interaction(self.bot, user, channel_id, message, custom_id)
        await asyncio.create_task(self.probe.on_button(made, custom_id))
        return made

    async def together(self, clicks: list[Click], phase: str | None = None) -> list[Interaction]:
        """All the clicks in flight at once; returns once they and their background work are
        done."""
        self.probe.phase, self.probe.first_entry = phase, 0.0
        made = await asyncio.gather(*(self.click(c) for c in clicks))
        if phase is not None:
            seconds = self.probe.last_return - self.probe.first_entry
            self.rates[phase].append(len(clicks) / seconds)
        await self.probe.presenter_idle()
        self.probe.phase = None
        return made

    async def one_by_one(self, clicks: list[tuple[str, Click, str | None]]) -> None:
        """Each click once the previous one and its background work are done. A floor click
        is the same click handed to discord.py alone (bench/floor.py)."""
        for kind, click, phase in clicks:
            self.probe.phase = phase
            if kind == "floor":
                self.floor_click(click, await self.floor.click(self.frame(click)))
            else:
                await self.click(click)
            await self.probe.presenter_idle()
        self.probe.phase = None

    def frame(self, click: Click) -> bytes:
        user, channel_id, message, custom_id = click
        assert message is not None
        shown = {"id": message.id, **self.wire.shown[message.id]}
        return self.floor.frame(user.id, GUILD, channel_id, shown, custom_id)

    def floor_click(self, click: Click, seconds: float) -> None:
        self.probe.record("floor", seconds)
        if len(self.floor.session.requests) != self.floor_clicks + 1:  # it did not answer
            self.probe.problems.append(f"the floor did not answer {click[3]}")
        self.floor_clicks = len(self.floor.session.requests)

    # ----- setting up (untimed)

    async def start(self, games: list[Game], offsets: list[int]) -> None:
        """/steal new, Join, Start; play each game `offset` moves on through the session layer;
        then every player clicks My hand."""
        rules = app_commands.Choice(name=self.args.rules, value=self.args.rules)
        cog = Steal()
        for game in games:
            made = Interaction(self.bot, game.users[0], game.channel_id, None, "")
            await cog.new.callback(cog, made, rules, self.args.players)  # type: ignore[arg-type]
            game.table = made.sent
            live = self.sessions.live_in(game.channel_id)
            assert live is not None, self.probe.problems
            game.game_id = live.game_id
        for op, who in (("join", slice(1, None)), ("start", slice(0, 1))):
            await self.together(
                [
                    (u, g.channel_id, g.table, ids.lobby(op, g.game_id))
                    for g in games
                    for u in g.users[who]
                ]
            )
        await asyncio.gather(*(self.advance(g, n) for g, n in zip(games, offsets, strict=True)))
        await self.probe.presenter_idle()
        hands = [(g, u) for g in games for u in g.users]
        made = await self.together(
            [(u, g.channel_id, g.table, ids.table("hand", g.game_id)) for g, u in hands]
        )
        for (game, user), interaction in zip(hands, made, strict=True):
            assert interaction.sent is not None, self.probe.problems
            game.hands[str(user.id)] = interaction.sent
        for game in games:
            game.trivial = game.trivial or Message(self.wire, next(self.wire.ids))

    async def advance(self, game: Game, moves: int) -> None:
        for _ in range(moves):
            table = self.sessions.table(game.game_id)
            move = self.rng.choice(table.hand(table.turn).legal)
            await self.sessions.play(game.game_id, table.seats[table.turn], move, table.version)

    async def setup(self) -> None:
        per_game = len(random_game(preset(self.args.rules), self.args.players, 0).moves)
        n, p = self.args.games, self.args.players
        self.games = [
            Game(1000 + i, [User(10_000 + i * p + seat) for seat in range(p)]) for i in range(n)
        ]
        self.floor.join(GUILD, [g.channel_id for g in self.games])
        await self.start(self.games, [i * (per_game - 1) // n for i in range(n)])

    # ----- rounds

    async def round(self, name: str, n: int, recording: bool) -> None:
        moves: list[Click] = []
        for game in self.games:
            table = self.sessions.table(game.game_id)
            user = table.seats[table.turn]
            legal = table.hand(table.turn).legal
            who = next(u for u in game.users if str(u.id) == user)
            where, gid, v = (game.channel_id, game.hands[user]), game.game_id, table.version
            moves.append((who, *where, ids.move(gid, v, self.rng.choice(legal))))
        trivial = [
            (g.users[self.rng.randrange(len(g.users))], g.channel_id, g.trivial, TRIVIAL)
            for g in self.games
        ]
        sides = [("move", moves), ("trivial", trivial)]
        if name == AT_ONCE:
            for kind, clicks in sides if n % 2 == 0 else sides[::-1]:
                await self.together(clicks, f"{name}/{kind}" if recording else None)
        else:
            turns = []
            for i, (move, click) in enumerate(zip(moves, trivial, strict=True)):
                # The move's own click handed to discord.py alone (the floor) comes first: it
                # must see the hand as the move does. Move and trivial take turns after it.
                pair = [("move", move), ("trivial", click)]
                for kind, each in [("floor", move), *(pair if (i + n) % 2 == 0 else pair[::-1])]:
                    turns.append((kind, each, f"{name}/{kind}" if recording else None))
            await self.one_by_one(turns)
        ended = [g for g in self.games if g.game_id not in self.sessions.tables]
        if ended:
            await self.start(ended, [0] * len(ended))

    async def phase(self, name: str, samples: int, warmup: int) -> None:
        for n in range(warmup + -(-samples // self.args.games)):
            await self.round(name, n, recording=n >= warmup)

    async def run(self) -> dict[str, Any]:
        started = time.perf_counter()
        await self.setup()
        await self.phase(AT_ONCE, self.args.samples, self.args.warmup)
        if self.args.one_by_one:
            await self.phase(ONE_BY_ONE, self.args.one_by_one, 1)
        figures: dict[str, Any] = {
            "games": self.args.games,
            "players": self.args.players,
            "rules": self.args.rules,
            "seed": self.args.seed,
        }
        for name in (AT_ONCE, ONE_BY_ONE):
            if self.probe.samples[(f"{name}/move", "move")]:
                figures[name] = self.figures(name)
        other = sum(len(v) for (_, kind), v in self.probe.samples.items() if kind == "other")
        figures["unexpected"] = other + len(self.probe.problems)
        figures["seconds"] = round(time.perf_counter() - started, 1)
        for problem in self.probe.problems[:5]:
            print(f"problem: {problem}", file=sys.stderr)
        return figures

    def figures(self, name: str) -> dict[str, Any]:
        def ms(values: list[float]) -> dict[str, Any]:
            p99 = statistics.quantiles(values, n=100, method="inclusive")[98]
            return {
                "n": len(values),
                "median_ms": round(statistics.median(values) * 1e3, 3),
                "p99_ms": round(p99 * 1e3, 3),
            }

        s = self.probe.samples
        move, trivial = ms(s[(f"{name}/move", "move")]), ms(s[(f"{name}/trivial", "trivial")])
        if name == AT_ONCE:
            move["per_s"] = round(statistics.median(self.rates[f"{name}/move"]))
            trivial["per_s"] = round(statistics.median(self.rates[f"{name}/trivial"]))
        figures = {
            "move": move,
            "trivial": trivial,
            "ratio_median": round(move["median_ms"] / trivial["median_ms"], 1),
            "ratio_p99": round(move["p99_ms"] / trivial["p99_ms"], 1),
            "table_update": ms(s[(f"{name}/move", "table_update")]),
            "presenter_flush": ms(s[(f"{name}/move", "presenter_flush")]),
        }
        moves = len(s[(f"{name}/move", "move")])
        writes = self.probe.writes[f"{name}/move"]
        figures["writes"] = {
            "per_move": round(sum(writes.values()) / moves, 3),
            "total": sum(writes.values()),
            "moves": moves,
            "deals": self.probe.deals[f"{name}/move"],
            "ends": self.probe.ends[f"{name}/move"],
            "by": dict(sorted(writes.items(), key=lambda kv: -kv[1])),
        }
        if s[(f"{name}/floor", "floor")]:  # one at a time: the same clicks, discord.py alone
            floor = figures["floor"] = ms(s[(f"{name}/floor", "floor")])
            figures["floor_ratio_median"] = round(move["median_ms"] / floor["median_ms"], 2)
            figures["floor_ratio_p99"] = round(move["p99_ms"] / floor["p99_ms"], 2)
        return figures


async def bench(args: argparse.Namespace, server: str | None = None) -> dict[str, Any]:
    """The bench on a SQLite file in a temporary folder, or on a fresh schema of the
    PostgreSQL `server` (dropped afterwards)."""
    REFUSED.clear()
    with tempfile.TemporaryDirectory(prefix="bench-moves-") as folder:
        schema = f"bench_moves_{uuid.uuid4().hex[:12]}"
        database = str(Path(folder) / "bot.db")
        if server is not None:
            database = f"{server}{'&' if '?' in server else '?'}search_path={schema}"
        bot = await make_bot(database, args.seed)
        bench = Bench(bot, args)
        try:
            return await bench.run()
        finally:
            logging.getLogger().removeHandler(bench.probe)
            assert bot.app is not None
            await bot.app.close()
            if server is not None:
                await drop_schema(server, schema)


async def drop_schema(server: str, schema: str) -> None:
    import asyncpg

    dsn = parse(server).url.set(drivername="postgresql").render_as_string(hide_password=False)
    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await connection.close()


def table(figures: dict[str, Any]) -> str:
    lines = [
        f"{figures['games']} games of {figures['players']} players ({figures['rules']} rules),"
        f" seed {figures['seed']}; ms from entering the button handler to its response",
        f"{'':32}{'n':>6}{'median':>10}{'p99':>10}{'per s':>8}",
    ]
    titles = {
        AT_ONCE: f"all {figures['games']} games click at once",
        ONE_BY_ONE: f"one click at a time ({figures['games']} games open)",
    }
    for name, title in titles.items():
        f = figures.get(name)
        if f is None:
            continue
        lines.append(title)
        rows: list[tuple[str, Any]] = [
            ("our move", f["move"]),
            ("trivial handler", f["trivial"]),
            ("ratio", ("ratio_median", "ratio_p99")),
        ]
        if "floor" in f:
            rows += [
                ("floor: discord.py, same click", f["floor"]),
                ("our move / floor", ("floor_ratio_median", "floor_ratio_p99")),
            ]
        rows += [
            ("background: table update", f["table_update"]),
            ("background: presenter flush", f["presenter_flush"]),
        ]
        for label, row in rows:
            if isinstance(row, tuple):
                ratios = f"{f[row[0]]:>9.2f}x{f[row[1]]:>9.2f}x"
                lines.append(f"  {label:30}{'':6}{ratios}")
                continue
            rate = f"{row['per_s']:>8}" if "per_s" in row else ""
            lines.append(
                f"  {label:30}{row['n']:>6}{row['median_ms']:>10.2f}{row['p99_ms']:>10.2f}{rate}"
            )
        w = f["writes"]
        lines.append(
            f"  database writes per move: {w['per_move']:.2f} ({w['total']} write transactions"
            f" for {w['moves']} moves, of which {w['deals']} dealt and {w['ends']} ended a game)"
        )
        lines += [f"    {count:>6}  {who}" for who, count in w["by"].items()]
    lines.append(
        f"unexpected clicks: {figures['unexpected']}; {figures['seconds']} s."
        " A shared, noisy machine: compare figures within one run."
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games in play (default 100)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--rules", default="standard", help="a preset (default standard)")
    parser.add_argument(
        "--samples", type=int, default=3000, help="timed clicks per side, at once (default 3000)"
    )
    parser.add_argument(
        "--one-by-one",
        type=int,
        default=2000,
        help="timed clicks per side, one at a time (default 2000; 0: skip that phase)",
    )
    parser.add_argument("--warmup", type=int, default=2, help="untimed rounds at once")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="also run on this PostgreSQL server (a schema of its own), after SQLite",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    preset(args.rules)  # an unknown preset fails here, before any setup
    logging.basicConfig(level=logging.WARNING)
    figures = asyncio.run(bench(args))
    if args.postgres is None:
        print(json.dumps(figures) if args.json else table(figures))
        runs = [figures]
    else:
        runs = [figures, asyncio.run(bench(args, args.postgres))]
        if args.json:
            print(json.dumps(dict(zip(("sqlite", "postgresql"), runs, strict=True))))
        else:
            for name, each in zip(("SQLite", "PostgreSQL"), runs, strict=True):
                print(f"== {name}\n{table(each)}")
    if any(each["unexpected"] for each in runs):
        raise SystemExit("some clicks went wrong (see above): these figures are not valid")


if __name__ == "__main__":
    main()
