"""Play a scripted game in the local playground and screenshot it with headless Chromium.

    .venv/bin/python -m scripts.screenshots [--chromium /usr/bin/chromium] [--out docs/screenshots]
        [--language es]

Writes lobby.png, table.png, hand.png, hint-phone.png (360 px wide), end.png, table-phone.png
(the table at 360 px), table-light.png (Discord's light theme) and table-italian.png (a
Rubamazzo game: the Italian deck, in Italian). Needs Chromium; tests never run this.

SimCord's preview is dark only: the light shot overrides its colour variables with Discord's
light palette (scripts/_shots.py).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.playground import GUILD_ID

from ._playground import (
    click_id,
    is_over,
    open_hand,
    play_one,
    playground,
    scratch,
    start,
    storage_of,
    whose_turn,
)
from ._shots import arguments, shooter

WIDTH, HEIGHT = 1000, 1300
PHONE = 360  # px: a small phone's width


async def main(chromium: str, out: Path, language: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with scratch() as tmp:
        async with playground(tmp / "playground.db") as (bot, env, channel, members):
            ann, bob, cat = members
            settings = storage_of(bot).settings
            if language != "en":  # public messages in that language
                await settings.set(GUILD_ID, "language", language)
            shoot = shooter(env, channel, members, chromium, out, tmp / "chrome")

            async def shot(name: str, width: int = WIDTH, *, light: bool = False) -> None:
                await shoot(name, width, HEIGHT, light=light)

            lobby = (await ann.slash(channel, "steal new")).response
            await bob.click(lobby, custom_id=click_id(lobby, "join"))
            await cat.click(lobby, custom_id=click_id(lobby, "join"))
            await shot("lobby")
            await ann.click(lobby, custom_id=click_id(lobby, "start"))
            table = lobby
            hands: dict[int, Any] = {}
            # A round and a bit, so the table shows bundles and a last move, on ann's turn.
            moves = 0
            while moves < 4 or whose_turn(table, members) is not ann:
                await play_one(table, members, hands)
                moves += 1
            await shot("table")
            await shot("table-phone", PHONE)  # the table at a phone's width
            await shot("table-light", light=True)
            hands[ann.id] = await open_hand(table, ann)
            await shot("hand")
            await ann.click(hands[ann.id], custom_id=click_id(hands[ann.id], "hint"))
            await shot("hint-phone", PHONE)  # the hint's answer, at a phone's width
            moves = 0
            while not is_over(table):
                await play_one(table, members, hands)
                moves += 1
                if moves > 400:
                    raise SystemExit("the game did not end")
            await shot("end")

            # A Rubamazzo game, in Italian: the Italian deck's suits and ranks.
            await settings.set(GUILD_ID, "language", "it")
            table, hands = await start(channel, members, rules="rubamazzo"), {}
            for _ in range(5):
                await play_one(table, members, hands)
            await shot("table-italian")


if __name__ == "__main__":
    args = arguments(__doc__, language={"default": "en", "choices": ("en", "es", "fr", "it")})
    asyncio.run(main(args.chromium, args.out, args.language))
