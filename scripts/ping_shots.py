"""Screenshots of the turn ping's choices (docs/operations.md, "Requests and the global limit")
in the local playground, with headless Chromium: at a desktop's width and a phone's (360 px) in
Discord's dark theme, and at the desktop width in its light theme.

    .venv/bin/python scripts/ping_shots.py [--chromium /usr/bin/chromium] [--out DIR]

Writes, each also -phone (ping-due also -light):
- ping-lone.png: one person against an AI, who just moved: no ping, the table only;
- ping-due.png: two people, the one to move has no open hand: the ping, with My hand;
- ping-nudge.png: the one to move has their hand open but sits idle past NUDGE_AFTER: the nudge;
- ping-retired.png: three people; after the next move the old ping is gone (deleted through
  the interaction webhook that sent it) and only the new one shows.
Each situation is a fresh playground; the script stops if one does not come out as named.
Needs Chromium; tests never run this.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402
from shots import arguments, capture  # noqa: E402
from simcord.components import walk_components  # noqa: E402

from bot.adapter.presenter.intake import NUDGE_AFTER  # noqa: E402
from bot.client import StealBot  # noqa: E402
from bot.domain.options import Options  # noqa: E402
from bot.playground import build_world, welcome  # noqa: E402
from scripts.screenshots import SEED, click_id, whose_turn  # noqa: E402

WIDTH, PHONE, HEIGHT = 1000, 360, 1300
PING = "your turn in Steal the Bundle!"  # the ping's words (English playground)


def moves(hand) -> list[dict]:
    tree = [c if isinstance(c, dict) else c.to_dict() for c in hand.components]
    return [
        c
        for c in walk_components(tree)
        if c.get("type") == 2 and ":move:" in c["custom_id"] and not c.get("disabled")
    ]


def pings(channel) -> list:
    return [m for m in channel.history() if PING in (m.content or "")]


def labels(message) -> list[str]:
    tree = [c if isinstance(c, dict) else c.to_dict() for c in message.components]
    return [c.get("label", "") for c in walk_components(tree) if c.get("type") == 2]


def check(ok: bool, what: str) -> None:
    if not ok:
        raise SystemExit(f"situation not produced: {what}")


async def open_hand(table, player):
    return (await player.click(table, custom_id=click_id(table, "hand"))).response


async def move(player, hand) -> None:
    await player.click(hand, custom_id=moves(hand)[-1]["custom_id"])  # a trail: a quiet move


@asynccontextmanager
async def playground(tmp: Path, name: str) -> AsyncIterator[tuple]:
    options = Options(turn_seconds=None, lobby_seconds=None, seed_source=lambda: SEED)
    bot = StealBot(tmp / f"{name}.db", options=options, sync=True)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, members = build_world(env)
            await welcome(bot, channel.id)
            yield env, channel, members
    finally:
        if bot.storage is not None:
            await bot.storage.close()


async def start(channel, people, **options):
    host, *others = people
    lobby = (await host.slash(channel, "steal new", **options)).response
    for m in others:
        await m.click(lobby, custom_id=click_id(lobby, "join"))
    await host.click(lobby, custom_id=click_id(lobby, "start"))
    return lobby


async def main(chromium: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())

    async def shots(env, channel, viewer, name: str, light: bool = False) -> None:
        """The channel as `viewer` sees it: desktop and phone, dark; desktop, light if asked."""
        views = [("", WIDTH, False), ("-phone", PHONE, False)]
        if light:
            views.append(("-light", WIDTH, True))
        for suffix, width, theme in views:
            await capture(
                env, channel, [viewer], chromium, out / f"{name}{suffix}.png", tmp / "chrome",
                width, HEIGHT, light=theme,
            )  # fmt: skip

    try:
        # 1. One person against an AI: she moves, the AI answers, her turn again: no ping.
        async with playground(tmp, "lone") as (env, channel, members):
            ann = members[0]
            table = await start(channel, [ann], bots=1)
            await env.advance_time(5)
            hand = None
            for _ in range(2):
                while whose_turn(table, members) is not ann:
                    await env.advance_time(1)  # the AI plays
                hand = hand if hand is not None and moves(hand) else await open_hand(table, ann)
                await move(ann, hand)
                await env.advance_time(5)  # the AI answers
            while whose_turn(table, members) is not ann:
                await env.advance_time(1)
            check(not pings(channel), "a lone player who just moved was pinged")
            await shots(env, channel, members[1], "ping-lone")  # what the channel shows

        # 2. Two people: ann moves with her hand open; bob has none: pinged with My hand.
        async with playground(tmp, "due") as (env, channel, members):
            ann, bob, cat = members
            table = await start(channel, [ann, bob])
            first = whose_turn(table, members)
            second = bob if first is ann else ann
            await move(first, await open_hand(table, first))
            await env.advance_time(2)
            shown = pings(channel)
            check(len(shown) == 1 and shown[0].content.startswith(second.mention), "no ping due")
            check("My hand" in labels(shown[0]), "the due ping has no My hand")
            await shots(env, channel, cat, "ping-due", light=True)

        # 3. Both hands open: the next player's wakes up, no ping, until they sit idle.
        async with playground(tmp, "nudge") as (env, channel, members):
            ann, bob, cat = members
            table = await start(channel, [ann, bob])
            hands = {m.id: await open_hand(table, m) for m in (ann, bob)}
            first = whose_turn(table, members)
            second = bob if first is ann else ann
            await move(first, hands[first.id])
            await env.advance_time(2)
            check(not pings(channel), "an open, fresh hand's player was pinged at once")
            await env.advance_time(NUDGE_AFTER)
            shown = pings(channel)
            check(len(shown) == 1 and shown[0].content.startswith(second.mention), "no nudge")
            await shots(env, channel, second, "ping-nudge")  # with their idle hand

        # 4. Three people, no hands open: each move's ping replaces the last one.
        async with playground(tmp, "retired") as (env, channel, members):
            table = await start(channel, members)
            first = whose_turn(table, members)
            await move(first, await open_hand(table, first))
            await env.advance_time(2)
            (old,) = pings(channel)
            second = whose_turn(table, members)
            check(old.content.startswith(second.mention), "the second player was not pinged")
            since = len(env.http_requests)
            await move(second, await open_hand(old, second))  # through the ping's My hand
            await env.advance_time(2)
            third = whose_turn(table, members)
            shown = pings(channel)
            check(
                len(shown) == 1 and shown[0].id != old.id
                and shown[0].content.startswith(third.mention),
                "the old ping was not replaced",
            )  # fmt: skip
            deleted = [
                f"{r.method} {r.path}"
                for r in env.http_requests[since:]
                if r.method == "DELETE" and r.path.endswith(f"/messages/{old.id}")
            ]
            check(
                len(deleted) == 1 and deleted[0].startswith("DELETE /webhooks/"),
                f"the old ping was not deleted through its webhook: {deleted}",
            )
            print("old ping deleted by", deleted[0].split("/messages/")[0] + "/messages/…")
            await shots(env, channel, third, "ping-retired")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    args = arguments(__doc__)
    asyncio.run(main(args.chromium, args.out))
