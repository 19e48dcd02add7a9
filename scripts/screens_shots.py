"""Screenshots of /steal rules, /steal leaderboard and /steal stats in the local playground, with
headless Chromium: at a desktop's width and a phone's (360 px) in Discord's dark theme, and at
the desktop width in its light theme.

    .venv/bin/python scripts/screens_shots.py [--chromium /usr/bin/chromium] [--out DIR]

Writes rules.png, rules-phone.png, rules-light.png and the same for leaderboard and stats.
The light theme is SimCord's preview page with its colour variables set to Discord's light
palette. Needs Chromium; tests never run this.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402
from simcord.preview._server import PreviewServer  # noqa: E402

from bot.client import StealBot  # noqa: E402
from bot.engine import new_game, preset, to_dict  # noqa: E402
from bot.engine.playout import play_out  # noqa: E402
from bot.playground import build_world, welcome  # noqa: E402
from bot.session import results  # noqa: E402

SEED = 20261129  # the same deals every run, so the pictures only change when the bot does

WIDTH, PHONE = 1000, 360
HEIGHTS = {"rules": 1700, "leaderboard": 1000, "stats": 1150}
# Discord's light theme, on the variables the preview page draws with (preview.css).
LIGHT = """
:root {
  color-scheme: light; background: #ffffff; color: #313338;
  --discord-bg: #ffffff; --discord-surface: #f2f3f5; --discord-elevated: #e3e5e8;
  --discord-control: #ebedef; --discord-hover: #e8e9ec; --discord-text: #313338;
  --discord-muted: #5c5e66; --discord-subtle: #4e5058; --discord-border: #e1e2e4;
  --component-surface: #f6f6f7; --component-border: #dcdde0; --embed-field-name: #060607;
  --code-surface: #f2f3f5; --code-border: #e3e5e8; --code-text: #313338;
  --link-text: #006ce7; --entity-text: #313338; --entity-dim: #5c5e66;
  --button-alt: #6d6f78; --button-alt-hover: #5c5e66; --button-alt-active: #4e5058;
  --subtle-surface: #e3e5e8; --subtle-surface-text: #313338; --chip-surface: #e3e5e8;
  --list-surface: #ebedef; --option-hover: #e0e1e5; --input-surface: #ebedef;
  --input-placeholder: #5c5e66; --modal-surface: #ffffff; --modal-separator: #e1e2e4;
  --control-border: #dcdde0; --choice-border: #b5bac1; --scrollbar-thumb: #c4c9ce;
}
body { background: #ffffff; color: #313338; }
.message-content { color: #313338; }
.channel-message:hover, .channel-message:focus-within { background: #0000000a; }
[data-workbench] {
  --workbench-bg: #e3e5e8; --workbench-control: #d7d9dc; --workbench-hover: #cfd1d5;
  --workbench-border: #0000001a;
}
"""
THEME = {"css": ""}  # the CSS added to the preview page: "" for the dark theme


async def shoot(chromium: str, url: str, out: Path, profile: Path, width: int, height: int) -> None:
    proc = await asyncio.create_subprocess_exec(
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={profile}", f"--window-size={width},{height}",
        "--virtual-time-budget=8000", f"--screenshot={out}", url,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    if await proc.wait() != 0 or not out.exists():
        raise SystemExit(f"chromium failed to write {out}")
    print("wrote", out.relative_to(ROOT) if out.is_relative_to(ROOT) else out)


def themed_static() -> None:
    """Serve preview.css with THEME's CSS after it (set before a preview starts)."""
    real = PreviewServer._static

    async def static(self, request):  # type: ignore[no-untyped-def]
        response = await real(self, request)
        if request.path == "/preview.css" and THEME["css"]:
            response.text = response.text + THEME["css"]
        return response

    PreviewServer._static = static  # type: ignore[method-assign]


async def finish(storage, guild_id: int, channel_id: int, seats, names, seed: int) -> None:
    game = play_out(new_game(preset("standard"), list(seats), seed=seed), random.Random(seed))
    row = await storage.games.create(guild_id, channel_id, seats[0], {}, state=to_dict(game))
    await results.finish(storage, row.id, guild_id, game, names=names)


async def main(chromium: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    themed_static()
    tmp = Path(tempfile.mkdtemp())
    bot = StealBot(
        tmp / "playground.db", sync=True, turn_seconds=None, lobby_seconds=None,
        seed_source=lambda: SEED,
    )  # fmt: skip
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
                THEME["css"] = LIGHT if light else ""
                async with env.preview(
                    channel, viewers=members, layout="channel", display="fixed",
                    width=width, height=HEIGHTS[name.split("-")[0]], port=0,
                ) as preview:  # fmt: skip
                    await shoot(
                        chromium, preview.url, out / f"{name}.png", tmp / "chrome", width,
                        HEIGHTS[name.split("-")[0]],
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
    finally:
        if bot.storage is not None:
            await bot.storage.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    asyncio.run(main(args.chromium, args.out.resolve()))
