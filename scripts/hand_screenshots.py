"""Screenshots of the hand in the local playground, with headless Chromium: at a desktop and a
360-px phone width, on Discord's dark theme and (the preview's colours overridden) its light
one; also forced play's greyed moves, a hand waiting for its turn, and a Spanish deck.

    .venv/bin/python -m scripts.hand_screenshots [--chromium /usr/bin/chromium] [--out DIR]

Writes hand-*.png into DIR (docs/screenshots by default). Needs Chromium; tests never run this.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.playground import GUILD_ID

from ._playground import (
    LOCALES,
    members_speak,
    moves,
    open_hand,
    playground,
    scratch,
    start,
    storage_of,
    whose_turn,
)
from ._shots import Shot, arguments, shooter

DESKTOP, PHONE, HEIGHT = 1000, 360, 1300
Scenes = Callable[[Any, list[Any], dict[int, Any], Shot], Awaitable[None]]


async def trail(table: Any, members: list[Any], hands: dict[int, Any]) -> None:
    """The player to act plays their hand's last playable move (a trail: keeps the pool full)."""
    player = whose_turn(table, members)
    hand = hands.get(player.id)
    if hand is None or not moves(hand):
        hand = hands[player.id] = await open_hand(table, player)
    await player.click(hand, custom_id=moves(hand, playable=True)[-1]["custom_id"])


async def game(out: Path, chromium: str, tmp: Path, rules: str, lang: str, scenes: Scenes) -> None:
    async with playground(tmp / f"{rules}.db") as (bot, env, channel, members):
        await storage_of(bot).settings.set(GUILD_ID, "language", lang)
        members_speak(LOCALES[lang])
        shoot = shooter(env, channel, members, chromium, out, tmp / "chrome")

        async def shot(name: str, width: int, light: bool = False) -> None:
            await shoot(name, width, HEIGHT, light=light)

        table = await start(channel, members, rules=rules)
        await scenes(table, members, {}, shot)


async def standard(table: Any, members: list[Any], hands: dict[int, Any], shot: Shot) -> None:
    you = members[0]
    await trail(table, members, hands)  # bob acts first: you wait
    hands.pop(you.id, None)
    waiting = None
    for _ in range(60):
        if whose_turn(table, members) is you:
            mine = await open_hand(table, you)
            labels = [b["label"] for b in moves(mine)]
            if any(" → capture " in x for x in labels) and len(labels) >= 5:
                break
        elif waiting is None:
            waiting = await open_hand(table, you)
            await shot("hand-waiting-phone-dark", PHONE)
        await trail(table, members, hands)
    await shot("hand-desktop-dark", DESKTOP)
    await shot("hand-phone-dark", PHONE)
    await shot("hand-desktop-light", DESKTOP, light=True)
    await shot("hand-phone-light", PHONE, light=True)


def until_greyed(name: str) -> Scenes:
    async def scenes(table: Any, members: list[Any], hands: dict[int, Any], shot: Shot) -> None:
        you = members[0]
        for _ in range(80):
            if whose_turn(table, members) is you:
                mine = await open_hand(table, you)
                if any(b.get("disabled") for b in moves(mine)):
                    break
            await trail(table, members, hands)
        await shot(name, PHONE)

    return scenes


async def main(chromium: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with scratch() as tmp:
        await game(out, chromium, tmp, "standard", "en", standard)
        await game(out, chromium, tmp, "traditional", "en", until_greyed("hand-forced-phone-dark"))
        await game(out, chromium, tmp, "casita", "es", until_greyed("hand-casita-phone-dark"))


if __name__ == "__main__":
    args = arguments(__doc__)
    asyncio.run(main(args.chromium, args.out))
