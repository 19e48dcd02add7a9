"""Screenshots of the settings panel and the replay viewer in the local playground, with
headless Chromium: desktop and phone (360 px) widths, Discord's dark theme and a light one.

    .venv/bin/python scripts/panel_shots.py [--chromium /usr/bin/chromium] [--out docs/screenshots]

Writes admin-panel.png, admin-panel-phone.png, admin-panel-light.png, replay.png,
replay-phone.png and replay-light.png. The light theme is the preview page's own CSS with
Discord's light palette put over its colour variables. Needs Chromium; tests never run this.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402
from simcord.components import walk_components  # noqa: E402
from simcord.preview import _server  # noqa: E402

from bot.client import StealBot  # noqa: E402
from bot.engine import new_game, preset, to_dict  # noqa: E402
from bot.engine.playout import play_out  # noqa: E402
from bot.playground import build_world  # noqa: E402
from bot.session import results  # noqa: E402
from bot.ui import ids  # noqa: E402

WIDTH, PHONE = 1000, 360
# Discord's light theme, over the preview's dark colour variables (simcord preview.css).
LIGHT = """
:root {
  color-scheme: light; background: #ffffff; color: #313338;
  --discord-bg: #ffffff; --discord-surface: #f2f3f5; --discord-elevated: #e3e5e8;
  --discord-control: #e3e5e8; --discord-hover: #ebedef; --discord-text: #313338;
  --discord-muted: #5c5e66; --discord-subtle: #4e5058; --discord-border: #d4d7dc;
  --component-surface: #f8f8f9; --component-border: #dfe1e5; --modal-surface: #ffffff;
  --modal-separator: #e3e5e8; --control-border: #c4c9ce; --chip-surface: #e3e5e8;
  --list-surface: #ffffff; --option-hover: #ebedef; --subtle-surface: #e3e5e8;
  --subtle-surface-text: #313338; --entity-text: #313338; --entity-dim: #5c5e66;
  --input-surface: #ebedef; --input-placeholder: #5c5e66; --modal-trigger-border: #c4c9ce;
  --choice-border: #80848e; --button-alt: #d7d9dc; --button-alt-hover: #c4c9ce;
  --button-alt-active: #b5bac1; --code-surface: #f2f3f5; --code-border: #e3e5e8;
  --code-text: #2e3338; --embed-field-name: #060607; --link-text: #006ce7;
  --link-accent: #006ce7; --scrollbar-thumb: #c4c9ce; --disclaimer-bg: #fdf1dc;
  --disclaimer-text: #313338; --spoiler-cover-bg: #e3e5e8; --spoiler-media-bg: #c4c9ce;
  --button-secondary-surface: #d7d9dc;
}
.channel-message:hover, .channel-message:focus-within { --button-secondary-surface: #c4c9ce; }
.message-content { color: #313338; }
.button-style-2, .button-secondary, .button-style-5, .link-button, .button-style-6 {
  color: #313338;
}
.mention, .command-mention { color: #4752c4; background: rgba(88, 101, 242, .15); }
"""


# The page dims every button while it waits for the bot (its "Updating viewport" state, which
# a headless capture never leaves): buttons look as they do on Discord, the disabled ones still
# dimmed.
READY = """
button.component-button[aria-disabled="true"]:not(:disabled) { opacity: 1; cursor: pointer; }
"""


@contextmanager
def theme(light: bool):
    """The preview serves its stylesheet with READY, and the light palette if asked."""
    real = _server.PreviewServer._static

    async def static(self, request):
        response = await real(self, request)
        if request.path == "/preview.css":
            response.text = response.text + READY + (LIGHT if light else "")
        return response

    _server.PreviewServer._static = static
    try:
        yield
    finally:
        _server.PreviewServer._static = real


async def shoot(chromium: str, url: str, out: Path, profile: Path, width: int, height: int):
    proc = await asyncio.create_subprocess_exec(
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={profile}", f"--window-size={width},{height}",
        "--virtual-time-budget=8000", f"--screenshot={out}", url,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    if await proc.wait() != 0 or not out.exists():
        raise SystemExit(f"chromium failed to write {out}")
    print("wrote", out.relative_to(ROOT) if out.is_relative_to(ROOT) else out)


async def scene(chromium: str, out: Path, name: str, heights: tuple[int, int], act) -> None:
    """A fresh playground; `act(env, channel, members)` makes the messages; then the shots:
    desktop and phone in the dark theme, desktop in the light one."""
    tmp = Path(tempfile.mkdtemp())
    bot = StealBot(tmp / "playground.db", sync=True, turn_seconds=None, lobby_seconds=None)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, members = build_world(env)
            await act(env, channel, members)
            for suffix, width, height, light in (
                ("", WIDTH, heights[0], False), ("-phone", PHONE, heights[1], False),
                ("-light", WIDTH, heights[0], True),
            ):  # fmt: skip
                with theme(light):
                    async with env.preview(
                        channel, viewers=members, layout="channel", display="fixed",
                        width=width, height=height, port=0,
                    ) as preview:  # fmt: skip
                        target = out / f"{name}{suffix}.png"
                        await shoot(chromium, preview.url, target, tmp / "chrome", width, height)
    finally:
        if bot.storage is not None:
            await bot.storage.close()
        shutil.rmtree(tmp, ignore_errors=True)


async def panel(env, channel, members) -> None:
    """The panel: a setting changed by command, two by menu and toggle; the rules open."""
    admin = members[0]
    await admin.slash(channel, "steal-admin set", setting="turn_timer", value="5m")
    shown = (await admin.slash(channel, "steal-admin settings")).response
    await admin.select(shown, ["classic"], custom_id=ids.setting("preset"))
    await admin.click(shown, custom_id=ids.toggle("wild_jacks", True))


async def replay(env, channel, members) -> None:
    """A finished game of the three (one with a good steal), replayed at its biggest steal."""
    seats = [str(m.id) for m in members]
    storage = env.bot.storage
    for seed in range(50):
        game = play_out(new_game(preset("standard"), seats, seed=seed), random.Random(seed))
        row = await storage.games.create(
            channel.guild.id, channel.id, seats[0], {}, state=to_dict(game)
        )
        names = {str(m.id): m.name for m in members}
        await results.finish(storage, row.id, channel.guild.id, game, names=names)
        if any(e["type"] == "stole" and e["n"] >= 6 for e in _events(game)):
            break
    viewer = (await members[0].slash(channel, "steal replay")).response
    steal = next(
        c["custom_id"]
        for c in walk_components(viewer.components)
        if (c.get("custom_id") or "").startswith("stb:replay:steal:")
    )
    await members[0].click(viewer, custom_id=steal)


async def main(chromium: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    await scene(chromium, out, "admin-panel", (1800, 2400), panel)
    await scene(chromium, out, "replay", (1250, 1200), replay)


def _events(game) -> list[dict]:
    from bot.engine import record, replay

    events: list = []
    replay(record(game), events)
    return [e for es in events for e in es]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    asyncio.run(main(args.chromium, args.out.resolve()))
