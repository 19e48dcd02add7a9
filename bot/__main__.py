"""`python -m bot [--sync | --no-sync]`: run the bot on Discord (the Procfile's worker)."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import TYPE_CHECKING

from bot.config import Config, ConfigError, load

if TYPE_CHECKING:
    from bot.client import StealBot
    from bot.storage.lock import FileLock


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sync = parser.add_mutually_exclusive_group()
    sync.add_argument("--sync", action="store_true", help="sync slash commands now")
    sync.add_argument("--no-sync", action="store_true", help="never sync slash commands")
    args = parser.parse_args(argv)
    try:
        config = load()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2

    from bot.storage import StorageError, check
    from bot.storage.lock import AlreadyRunning

    try:
        check(config.database)  # before connecting: a bad file fails fast, untouched
        lock = claim(config)  # held until the process ends
    except StorageError as exc:
        print(f"Cannot use the database: {exc}", file=sys.stderr)
        return 2

    import discord  # after the checks: a refused start skips its import (a second of CPU)

    discord.utils.setup_logging(level=getattr(logging, config.log_level))
    bot = make_bot(config, sync=True if args.sync else False if args.no_sync else None)
    try:
        # log_handler=None: logging is set up above, once.
        bot.run(config.token, log_handler=None)
    except discord.LoginFailure:
        print("Discord refused DISCORD_TOKEN: copy the token again (Bot tab).", file=sys.stderr)
        return 2
    except AlreadyRunning as exc:  # PostgreSQL: another process runs one of these shards
        print(f"Cannot start: {exc}", file=sys.stderr)
        return 2
    except StorageError as exc:  # not a database, or written by a newer version of the bot
        print(f"Cannot use the database: {exc}", file=sys.stderr)
        return 1
    finally:
        if lock is not None:
            lock.release()
    if bot.lost_shards is not None:  # for the supervisor: restart me (docs/operations.md)
        print(f"Stopped: the lock of this process's shards was lost ({bot.lost_shards}); "
              "start it again to claim them afresh.", file=sys.stderr)  # fmt: skip
        return 3
    return 0


def make_bot(config: Config, sync: bool | None) -> StealBot:
    """The bot as the Procfile's worker runs it (tests start it this way on SimCord)."""
    from bot.client import StealBot

    return StealBot(
        config.database,
        options=config.options,
        dev_guild_id=config.dev_guild_id,
        sync=sync,
        shards=config.shards,
        global_rate=config.global_rate,
        metrics_port=config.metrics_port,
        metrics_host=config.metrics_host,
        claim_shards=True,  # on PostgreSQL: refused if another process runs one of them
        freeze_gc=True,
    )


def claim(config: Config) -> FileLock | None:
    """Refuse to start beside another process on the same SQLite file: SQLite is one process's
    database here. Several processes (shards) share a PostgreSQL database instead; there the
    bot claims its shards as it starts (bot/app.py build)."""
    from bot.storage import StorageError, parse
    from bot.storage.lock import hold_file

    target = parse(config.database)
    if target.path is None:  # PostgreSQL
        return None
    shards = config.shards
    if not shards.everything:
        raise StorageError(
            f"SHARD_IDS={','.join(map(str, shards.ids))} of SHARD_COUNT={shards.count} leaves "
            "the other shards to other processes, and processes cannot share a SQLite file: "
            "use PostgreSQL, with DATABASE_URL=postgresql://... (see docs/operations.md)."
        )
    return hold_file(target.path)


if __name__ == "__main__":
    sys.exit(main())
