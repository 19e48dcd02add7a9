"""Screenshots of issue 36's new places (docs/playing.md, "Where you can play") in the local
playground, with headless Chromium, in Spanish (a non-English language): each at a desktop's
width and a phone's (360 px) in Discord's dark theme, and at the desktop width in its light one.

    .venv/bin/python -m scripts.places_shots [--chromium /usr/bin/chromium] [--out DIR]

Writes, each also -phone and -light:
- places-forced-private.png: a server with "Use External Apps" off made the lobby ephemeral:
  the reply that replaced it, as its host sees it (nobody else sees anything);
- places-dm-game.png: a game against two AI opponents in the DM with the bot, a few moves in.
The server's forcing is the tests' own, tests/e2e/support/external_apps.py (at SimCord's
callback route). Needs Chromium; tests never run this.
"""

from __future__ import annotations

import asyncio
import importlib
from pathlib import Path
from typing import Any

from ._playground import LOCALES, click_id, members_speak, play_one, playground, scratch
from ._shots import arguments, capture

WIDTH, PHONE, HEIGHT = 1000, 360, 1300
# The tests' "Use External Apps" off (as group_dm_shots takes the tests' group-DM layer).
EXTERNAL = importlib.import_module("tests.e2e.support.external_apps")


async def main(chromium: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    members_speak(LOCALES["es"])
    with scratch() as tmp:

        async def shots(env: Any, channel: Any, viewer: Any, name: str) -> None:
            for suffix, width, light in (("", WIDTH, False), ("-phone", PHONE, False),
                                         ("-light", WIDTH, True)):  # fmt: skip
                await capture(
                    env, channel, [viewer], chromium, out / f"{name}{suffix}.png", tmp / "chrome",
                    width, HEIGHT, light=light,
                )  # fmt: skip

        async with playground(tmp / "dm.db") as (_, env, _channel, _members):
            dee = env.create_user("dee")
            lobby = (await dee.slash("steal new", bots=2, difficulty="medium")).response
            await dee.click(lobby, custom_id=click_id(lobby, "start"))
            hands: dict[int, Any] = {}
            for _ in range(4):
                await play_one(lobby, [dee], hands)
            await shots(env, dee.dm_channel, dee, "places-dm-game")

        async with playground(tmp / "forced.db", greet=True) as (_, env, channel, members):
            with EXTERNAL.external_apps_off(channel.guild.id):
                said = await members[0].slash(channel, "steal new", bots=1)
                if not said.ephemeral:
                    raise SystemExit("the lobby did not come back ephemeral")
                await shots(env, channel, members[0], "places-forced-private")


if __name__ == "__main__":
    args = arguments(__doc__)
    asyncio.run(main(args.chromium, args.out))
