"""Configuration from the environment (and `.env`), checked once at start-up."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.domain.options import DEFAULTS, Options
from bot.shards import Shards

TURN_MIN, TURN_MAX = 15, 24 * 3600
GLOBAL_RATE = 50.0  # Discord's global rate limit for a bot, requests a second
METRICS_HOST = "127.0.0.1"  # /metrics and /healthz have no authentication: this machine only


class ConfigError(Exception):
    """A setting is missing or wrong; the message says how to fix it."""


@dataclass(frozen=True)
class Config:
    token: str
    database: str  # DATABASE_URL, or the DATABASE_PATH file (bot.storage.parse reads both)
    dev_guild_id: int | None = None
    options: Options = DEFAULTS  # TURN_SECONDS and AI_MOVE_SECONDS set its timings
    log_level: str = "INFO"
    shards: Shards = field(
        default_factory=Shards.one
    )  # SHARD_COUNT, SHARD_IDS: one shard when neither is set
    global_rate: float = GLOBAL_RATE  # DISCORD_GLOBAL_RATE: the bot's requests a second, in all
    metrics_port: int | None = None  # METRICS_PORT: /metrics and /healthz; None: not served
    metrics_host: str = METRICS_HOST  # METRICS_HOST: the address they listen on

    def __repr__(self) -> str:  # never show the token, even in a traceback
        return f"Config(database={shown(self.database)}, dev_guild_id={self.dev_guild_id})"


def shown(database: str) -> str:
    """The database setting without its password."""
    from bot.storage import parse  # here: bot.storage costs a second of imports (see load)

    try:
        return str(parse(database))
    except Exception:
        return "(not a database URL)"


def _int(env: Mapping[str, str], key: str) -> int | None:
    raw = env.get(key, "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{key} must be a whole number, not {raw!r}") from None


def turn_seconds(raw: str) -> float | None:
    raw = raw.strip().lower()
    if not raw:  # unset
        return DEFAULTS.turn_seconds
    if raw in ("off", "0", "none"):
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(
            f"TURN_SECONDS must be off or {TURN_MIN}-{TURN_MAX}, not {raw!r}"
        ) from None
    if not TURN_MIN <= value <= TURN_MAX:
        raise ConfigError(f"TURN_SECONDS must be off or {TURN_MIN}-{TURN_MAX}, not {value}")
    return value


def ai_move_seconds(raw: str) -> float:
    if not raw.strip():  # unset
        return DEFAULTS.bot_delay
    try:
        value = float(raw.strip())
    except ValueError:
        raise ConfigError(f"AI_MOVE_SECONDS must be 0 to 30 seconds, not {raw!r}") from None
    if not 0 <= value <= 30:
        raise ConfigError(f"AI_MOVE_SECONDS must be 0 to 30 seconds, not {value:g}")
    return value


def global_rate(raw: str) -> float:
    """DISCORD_GLOBAL_RATE: raise it only for a bot Discord has given a higher global limit."""
    if not raw.strip():
        return GLOBAL_RATE
    try:
        value = float(raw.strip())
    except ValueError:
        raise ConfigError(f"DISCORD_GLOBAL_RATE must be requests a second, not {raw!r}") from None
    if not 1 <= value <= 100_000:
        raise ConfigError(f"DISCORD_GLOBAL_RATE must be 1 to 100000, not {value:g}")
    return value


def metrics_port(env: Mapping[str, str]) -> int | None:
    port = _int(env, "METRICS_PORT")
    if port is not None and not 1 <= port <= 65535:
        raise ConfigError(f"METRICS_PORT must be 1 to 65535 (or empty: off), not {port}")
    return port


def metrics_host(raw: str) -> str:
    """METRICS_HOST: an address of this machine to listen on, e.g. 0.0.0.0 for every one."""
    raw = raw.strip()
    if not raw:
        return METRICS_HOST
    try:
        ipaddress.ip_address(raw)
    except ValueError:
        raise ConfigError(
            f"METRICS_HOST must be an IP address (e.g. 127.0.0.1, or 0.0.0.0 for every "
            f"interface), not {raw!r}"
        ) from None
    return raw


def shards(env: Mapping[str, str]) -> Shards:
    """SHARD_COUNT and SHARD_IDS (a comma-separated list; unset: every shard). Neither set:
    one shard, as a bot in fewer than 2,500 servers runs."""
    count = _int(env, "SHARD_COUNT")
    raw = env.get("SHARD_IDS", "").strip()
    if count is None:
        if raw:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT: set both, e.g. SHARD_COUNT=4")
        return Shards.one()
    if count < 1:
        raise ConfigError(f"SHARD_COUNT must be 1 or more, not {count}")
    if not raw:  # every shard in this one process
        return Shards(count, tuple(range(count)))
    try:
        ids = tuple(int(part) for part in raw.split(","))
    except ValueError:
        raise ConfigError(
            f"SHARD_IDS must be whole numbers separated by commas (e.g. 0,1), not {raw!r}"
        ) from None
    if len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS lists a shard twice: {raw!r}")
    wrong = [i for i in ids if not 0 <= i < count]
    if wrong:
        raise ConfigError(
            f"SHARD_IDS must be from 0 to {count - 1} (SHARD_COUNT={count}), not {wrong[0]}"
        )
    return Shards(count, tuple(sorted(ids)))


def load(env: Mapping[str, str] | None = None, dotenv: str | None = ".env") -> Config:
    """Read the settings; `.env` fills in what the real environment does not set."""
    if env is None:
        if dotenv:
            from dotenv import load_dotenv

            load_dotenv(dotenv, override=False)
        env = os.environ
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token in it, "
            "or export DISCORD_TOKEN=... (see README.md)."
        )
    level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    dev_guild_id = _int(env, "DEV_GUILD_ID")
    options = Options(
        turn_seconds=turn_seconds(env.get("TURN_SECONDS", "")),
        bot_delay=ai_move_seconds(env.get("AI_MOVE_SECONDS", "")),
    )
    sharding, rate = shards(env), global_rate(env.get("DISCORD_GLOBAL_RATE", ""))
    port, host = metrics_port(env), metrics_host(env.get("METRICS_HOST", ""))
    # Imported last, once every setting is good: `python -m bot` with no token or a bad
    # setting, and `make run`'s has_token, answer without a second of SQLAlchemy and Alembic.
    from bot.storage import database_url

    return Config(
        token=token,
        database=database_url(env),
        dev_guild_id=dev_guild_id,
        options=options,
        log_level=level,
        shards=sharding,
        global_rate=rate,
        metrics_port=port,
        metrics_host=host,
    )


def has_token(dotenv: str | None = ".env") -> bool:
    """Whether DISCORD_TOKEN is set, read exactly as `load` reads it (environment, then .env)."""
    if dotenv:
        from dotenv import load_dotenv

        load_dotenv(dotenv, override=False)
    return bool(os.environ.get("DISCORD_TOKEN", "").strip())


if (
    __name__ == "__main__"
):  # `python -m bot.config --has-token`: exit 0 if a token is set (make run)
    import sys

    sys.exit(0 if sys.argv[1:] == ["--has-token"] and has_token() else 1)
