"""The arena command line: a tiny run prints the documented figures."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bot.ai import arena

KEYS = {
    "rules",
    "players",
    "policies",
    "decks",
    "games",
    "seed",
    "workers",
    "hard_budget_s",
    "hard_work",
    "hard_samples",
    "ties",
    "seconds",
    "results",
}
RESULT_KEYS = {
    "seats",
    "baseline",
    "win_share",
    "ci95",
    "mean_margin",
    "decisions",
    "decision_ms",
    "work",
}


def run_json(capsys, *args: str) -> dict:
    assert arena.main([*args, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    return json.loads(out)


def test_json_has_the_documented_keys(capsys):
    data = run_json(capsys, "--games", "4", "--policies", "medium,easy", "--seed", "3")
    assert set(data) == KEYS
    assert data["decks"] == 2 and data["games"] == 4
    assert set(data["results"]) == {"medium", "easy"}
    for r in data["results"].values():
        assert set(r) == RESULT_KEYS
        assert set(r["decision_ms"]) == {"p50", "p95", "max"}
        lo, hi = r["ci95"]
        assert lo <= r["win_share"] <= hi
    shares = sum(r["win_share"] for r in data["results"].values())
    assert shares == pytest.approx(1.0)
    margins = sum(r["mean_margin"] for r in data["results"].values())
    assert margins == pytest.approx(0.0, abs=0.01)


def test_three_players_with_hard_on_fixed_samples(capsys):
    data = run_json(
        capsys, "--games", "3", "--players", "3", "--rules", "classic",
        "--policies", "hard,medium", "--samples", "1",
    )  # fmt: skip
    assert data["policies"] == ["hard", "medium", "medium"]
    assert data["results"]["medium"]["seats"] == 2
    assert data["results"]["medium"]["baseline"] == pytest.approx(2 / 3, abs=1e-3)
    assert sum(r["win_share"] for r in data["results"].values()) == pytest.approx(1.0)


def test_same_seed_same_figures(capsys):
    args = ("--games", "4", "--policies", "naive,easy", "--seed", "9")
    first, again = run_json(capsys, *args), run_json(capsys, *args)
    for data in (first, again):
        data.pop("seconds")
        for r in data["results"].values():
            r.pop("decision_ms")
    assert first == again


def test_the_module_runs_and_explains_ties():
    out = subprocess.run(
        [sys.executable, "-m", "bot.ai.arena", "--games", "2", "--policies", "easy,naive"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "shared win counts 1/k" in out
    assert "easy" in out and "naive" in out
    help_text = subprocess.run(
        [sys.executable, "-m", "bot.ai.arena", "--help"], capture_output=True, text=True
    ).stdout
    assert "1/k" in help_text


def test_bad_policy_names_are_refused(capsys):
    with pytest.raises(SystemExit):
        arena.main(["--policies", "medium,grandmaster"])


def test_hard_on_fixed_work_reports_its_work_and_repeats_itself(capsys):
    args = ("--games", "2", "--policies", "hard,medium", "--work", "400", "--seed", "4")
    first, again = run_json(capsys, *args), run_json(capsys, *args)
    assert first["hard_work"] == 400
    work = first["results"]["hard"]["work"]
    assert 400 <= work["p50"] < 400 + 60  # it stops after the playout that reaches the work
    assert first["results"]["medium"]["work"] is None
    for data in (first, again):
        data.pop("seconds")
        for r in data["results"].values():
            r.pop("decision_ms")
    assert first == again


def test_logged_chunks_add_up_to_the_whole_run(capsys, tmp_path):
    args = ("--policies", "naive,easy")
    log = tmp_path / "decks.log"
    run_json(capsys, "--games", "4", "--seed", "4", "--log", str(log), *args)
    run_json(capsys, "--games", "6", "--seed", "6", "--log", str(log), *args)  # decks 6-8
    assert len(log.read_text().splitlines()) == 5
    summed = run_json(capsys, "--from-log", str(log), str(log), *args)  # deck 6, 7 once
    assert summed["decks"] == 5
    whole = run_json(capsys, "--games", "10", "--seed", "4", *args)  # decks 4-8 in one run
    assert summed["results"]["naive"]["win_share"] == whole["results"]["naive"]["win_share"]
    assert summed["results"]["naive"]["mean_margin"] == whole["results"]["naive"]["mean_margin"]


def test_cpu_times_need_fixed_work(capsys):
    with pytest.raises(SystemExit):
        arena.main(["--games", "2", "--policies", "hard,medium", "--cpu"])
    capsys.readouterr()
    data = run_json(capsys, "--games", "2", "--policies", "hard,medium", "--work", "300", "--cpu")
    assert data["results"]["hard"]["decision_ms"]["p50"] > 0
