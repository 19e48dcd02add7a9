"""Screenshots of /steal rules, /steal leaderboard and /steal stats in the local playground, with
headless Chromium: at a desktop's width and a phone's (360 px) in Discord's dark theme, and at
the desktop width in its light theme.

    .venv/bin/python scripts/screens_shots.py [--chromium /usr/bin/chromium] [--out DIR]

Writes rules.png, rules-phone.png, rules-light.png and the same for leaderboard and stats,
stats-phone-light.png, leaderboard-es-phone.png (a Spanish server's board), and, once the
season has ended, season-end.png (its announcement) and season-board.png (`/steal leaderboard
season:1`), each also -phone, -light and -phone-light.
The light theme: scripts/shots.py. Needs Chromium; tests never run this.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402
from shots import arguments, capture  # noqa: E402

from bot.client import StealBot  # noqa: E402
from bot.domain.options import Options  # noqa: E402
from bot.engine import new_game, preset, to_dict  # noqa: E402
from bot.engine.playout import play_out  # noqa: E402
from bot.playground import build_world, welcome  # noqa: E402
from bot.session import results  # noqa: E402

SEED = 20261129  # the same deals every run, so the pictures only change when the bot does

WIDTH, PHONE = 1000, 360
HEIGHTS = {"rules": 1700, "leaderboard": 1000, "stats": 1150, "season": 1000}


async def finish(storage, guild_id: int, channel_id: int, seats, names, seed: int) -> None:
    game = play_out(new_game(preset("standard"), list(seats), seed=seed), random.Random(seed))
    row = await storage.games.create(guild_id, channel_id, seats[0], {}, state=to_dict(game))
    await results.finish(storage, row.id, guild_id, game, names=names)


async def main(chromium: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())
    options = Options(turn_seconds=None, lobby_seconds=None, seed_source=lambda: SEED)
    bot = StealBot(tmp / "playground.db", options=options, sync=True)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, members = build_world(env)
            await welcome(bot, channel.id)
            ann = members[0]
            storage = bot.storage
            # A server with some history: ann, bob and cat, and a few more players.
            names = {str(m.id): m.name for m in members}
            others = {str(900 + i): n for i, n in enumerate(("dora", "eli", "fay", "gus"))}
            names.update(others)
            people = list(names)
            rng = random.Random(SEED)
            for n in range(24):
                seats = rng.sample(people[:3] if n % 3 else people, 2)
                await finish(storage, channel.guild.id, channel.id, seats, names, n)

            async def shot(name: str, width: int, light: bool = False) -> None:
                height = HEIGHTS[name.split("-")[0]]
                target = out / f"{name}.png"
                await capture(
                    env, channel, members, chromium, target, tmp / "chrome", width, height,
                    light=light,
                )  # fmt: skip

            for name, run in (
                ("rules", lambda: ann.slash(channel, "steal rules")),
                ("leaderboard", lambda: ann.slash(channel, "steal leaderboard")),
                ("stats", lambda: ann.slash(channel, "steal stats")),
            ):
                await run()
                await shot(name, WIDTH)
                await shot(f"{name}-phone", PHONE)
                await shot(f"{name}-light", WIDTH, light=True)
                if name == "stats":  # the card on a phone in the light theme too
                    await shot(f"{name}-phone-light", PHONE, light=True)
            # A Spanish server's public board, on a phone.
            # (through the session, which caches each server's language)
            await bot.sessions.records.set_setting(channel.guild.id, "language", "es")
            await ann.slash(channel, "steal leaderboard")
            await shot("leaderboard-es-phone", PHONE)
            # The season ends (as /steal-admin season-new does): its announcement, its archive.
            await bot.sessions.records.set_setting(channel.guild.id, "language", "en")
            await bot.app.sessions.seasons.end(channel.guild.id, 1)
            await env.advance_time(1)  # the announcement is posted
            for name, run in (
                ("season-end", None),
                ("season-board", lambda: ann.slash(channel, "steal leaderboard", season=1)),
            ):
                if run is not None:
                    await env.advance_time(11)  # past /steal leaderboard's cooldown
                    await run()
                await shot(name, WIDTH)
                await shot(f"{name}-phone", PHONE)
                await shot(f"{name}-light", WIDTH, light=True)
                await shot(f"{name}-phone-light", PHONE, light=True)
    finally:
        if bot.storage is not None:
            await bot.storage.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    args = arguments(__doc__)
    asyncio.run(main(args.chromium, args.out))
