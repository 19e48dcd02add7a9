from pathlib import Path

import pytest

from bot.client import StealBot
from bot.config import ConfigError, load
from tests.support.runs import run_bot

ROOT = Path(__file__).resolve().parent.parent


def test_without_a_token_the_bot_exits_2_with_one_line(tmp_path):
    done = run_bot(tmp_path)  # no .env in tmp_path
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0]


def test_dotenv_is_read_and_a_bad_setting_exits_2_naming_it(tmp_path):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=not-a-real-token\nTURN_SECONDS=5\n")
    done = run_bot(tmp_path)
    assert done.returncode == 2
    assert "TURN_SECONDS" in done.stderr and "not-a-real-token" not in done.stderr


def test_config_defaults_and_values():
    config = load({"DISCORD_TOKEN": " abc "})
    assert (
        config.token == "abc" and config.options.turn_seconds == 120 and config.dev_guild_id is None
    )
    assert str(config.database) == "data/steal.db" and "abc" not in repr(config)
    config = load(
        {"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "42", "TURN_SECONDS": "off", "LOG_LEVEL": "debug"}
    )
    assert (
        config.dev_guild_id == 42
        and config.options.turn_seconds is None
        and config.log_level == "DEBUG"
    )
    assert load({"DISCORD_TOKEN": "t", "TURN_SECONDS": "15"}).options.turn_seconds == 15
    # AI opponents wait 1.5 s by default before they play, so people can follow.
    assert config.options.bot_delay == 1.5 == StealBot(":memory:").options.bot_delay
    assert load({"DISCORD_TOKEN": "t", "AI_MOVE_SECONDS": "0"}).options.bot_delay == 0


@pytest.mark.parametrize(
    "key, value",
    [
        ("DEV_GUILD_ID", "my-server"),
        ("TURN_SECONDS", "14"),
        ("TURN_SECONDS", "86401"),
        ("TURN_SECONDS", "soon"),
        ("LOG_LEVEL", "LOUD"),
        ("AI_MOVE_SECONDS", "31"),
        ("AI_MOVE_SECONDS", "fast"),
    ],
)
def test_bad_values_name_the_setting(key, value):
    with pytest.raises(ConfigError, match=key):
        load({"DISCORD_TOKEN": "t", key: value})


def test_missing_token_says_what_to_do():
    with pytest.raises(ConfigError, match=r"\.env"):
        load({})


def test_a_file_that_is_not_a_database_stops_the_bot_before_connecting(tmp_path):
    (tmp_path / "notes.db").write_text("my notes, not a database")
    done = run_bot(tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": "notes.db"})
    assert done.returncode == 2
    assert "not a SQLite database" in done.stderr
    assert (tmp_path / "notes.db").read_text() == "my notes, not a database"
