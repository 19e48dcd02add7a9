"""The storage tools for operators (docs/operations.md):

`python -m bot.storage copy --from URL --to URL`: move a bot's database to another backend.
URLs as DATABASE_URL takes them: a SQLite file path, sqlite:///path, or postgresql://... The
destination must be empty (a new file, or a database or schema with no bot tables yet).

`python -m bot.storage forget USER_ID [--guild ID] [--database URL]`: delete a person's data
(docs/privacy.md), in every server or one; the database is DATABASE_URL's unless given.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from .copy import copy
from .db import Storage
from .errors import StillPlaying, StillSeated, StorageError
from .forget import Forgotten, check_user
from .url import database_url, parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.storage", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    cp = commands.add_parser("copy", help="copy every table into an empty database")
    cp.add_argument("--from", dest="source", required=True, metavar="URL")
    cp.add_argument("--to", dest="destination", required=True, metavar="URL")
    fg = commands.add_parser("forget", help="delete a person's data (docs/privacy.md)")
    fg.add_argument("user_id", metavar="USER_ID", help="their Discord user id (digits)")
    fg.add_argument("--guild", type=int, metavar="ID", help="only in this server")
    fg.add_argument("--database", metavar="URL", help="default: DATABASE_URL")
    args = parser.parse_args(argv)
    if args.command == "forget":
        return forget(args.user_id, args.guild, args.database or database_url())

    def shown(table: str, rows: int) -> None:
        print(f"{table:16} {rows:>10} rows, counts match", flush=True)

    try:
        print(f"copying {parse(args.source)} -> {parse(args.destination)}", flush=True)
        copied = asyncio.run(copy(args.source, args.destination, progress=shown))
    except StorageError as exc:
        print(f"copy failed: {exc}", file=sys.stderr)
        return 1
    print(f"done: {sum(copied.values())} rows in {len(copied)} tables", flush=True)
    return 0


def forget(user_id: str, guild_id: int | None, database: str) -> int:
    try:
        user = check_user(user_id)
    except ValueError as exc:
        print(f"forget: {exc}", file=sys.stderr)
        return 2

    async def run() -> Forgotten:
        async with await Storage.open(database) as storage:
            return await storage.forgetting.forget(user, guild_id)

    try:
        done = asyncio.run(run())
    except StillSeated as exc:
        print(f"forget: {exc}; cancel the tournament or wait until that game is over",
              file=sys.stderr)  # fmt: skip
        return 1
    except StillPlaying as exc:
        print(f"forget: {exc}; end or leave it first (/steal-admin end-game)", file=sys.stderr)
        return 1
    except StorageError as exc:
        print(f"forget failed: {exc}", file=sys.stderr)
        return 1
    where = "every server" if guild_id is None else f"server {guild_id}"
    print(
        f"forgot {user} in {where}: {done.players} stats rows deleted, "
        f"{done.history} finished games and {done.games} game rows now say former player",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
