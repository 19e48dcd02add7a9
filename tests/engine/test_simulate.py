import json
import subprocess
import sys

from bot.engine import replay
from bot.engine.rules import PRESETS
from bot.engine.simulate import main


def test_json_summary_for_every_preset(capsys):
    for name in PRESETS:
        assert main(["--games", "20", "--players", "3", "--rules", name, "--json"]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["games"] == 20
        assert summary["games_per_s"] > 0 and summary["seconds"] > 0
        assert len(summary["mean_bundle_sizes"]) == 3


def test_records_are_written_and_replay(tmp_path, capsys):
    assert main(["--games", "4", "--records", str(tmp_path), "--seed", "7"]) == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 4
    for path in files:
        rec = json.loads(path.read_text())
        assert replay(rec).result.to_dict() == rec["result"]
    assert "games/s" in capsys.readouterr().out


def test_runs_as_a_module():
    out = subprocess.run(
        [sys.executable, "-m", "bot.engine.simulate", "--games", "5", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out)["games"] == 5
