"""Screenshots of the tournament screens (bot/ui/tournament.py) in SimCord's preview, with
headless Chromium: the sign-up, a round's tables, the standings and the champion, each at a
desktop's width and a phone's (360 px), in Discord's dark theme and its light one.

    .venv/bin/python scripts/tournament_shots.py [--chromium /usr/bin/chromium] [--out DIR]
        [--language en|es|fr|it] [--players 16]

Writes tournament-<screen>[-phone][-light].png for screen in signup, round, standings and
champion. The screens are rendered from a made-up 16-player Swiss tournament (3 rounds at
tables of 4, two AI entrants, one drop-out) and posted by the bot into the playground's
channel, one after the other (the sign-up with its check-in open, so its Check in button
shows); each shot opens at the newest. The round's table links are
threads of the channel, made as the bot makes them. Needs Chromium; tests never run this.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sys
import tempfile
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import simcord  # noqa: E402
from shots import arguments, capture  # noqa: E402

from bot.client import StealBot  # noqa: E402
from bot.domain.options import Options  # noqa: E402
from bot.domain.tournament import (  # noqa: E402
    Entrant,
    TableResult,
    TournamentInfo,
    ai_entrant,
    seat_swiss,
    standings,
)
from bot.playground import build_world, welcome  # noqa: E402
from bot.ui import tournament as ui  # noqa: E402

SEED = 20261202
NOW = datetime(2026, 1, 1, tzinfo=UTC)  # SimCord's clock: its messages' time
WIDTH, PHONE = 1000, 360
HEIGHTS = {  # (desktop, phone): enough for the newest message
    "signup": (600, 860),
    "round": (560, 900),
    "standings": (1450, 1250),
    "champion": (360, 460),
}
NAMES = ("dora", "eli", "fay", "gus", "hana", "ivo", "jun", "kai", "lea", "max", "nia",
         "Oscar the Magnificent", "pia")  # fmt: skip


def tournament(members: list[discord.abc.Snowflake], n: int) -> tuple[TournamentInfo, dict]:
    people = [str(m.id) for m in members] + [str(900 + i) for i in range(n - 2 - len(members))]
    names = {str(m.id): m.name for m in members}  # type: ignore[attr-defined]
    names.update({str(900 + i): NAMES[i % len(NAMES)] for i in range(n)})
    rng = random.Random(SEED)
    bots = (Entrant(ai_entrant("hard", 1)), Entrant(ai_entrant("medium", 1)))
    entrants = (*(Entrant(p, rating=round(rng.uniform(-5, 20), 1)) for p in people), *bots)
    now = NOW
    info = TournamentInfo(
        id=1, guild_id=0, channel_id=0, name="Winter Cup", host_id=int(people[0]),
        format="swiss", table_size=4, rounds=3, preset="standard", turn_seconds=120,
        signup_ends=now + timedelta(hours=2), starts_at=now + timedelta(hours=2, minutes=15),
        check_in=True, counted=True, status="signup", round=0, entrants=entrants,
        checked=len(entrants) - 5,
    )  # fmt: skip
    return info, names


def play(info: TournamentInfo, rounds: int):
    rng = random.Random(SEED)
    plans, results, byes = [], [], []
    dropped: set[str] = set()
    for number in range(1, rounds + 1):
        plan = seat_swiss(info.entrants, results, byes, dropped, info.table_size, SEED)
        tables = []
        for seats in plan.tables:
            finish = list(seats)
            rng.shuffle(finish)
            places = tuple(finish.index(w) for w in seats)
            tables.append(TableResult(seats, places, tuple(rng.randrange(4, 30) for _ in seats)))
        plans.append(plan)
        results.append(tables)
        byes.append(plan.byes)
        if number == 1:
            dropped.add(info.entrants[5].id)
    return plans, results, byes, dropped


async def main(chromium: str, out: Path, lang: str, players: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())
    options = Options(turn_seconds=None, lobby_seconds=None, seed_source=lambda: SEED)
    bot = StealBot(tmp / "playground.db", options=options, sync=True)
    suffix = "" if lang == "en" else f"-{lang}"
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, members = build_world(env)
            await welcome(bot, channel.id)
            info, names = tournament(members, players)
            info = replace(info, guild_id=channel.guild.id, channel_id=channel.id)
            plans, results, byes, dropped = play(info, 3)
            where = bot.get_channel(channel.id)
            assert isinstance(where, discord.TextChannel)

            async def post(message: ui.Message, name: str) -> None:
                await where.send(**message.send_kwargs())
                desktop, phone = HEIGHTS[name]
                base = f"tournament-{name}{suffix}"
                for width, height, tail in ((WIDTH, desktop, ""), (PHONE, phone, "-phone")):
                    for light in (False, True):
                        target = out / f"{base}{tail}{'-light' if light else ''}.png"
                        await capture(env, channel, members, chromium, target, tmp / "chrome",
                                      width, height, light=light)  # fmt: skip

            await post(ui.signup_view(info, names, lang, NOW), "signup")
            running = replace(info, status="running", round=2)
            threads = []
            for i, _ in enumerate(plans[1].tables):
                thread = await where.create_thread(
                    name=f"Winter Cup · R2 · T{i + 1}", type=discord.ChannelType.public_thread
                )
                threads.append(thread.id)
            second = replace(plans[1], left=tuple(sorted(dropped)))
            await post(ui.round_view(running, second, threads, names, lang), "round")
            rows = standings(info.entrants, results[:2], byes[:2], dropped)
            viewer = str(members[0].id)
            await post(ui.standings_view(running, rows, names, lang, viewer=viewer), "standings")
            done = replace(info, status="finished", round=3)
            rows = standings(info.entrants, results, byes, dropped)
            await post(ui.standings_view(done, rows, names, lang, final=True), "standings-final")
            await post(ui.champion_view(done, rows, names, lang), "champion")
    finally:
        if bot.storage is not None:
            await bot.storage.close()
        shutil.rmtree(tmp, ignore_errors=True)


HEIGHTS["standings-final"] = HEIGHTS["standings"]

if __name__ == "__main__":
    args = arguments(
        __doc__,
        language={"default": "en", "choices": ["en", "es", "fr", "it"]},
        players={"type": int, "default": 16},
    )
    asyncio.run(main(args.chromium, args.out, args.language, args.players))
