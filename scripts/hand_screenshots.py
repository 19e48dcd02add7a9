"""Screenshots of the hand in the local playground, with headless Chromium: at a desktop and a
360-px phone width, on Discord's dark theme and (the preview's colours overridden) its light
one; also forced play's greyed moves, a hand waiting for its turn, and a Spanish deck.

    .venv/bin/python scripts/hand_screenshots.py [--chromium /usr/bin/chromium] [--out DIR]

Writes hand-*.png into DIR (docs/screenshots by default). Needs Chromium; tests never run this.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402
import simcord.interactions  # noqa: E402
from shots import arguments, capture  # noqa: E402
from simcord.components import walk_components  # noqa: E402

from bot.client import StealBot  # noqa: E402
from bot.domain.options import Options  # noqa: E402
from bot.playground import GUILD_ID, build_world  # noqa: E402
from scripts.screenshots import SEED, click_id, whose_turn  # noqa: E402

DESKTOP, PHONE, HEIGHT = 1000, 360, 1300
# The members' Discord language (SimCord sends en-US): hands are in their reader's language.
_locale = {"value": "en-US"}
_real_payload = simcord.interactions.base_payload


def _base_payload(backend, **kwargs):
    record, payload = _real_payload(backend, **kwargs)
    payload["locale"] = _locale["value"]
    return record, payload


simcord.interactions.base_payload = _base_payload


def moves(hand) -> list[dict]:
    tree = [c if isinstance(c, dict) else c.to_dict() for c in hand.components]
    return [c for c in walk_components(tree) if c.get("type") == 2 and ":move:" in c["custom_id"]]


async def first_move(table, members, hands) -> None:
    player = whose_turn(table, members)
    hand = hands.get(player.id)
    if hand is None or not moves(hand):
        hand = hands[player.id] = (
            await player.click(table, custom_id=click_id(table, "hand"))
        ).response
    playable = [b for b in moves(hand) if not b.get("disabled")]
    await player.click(hand, custom_id=playable[-1]["custom_id"])  # a trail: keep the pool full


async def game(out: Path, chromium: str, tmp: Path, rules: str, lang: str, shots) -> None:
    options = Options(turn_seconds=None, lobby_seconds=None, seed_source=lambda: SEED)
    bot = StealBot(tmp / f"{rules}.db", options=options, sync=True)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, members = build_world(env)
            you = members[0]
            await bot.storage.settings.set(GUILD_ID, "language", lang)
            _locale["value"] = {"en": "en-US", "es": "es-ES"}[lang]

            async def shot(name: str, width: int, light: bool = False) -> None:
                target = out / f"{name}.png"
                await capture(
                    env, channel, members, chromium, target, tmp / "chrome", width, HEIGHT,
                    light=light,
                )  # fmt: skip

            lobby = (await you.slash(channel, "steal new", rules=rules)).response
            for m in members[1:]:
                await m.click(lobby, custom_id=click_id(lobby, "join"))
            await you.click(lobby, custom_id=click_id(lobby, "start"))
            table = lobby
            hands: dict = {}
            await shots(env, table, members, hands, shot)
    finally:
        if bot.storage is not None:
            await bot.storage.close()


async def standard(env, table, members, hands, shot) -> None:
    you = members[0]
    await first_move(table, members, hands)  # bob acts first: you wait
    hands.pop(you.id, None)
    waiting = None
    for _ in range(60):
        if whose_turn(table, members) is you:
            mine = (await you.click(table, custom_id=click_id(table, "hand"))).response
            labels = [b["label"] for b in moves(mine)]
            if any(" → capture " in x for x in labels) and len(labels) >= 5:
                break
        elif waiting is None:
            waiting = (await you.click(table, custom_id=click_id(table, "hand"))).response
            await shot("hand-waiting-phone-dark", PHONE)
        await first_move(table, members, hands)
    await shot("hand-desktop-dark", DESKTOP)
    await shot("hand-phone-dark", PHONE)
    await shot("hand-desktop-light", DESKTOP, light=True)
    await shot("hand-phone-light", PHONE, light=True)


def until_greyed(name: str):
    async def shots(env, table, members, hands, shot) -> None:
        you = members[0]
        for _ in range(80):
            if whose_turn(table, members) is you:
                mine = (await you.click(table, custom_id=click_id(table, "hand"))).response
                if any(b.get("disabled") for b in moves(mine)):
                    break
            await first_move(table, members, hands)
        await shot(name, PHONE)

    return shots


async def main(chromium: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())
    try:
        await game(out, chromium, tmp, "standard", "en", standard)
        await game(out, chromium, tmp, "traditional", "en", until_greyed("hand-forced-phone-dark"))
        await game(out, chromium, tmp, "casita", "es", until_greyed("hand-casita-phone-dark"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    args = arguments(__doc__)
    asyncio.run(main(args.chromium, args.out))
