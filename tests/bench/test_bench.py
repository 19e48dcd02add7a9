"""The benchmark scripts still run against the bot as it is now (tiny sizes; nothing here is
timed: figures come from running the scripts themselves).

Benches that change nothing outside themselves run in this process (`here`): a fresh
interpreter costs about 3 s of CPU to import the bot, several times what a tiny bench does.
The ones that patch the bot for their run (virtual time, the stand-in Discord, no fsync:
moves, rate_limits, fairness) still run as `python -m bench.<name> --json`, which checks that
command line too."""

from __future__ import annotations

import gc
import json
import os
import runpy
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tests.support import backends

ROOT = Path(__file__).resolve().parents[2]
# The reference engine that bench/engine_speed.py compares against: shared/ lies beside the
# repository (CI's clone has a copy); a work tree elsewhere can point $YARDSTICK at it.
YARDSTICK = Path(os.environ.get("YARDSTICK", ROOT.parent / "shared" / "yardstick"))


def run(script: str, *args: str) -> dict:
    # PYTHONPATH: this checkout's bot, not whichever one the venv has installed (a worktree).
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    module = f"bench.{script.removesuffix('.py')}"  # bench/ is a package: python -m bench.<name>
    done = subprocess.run(
        [sys.executable, "-m", module, *args, "--json"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


# Each argument list in turn, as `python -m <module> ... --json` runs it, in one interpreter.
RUNS = """import json, runpy, sys
module, runs = sys.argv[1], json.loads(sys.argv[2])
for args in runs:
    sys.argv = [module, *args, "--json"]
    runpy.run_module(module, run_name="__main__")
"""


def run_each(script: str, *runs: tuple[str, ...]) -> list[dict]:
    """`run` for several command lines of one bench, in one fresh interpreter (one start-up)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    module = f"bench.{script.removesuffix('.py')}"
    done = subprocess.run(
        [sys.executable, "-c", RUNS, module, json.dumps(runs)],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


@pytest.fixture
def here(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """`python -m bench.<script> ... --json`, run in this process as its command line would."""

    def run_here(script: str, *args: str) -> dict:
        monkeypatch.setattr(sys, "argv", [script, *args, "--json"])
        capsys.readouterr()
        with warnings.catch_warnings():  # "found in sys.modules": a rerun of an imported bench
            warnings.simplefilter("ignore", RuntimeWarning)
            runpy.run_module(f"bench.{script.removesuffix('.py')}", run_name="__main__")
        # bench/storage.py froze the heap as the bot does, the bench's objects with it: what
        # is still alive is frozen again, as after collection (tests/conftest.py).
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        return json.loads(capsys.readouterr().out)

    return run_here


def test_moves_bench_plays_every_click_as_a_player_would():
    """On SQLite, then on PostgreSQL side by side in the same run (one interpreter and one
    SQLite half, where two tests ran the SQLite half twice): the same checks on each."""
    postgres = backends.unreachable() is None
    out = run(
        "moves.py", "--games", "3", "--samples", "30", "--one-by-one", "20", "--warmup", "0",
        *(["--postgres", backends.server_url()] if postgres else []),
    )  # fmt: skip
    for figures in (out["sqlite"], out["postgresql"]) if postgres else (out,):
        assert figures["unexpected"] == 0  # no click refused or failed
        assert figures["at_once"]["move"]["n"] == 30 and figures["at_once"]["trivial"]["n"] == 30
        one = figures["one_at_a_time"]
        assert one["move"]["n"] >= 20
        # The floor: the same clicks through discord.py alone, each answered (else "unexpected").
        assert one["floor"]["n"] == one["move"]["n"] and one["floor_ratio_median"] > 0
        # The writes it counts: one a move (its own save), none for the open hands (issue 33).
        writes = one["writes"]
        assert writes["by"]["session/play.py:_apply"] == writes["moves"] == one["move"]["n"]
        assert "session/messages.py:keep_hand" not in writes["by"]
    backends.require_postgres()  # no server: the PostgreSQL half is skipped, with one line


def test_engine_bench_runs(here):
    out = here("engine_speed.py", "--games", "20", "--rounds", "1")
    assert out["games"] == 20 and out["median_games_per_s"] > 0
    assert "median_ratio" not in out  # no yardstick asked for


STAND_IN = """import json, sys
print(json.dumps({"games": 1, "games_per_s": 1000.0}))
"""


def test_engine_bench_compares_with_the_yardstick(tmp_path, here):
    yardstick = YARDSTICK
    if not (yardstick / "speed.py").is_file():  # a clone with no shared/ beside it
        yardstick = tmp_path / "yardstick"  # the comparison's plumbing, with a stand-in
        yardstick.mkdir()
        (yardstick / "speed.py").write_text(STAND_IN)
    out = here("engine_speed.py", "--games", "20", "--rounds", "2", "--yardstick", str(yardstick))
    assert out["rounds"] == 2 and len(out["ratios"]) == 2
    assert out["yardstick_median_games_per_s"] > 0 and out["median_ratio"] > 0


def test_replay_bench_runs(here):
    out = here("replay.py", "--games", "1", "--players", "2")
    assert out["step_wall_ms"]["n"] > 10 and out["png_kb"]["max"] > 0


def test_storage_bench_measures_both_backends(here):
    only = [] if backends.unreachable() is None else ["--sqlite-only"]
    out = here(
        "storage.py", "--games", "3", "--rounds", "2", "--live", "3", "--finished", "1",
        "--players", "50", "--serial", "5", *only,
    )  # fmt: skip
    for figures in out.values():
        assert figures["at_once"]["moves"] > 0 and figures["startup"]["live"] == 3
        assert figures["leaderboard"]["ranks_match_the_board"]
        assert figures["disk"]["bytes_per_game"] > 0


def test_stats_bench_compares_the_old_and_new_figures(here):
    out = here("stats.py", "--sizes", "30,60", "--players", "6", "--repeat", "1")
    assert list(out) == ["30", "60"]
    for figures in out.values():
        assert figures["same_figures"] and figures["their_games"] > 0
        assert figures["figures_new_ms"] > 0 and figures["figures_old_ms"] > 0


def test_rate_limits_bench_keeps_within_the_limits_and_delivers_what_games_owe():
    """bench/rate_limits.py: games on virtual time against a stand-in that enforces
    Discord's limits. With the governor, the bot never goes past the global limit (here 5 a
    second, so ten games press on it) and gets no 429; without it, Discord says 429."""
    # Every game runs past its Start click's token (its table takes the bot token), and half
    # the people close their hand (their turns are pinged).
    args = ("--games", "10", "--seconds", "20", "--rate", "5", "--pace", "1,3", "--long", "1",
            "--closed", "0.5")  # fmt: skip
    # Both in one interpreter: the bench patches the same things the same way for each run.
    governed_out, bare_out = run_each("rate_limits.py", args, (*args, "--no-governor"))
    governed = governed_out["runs"][0]
    assert governed["moves"] > 50
    assert governed["peak_global_per_s"] <= 5
    assert governed["rate_limited"] == {} and governed["invalid_requests"] == 0
    assert governed["owed_undelivered"] == 0 and governed["games_ended"] >= 1
    assert governed["staleness_s"]["n"] > 0 and governed["ping_delay_s"]["n"] > 0
    assert set(governed["per_move_by_route"]) <= {
        "PATCH /channels/{id}/messages/{id}", "POST /channels/{id}/messages",
        "DELETE /channels/{id}/messages/{id}",
    }  # fmt: skip
    # People click: their hands and turn pings go through the interaction webhook (exempt).
    assert set(governed["interaction_per_move_by_route"]) <= {
        "POST /interactions/{id}/{token}/callback", "POST /webhooks/{id}/{token}",
        "PATCH /webhooks/{id}/{token}/messages/@original",
        "PATCH /webhooks/{id}/{token}/messages/{id}",
        "DELETE /webhooks/{id}/{token}/messages/{id}",
    }  # fmt: skip
    assert (
        governed["interaction_per_move_by_route"]["PATCH /webhooks/{id}/{token}/messages/@original"]
        > 0
    )
    assert governed["clicks"]["move, hand kept"] > 0
    assert governed_out["governor"] and not bare_out["governor"]
    bare = bare_out["runs"][0]
    assert bare["rate_limited"].get("global", 0) > 0  # the stand-in answers as Discord does
    assert bare["invalid_requests"] >= bare["rate_limited"]["global"]


def test_fairness_bench_a_busy_server_leaves_quiet_ones_their_share():
    """bench/fairness.py, small: a server of 40 games presses on a budget of 10 a second beside
    four quiet servers; the quiet servers' tables wait far less than the busy one's (without
    the governor's turns between servers they waited as long: p95 3.6 s, about the busy
    server's median)."""
    out = run("fairness.py", "--busy", "40", "--quiet", "4", "--seconds", "30", "--rate", "10")
    assert out["servers_waiting"] == 5 and out["quiet_beside_busy_s"]["n"] > 10
    # Starvation is the fault: the quiet servers waited as long as the busy one (p95 3.6 s,
    # about its median). The p95 of some 34 waits is their second longest, so one picture
    # finished late moves it (1.0 to 2.0 s, run to run); their mean is steady (0.3 s).
    quiet, busy = out["quiet_beside_busy_s"], out["busy_s"]
    assert quiet["mean"] < busy["p50"] / 3 and quiet["p95"] < busy["p50"], out
    assert out["rate_limited"] == {} and out["peak_global_per_s"] <= 10


def test_tournament_bench_plays_a_small_swiss_to_its_champion(here):
    out = here("tournament.py", "--players", "8", "--rounds", "2", "--size", "4")
    assert out["games"] == 4 and out["rounds"] == 2 and out["champion"].startswith("bot:")
    assert 0 < out["seat_round_median"] <= out["seat_round_max"] < out["total_seconds"]
