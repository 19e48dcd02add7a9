"""`python -m bot`: start the bot (the Procfile's worker)."""

from __future__ import annotations

import os
import sys


def main() -> int:
    if not os.environ.get("DISCORD_TOKEN", "").strip():
        print(
            "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token in it, "
            "or export DISCORD_TOKEN=... (see README.md).",
            file=sys.stderr,
        )
        return 2
    print(
        "The Discord part of the bot has not landed yet (see the issue tracker).", file=sys.stderr
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
