"""Screenshots of the settings panel and the replay viewer in the local playground, with
headless Chromium: desktop and phone (360 px) widths, Discord's dark theme and a light one.

    .venv/bin/python -m scripts.panel_shots [--chromium /usr/bin/chromium] [--out docs/screenshots]

Writes admin-panel.png, admin-panel-phone.png, admin-panel-light.png, replay.png,
replay-phone.png and replay-light.png. The light theme is the preview page's own CSS with
Discord's light palette put over its colour variables. Needs Chromium; tests never run this.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.engine import Event, Game, new_game, preset, record, replay, to_dict
from bot.engine.events import Events
from bot.engine.playout import play_out
from bot.session import results
from bot.ui import ids

from ._playground import parts, playground, scratch, storage_of
from ._shots import arguments, shooter

WIDTH, PHONE = 1000, 360
Act = Callable[[Any, Any, Any, list[Any]], Awaitable[None]]


async def scene(chromium: str, out: Path, name: str, heights: tuple[int, int], act: Act) -> None:
    """A fresh playground; `act(bot, env, channel, members)` makes the messages; then the
    shots: desktop and phone in the dark theme, desktop in the light one."""
    with scratch() as tmp:
        async with playground(tmp / "playground.db", seed=None) as (bot, env, channel, members):
            await act(bot, env, channel, members)
            shoot = shooter(env, channel, members, chromium, out, tmp / "chrome")
            for suffix, width, height, light in (
                ("", WIDTH, heights[0], False), ("-phone", PHONE, heights[1], False),
                ("-light", WIDTH, heights[0], True),
            ):  # fmt: skip
                await shoot(f"{name}{suffix}", width, height, light=light)


async def panel(bot: Any, env: Any, channel: Any, members: list[Any]) -> None:
    """The panel: a setting changed by command, two by menus; the rules open."""
    admin = members[0]
    await admin.slash(channel, "steal-admin set", setting="turn_timer", value="5m")
    shown = (await admin.slash(channel, "steal-admin settings")).response
    await admin.select(shown, ["classic"], custom_id=ids.setting("preset"))
    on = ["host_picks_preset", "stealing", "wild_jacks"]  # classic's, with wild jacks on
    await admin.select(shown, on, custom_id=ids.switches("rules"))


async def replayed(bot: Any, env: Any, channel: Any, members: list[Any]) -> None:
    """A finished game of the three (one with a good steal), replayed at its biggest steal."""
    seats = [str(m.id) for m in members]
    storage = storage_of(bot)
    for seed in range(50):
        game = play_out(new_game(preset("standard"), seats, seed=seed), random.Random(seed))
        row = await storage.games.create(
            channel.guild.id, channel.id, seats[0], {}, state=to_dict(game)
        )
        names = {str(m.id): m.name for m in members}
        await results.finish(storage, row.id, channel.guild.id, game, names=names)
        if any(e["type"] == "stole" and e["n"] >= 6 for e in events(game)):
            break
    viewer = (await members[0].slash(channel, "steal replay")).response
    steal = next(
        c["custom_id"]
        for c in parts(viewer)
        if (c.get("custom_id") or "").startswith("stb:replay:steal:")
    )
    await members[0].click(viewer, custom_id=steal)


def events(game: Game) -> list[Event]:
    """Every event of a finished game, in order."""
    steps: list[Events] = []
    replay(record(game), steps)
    return [e for step in steps for e in step]


async def main(chromium: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    await scene(chromium, out, "admin-panel", (1100, 1450), panel)
    await scene(chromium, out, "replay", (1250, 1200), replayed)


if __name__ == "__main__":
    args = arguments(__doc__)
    asyncio.run(main(args.chromium, args.out))
