"""Screenshots of a game in a group DM, through the group-DM test layer
(tests/e2e/support/group_dm.py) on the local playground, with headless Chromium: the bot is no
member there, so every message is an interaction's answer or follow-up.

    .venv/bin/python -m scripts.group_dm_shots [--chromium /usr/bin/chromium] [--out DIR]

Writes group-dm-table.png (three people, some moves in: the table reposted as a follow-up, the
old one a link to it, turn pings that mention the player) and group-dm-paused.png (no click for
15 minutes: the game paused and says so). SimCord's preview shows a DM to its owner: the group
DM is shown to its first member as their DM. Needs Chromium; tests never run this.
"""

from __future__ import annotations

import asyncio
import importlib
from pathlib import Path
from typing import Any

import pytest
from simcord.builders import ChannelHandle

from ._playground import playground, scratch
from ._shots import arguments, capture

WIDTH, HEIGHT = 1000, 1500
# The group-DM layer and its play helpers are the tests' (untyped; mypy does not check tests):
# loaded by name, as a script uses them.
LAYER = importlib.import_module("tests.e2e.support.group_dm")
PLAY = importlib.import_module("tests.e2e.support.gdm_play")


async def shoot(env: Any, gdm: Any, viewer: Any, chromium: str, out: Path, tmp: Path) -> None:
    channel = ChannelHandle(env, None, env.backend.get_channel(gdm.channel_id))
    env.backend.dm_channels[viewer.id] = gdm.channel_id  # the preview's DM rule: its owner
    await capture(env, channel, [viewer], chromium, out, tmp / "profile", WIDTH, HEIGHT)


async def main(chromium: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    patches = pytest.MonkeyPatch()
    try:
        with scratch() as tmp:
            async with playground(tmp / "gdm.db") as (_, env, _, _):
                people = [env.create_user(n) for n in ("ann", "bob", "cat")]
                gdm = LAYER.TokenPlace.group_dm(env, patches, people, installer=people[0])
                await PLAY.start(gdm, people)
                hands: dict[int, Any] = {}
                for _ in range(24):  # a move every 20 s: the table is reposted at 7 minutes
                    await PLAY.play_one(gdm, people, hands)
                    await env.advance_time(20)
                if gdm.refused:
                    raise SystemExit("the bot token was used in the group DM")
                await shoot(env, gdm, people[0], chromium, out / "group-dm-table.png", tmp)
                await env.advance_time(15 * 60)
                await shoot(env, gdm, people[0], chromium, out / "group-dm-paused.png", tmp)
    finally:
        patches.undo()


if __name__ == "__main__":
    args = arguments(__doc__)
    asyncio.run(main(args.chromium, args.out))
