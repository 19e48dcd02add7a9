"""`python -m bot.storage copy --from URL --to URL`: move a bot's database to another backend.

URLs as DATABASE_URL takes them: a SQLite file path, sqlite:///path, or postgresql://... The
destination must be empty (a new file, or a database or schema with no bot tables yet).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from .copy import copy
from .errors import StorageError
from .url import parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.storage", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    cp = commands.add_parser("copy", help="copy every table into an empty database")
    cp.add_argument("--from", dest="source", required=True, metavar="URL")
    cp.add_argument("--to", dest="destination", required=True, metavar="URL")
    args = parser.parse_args(argv)

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


if __name__ == "__main__":
    sys.exit(main())
