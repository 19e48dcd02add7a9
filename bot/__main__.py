"""`python -m bot [--sync | --no-sync]`: run the bot on Discord (the Procfile's worker)."""

from __future__ import annotations

import argparse
import logging
import sys

from bot.config import ConfigError, load


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

    import discord

    from bot.client import StealBot
    from bot.storage import StorageError, check

    try:
        check(config.database)  # before connecting: a bad file fails fast, untouched
    except StorageError as exc:
        print(f"Cannot use the database: {exc}", file=sys.stderr)
        return 2

    discord.utils.setup_logging(level=getattr(logging, config.log_level))
    bot = StealBot(
        config.database,
        turn_seconds=config.turn_seconds,
        lobby_seconds=config.lobby_seconds,
        bot_delay=config.ai_move_seconds,
        dev_guild_id=config.dev_guild_id,
        sync=True if args.sync else False if args.no_sync else None,
    )
    try:
        # log_handler=None: logging is set up above, once.
        bot.run(config.token, log_handler=None)
    except discord.LoginFailure:
        print("Discord refused DISCORD_TOKEN: copy the token again (Bot tab).", file=sys.stderr)
        return 2
    except StorageError as exc:  # not a database, or written by a newer version of the bot
        print(f"Cannot use the database: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
