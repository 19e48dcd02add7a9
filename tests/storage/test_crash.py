import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.engine import from_dict, replay, to_dict
from bot.session.models import with_moves
from bot.storage import Storage
from tests.engine.helpers import record_moves
from tests.support.backends import drop_schema, new_schema_url, require_postgres

from .play import moves_in

WRITER = Path(__file__).with_name("crash_writer.py")
ROOT = Path(__file__).parents[2]
RUNS = 5

# The storage as the bot opens it (see tests/conftest.py); several seconds of a subprocess.
pytestmark = [pytest.mark.durable, pytest.mark.slow]


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """Where the writer saves: a SQLite file, or a schema of its own on the PostgreSQL server."""
    if request.param == "sqlite":
        yield str(tmp_path / "steal.db")
        return
    require_postgres()
    url, schema = new_schema_url()
    yield url
    drop_schema(schema)


class Writers:
    """The writer forked off one process that has done the imports (crash_writer.py --fork):
    each writer starts in milliseconds, not a second of imports, and is killed just the same."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, str(WRITER), "--fork"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        assert self.said() == "imported"

    def said(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().strip()

    def order(self, *words: object) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(words) + "\n")
        self.proc.stdin.flush()
        return self.said()

    def start(self, database: str, seed: int, out: Path) -> int:
        return int(self.order(database, seed, str(out)))

    def kill(self, pid: int) -> None:
        os.kill(pid, signal.SIGKILL)
        assert self.order("reap", pid) == "reaped"  # gone, its files closed

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.fixture
def writers():
    made = Writers()
    yield made
    made.close()


def run_and_kill(
    writers: Writers, database: str, out: Path, seed: int, after: float, wait_ready: bool = True
) -> list[list[str]]:
    """Start the writer and SIGKILL it `after` seconds into its saving (or, without
    `wait_ready`, into its start-up); return its complete output lines."""
    out.touch()
    pid = writers.start(database, seed, out)
    try:
        deadline = time.monotonic() + 15
        while wait_ready and b"ready" not in out.read_bytes():
            assert b"Traceback" not in out.read_bytes(), out.read_text()
            assert time.monotonic() < deadline, "the writer never got ready"
            time.sleep(0.01)
        time.sleep(after)
    finally:
        writers.kill(pid)
    text = out.read_text()
    # A line cut off by the kill has no newline yet, and was not reported.
    return [line.split() for line in text[: text.rfind("\n") + 1].splitlines()]


async def test_killed_mid_write_the_database_holds_every_reported_move_and_nothing_torn(
    database, tmp_path, writers
):
    rng = random.Random(20261129)
    moves_reported, finished_reported = set(), set()
    # First a kill during start-up, perhaps while the new database is being created.
    run_and_kill(
        writers, database, tmp_path / "start.txt", 99, rng.uniform(0.05, 0.4), wait_ready=False
    )
    for run in range(RUNS):
        lines = run_and_kill(
            writers, database, tmp_path / f"out{run}.txt", run, rng.uniform(0.2, 1.0)
        )
        moves_reported |= {(int(g), int(n)) for kind, g, n in (x for x in lines if len(x) == 3)}
        finished_reported |= {int(x[1]) for x in lines if x[0] == "finished"}
        await check(database, moves_reported, finished_reported)
    assert len(moves_reported) > 20, "the writer was killed before it saved much"


async def check(database: str, moves_reported: set, finished_reported: set) -> None:
    storage = await Storage.open(database)
    try:
        if storage.dialect == "sqlite":
            assert (await storage.fetchone("PRAGMA integrity_check"))[0] == "ok"
        saved = {(r[0], r[1]) for r in await storage.fetchall("SELECT game_id, n FROM moves")}
        games = await storage.fetchall("SELECT id, status, version, state FROM games")
        for game_id, status, version, state in games:
            numbers = sorted(n for g, n in saved if g == game_id)
            if status == "finished":  # only its history record is left, holding its moves
                assert numbers == [] and state is None
                record = (await storage.history.get(game_id)).record
                saved |= {(game_id, n) for n in range(1, len(record_moves(record)) + 1)}
                game = replay(record)
            else:
                state = json.loads(state)
                assert sum(state["moved"]) == version
                assert numbers == list(range(1, version + 1)), f"game {game_id}"
                game = from_dict(with_moves(state, await storage.games.moves(game_id)))
            assert moves_in(to_dict(game)) == version
            # An active game may be over: killed between its last move and finish. The next
            # run finishes it, as the bot does at start-up.
            assert status in ("active", "finished") and (status == "active" or game.result)
        assert moves_reported <= saved
        assert len([g for g in games if g[1] != "finished"]) <= 4  # the writer's channels
        history = {r[0] for r in await storage.fetchall("SELECT game_id FROM history")}
        assert finished_reported <= history
        assert history == {g[0] for g in games if g[1] == "finished"}
        # Every finished game owes its end screen, once; nothing is owed for any other.
        owed = await storage.outbox.pending()
        assert sorted(i.game_id for i in owed) == sorted(history)
        assert all(i.payload == {"game": i.game_id} for i in owed)
        totals = await storage.fetchone("SELECT sum(games), sum(wins) FROM players")
        assert (totals[0] or 0) == 3 * len(history)  # each finish counted once, for 3 players
        assert (totals[1] or 0) >= len(history)
    finally:
        await storage.close()
