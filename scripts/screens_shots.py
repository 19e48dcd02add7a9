"""Screenshots of /steal rules, /steal leaderboard and /steal stats in the local playground, with
headless Chromium: at a desktop's width and a phone's (360 px) in Discord's dark theme, and at
the desktop width in its light theme.

    .venv/bin/python -m scripts.screens_shots [--chromium /usr/bin/chromium] [--out DIR]

Writes rules.png, rules-phone.png, rules-light.png and the same for leaderboard and stats,
stats-phone-light.png, leaderboard-es-phone.png (a Spanish server's board), and, once the
season has ended, season-end.png (its announcement) and season-board.png (`/steal leaderboard
season:1`), each also -phone, -light and -phone-light.
The light theme: scripts/_shots.py. Needs Chromium; tests never run this.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from ._playground import history, playground, scratch, storage_of
from ._shots import arguments, shooter

WIDTH, PHONE = 1000, 360
HEIGHTS = {"rules": 1700, "leaderboard": 1000, "stats": 1150, "season": 1000}


async def main(chromium: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with scratch() as tmp:
        async with playground(tmp / "playground.db", greet=True) as (bot, env, channel, members):
            ann = members[0]
            storage = storage_of(bot)
            # A server with some history: ann, bob and cat, and a few more players.
            await history(storage, channel, members, ("dora", "eli", "fay", "gus"), 24)
            shoot = shooter(env, channel, members, chromium, out, tmp / "chrome")

            async def shot(name: str, width: int, light: bool = False) -> None:
                await shoot(name, width, HEIGHTS[name.split("-")[0]], light=light)

            async def four(name: str) -> None:
                """Desktop and phone, dark and light."""
                for tail, width in (("", WIDTH), ("-phone", PHONE)):
                    await shot(f"{name}{tail}", width)
                    await shot(f"{name}{tail}-light", width, light=True)

            screens: tuple[tuple[str, Callable[[], Awaitable[Any]]], ...] = (
                ("rules", lambda: ann.slash(channel, "steal rules")),
                ("leaderboard", lambda: ann.slash(channel, "steal leaderboard")),
                ("stats", lambda: ann.slash(channel, "steal stats")),
            )
            for name, run in screens:
                await run()
                await shot(name, WIDTH)
                await shot(f"{name}-phone", PHONE)
                await shot(f"{name}-light", WIDTH, light=True)
                if name == "stats":  # the card on a phone in the light theme too
                    await shot(f"{name}-phone-light", PHONE, light=True)
            # A Spanish server's public board, on a phone.
            # (through the session, which caches each server's language)
            sessions = bot.sessions
            assert sessions is not None and bot.app is not None
            await sessions.records.set_setting(channel.guild.id, "language", "es")
            await ann.slash(channel, "steal leaderboard")
            await shot("leaderboard-es-phone", PHONE)
            # The season ends (as /steal-admin season-new does): its announcement, its archive.
            await sessions.records.set_setting(channel.guild.id, "language", "en")
            await bot.app.sessions.seasons.end(channel.guild.id, 1)
            await env.advance_time(1)  # the announcement is posted
            season: tuple[tuple[str, Callable[[], Awaitable[Any]] | None], ...] = (
                ("season-end", None),
                ("season-board", lambda: ann.slash(channel, "steal leaderboard", season=1)),
            )
            for name, later in season:
                if later is not None:
                    await env.advance_time(11)  # past /steal leaderboard's cooldown
                    await later()
                await four(name)


if __name__ == "__main__":
    args = arguments(__doc__)
    asyncio.run(main(args.chromium, args.out))
