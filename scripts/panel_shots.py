"""Screenshots of the settings panel and the replay viewer in the local playground, with
headless Chromium: desktop and phone (360 px) widths, Discord's dark theme and a light one.

    .venv/bin/python scripts/panel_shots.py [--chromium /usr/bin/chromium] [--out docs/screenshots]

Writes admin-panel.png, admin-panel-phone.png, admin-panel-light.png, replay.png,
replay-phone.png and replay-light.png. The light theme is the preview page's own CSS with
Discord's light palette put over its colour variables. Needs Chromium; tests never run this.
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
from simcord.components import walk_components  # noqa: E402

from bot.client import StealBot  # noqa: E402
from bot.domain.options import Options  # noqa: E402
from bot.engine import new_game, preset, to_dict  # noqa: E402
from bot.engine.playout import play_out  # noqa: E402
from bot.playground import build_world  # noqa: E402
from bot.session import results  # noqa: E402
from bot.ui import ids  # noqa: E402

WIDTH, PHONE = 1000, 360


async def scene(chromium: str, out: Path, name: str, heights: tuple[int, int], act) -> None:
    """A fresh playground; `act(env, channel, members)` makes the messages; then the shots:
    desktop and phone in the dark theme, desktop in the light one."""
    tmp = Path(tempfile.mkdtemp())
    options = Options(turn_seconds=None, lobby_seconds=None)
    bot = StealBot(tmp / "playground.db", options=options, sync=True)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, members = build_world(env)
            await act(env, channel, members)
            for suffix, width, height, light in (
                ("", WIDTH, heights[0], False), ("-phone", PHONE, heights[1], False),
                ("-light", WIDTH, heights[0], True),
            ):  # fmt: skip
                target = out / f"{name}{suffix}.png"
                await capture(
                    env, channel, members, chromium, target, tmp / "chrome", width, height,
                    light=light,
                )  # fmt: skip
    finally:
        if bot.storage is not None:
            await bot.storage.close()
        shutil.rmtree(tmp, ignore_errors=True)


async def panel(env, channel, members) -> None:
    """The panel: a setting changed by command, two by menus; the rules open."""
    admin = members[0]
    await admin.slash(channel, "steal-admin set", setting="turn_timer", value="5m")
    shown = (await admin.slash(channel, "steal-admin settings")).response
    await admin.select(shown, ["classic"], custom_id=ids.setting("preset"))
    on = ["host_picks_preset", "stealing", "wild_jacks"]  # classic's, with wild jacks on
    await admin.select(shown, on, custom_id=ids.switches("rules"))


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
    await scene(chromium, out, "admin-panel", (1100, 1450), panel)
    await scene(chromium, out, "replay", (1250, 1200), replay)


def _events(game) -> list[dict]:
    from bot.engine import record, replay

    events: list = []
    replay(record(game), events)
    return [e for es in events for e in es]


if __name__ == "__main__":
    args = arguments(__doc__)
    asyncio.run(main(args.chromium, args.out))
