"""Screenshots of the tournament screens (bot/ui/tournament/) in SimCord's preview, with
headless Chromium: the sign-up, a round's tables, the standings and the champion, each at a
desktop's width and a phone's (360 px), in Discord's dark theme and its light one.

    .venv/bin/python -m scripts.tournament_shots [--chromium /usr/bin/chromium] [--out DIR]
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
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord

from bot.domain.tournament import (
    Entrant,
    RoundPlan,
    TableResult,
    TournamentInfo,
    ai_entrant,
    seat_swiss,
    standings,
)
from bot.ui import tournament as ui
from bot.ui.render import Message

from ._playground import playground, scratch
from ._shots import arguments, shooter

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


def tournament(members: list[Any], n: int) -> tuple[TournamentInfo, dict[str, str]]:
    people = [str(m.id) for m in members] + [str(900 + i) for i in range(n - 2 - len(members))]
    names = {str(m.id): str(m.name) for m in members}
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


Played = tuple[list[RoundPlan], list[list[TableResult]], list[tuple[str, ...]], set[str]]


def play(info: TournamentInfo, rounds: int) -> Played:
    rng = random.Random(SEED)
    plans: list[RoundPlan] = []
    results: list[list[TableResult]] = []
    byes: list[tuple[str, ...]] = []
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
    suffix = "" if lang == "en" else f"-{lang}"
    with scratch() as tmp:
        db = tmp / "playground.db"
        async with playground(db, seed=SEED, greet=True) as (bot, env, channel, members):
            info, names = tournament(members, players)
            info = replace(info, guild_id=channel.guild.id, channel_id=channel.id)
            plans, results, byes, dropped = play(info, 3)
            where = bot.get_channel(channel.id)
            assert isinstance(where, discord.TextChannel)
            shoot = shooter(env, channel, members, chromium, out, tmp / "chrome")

            async def post(message: Message, name: str) -> None:
                await where.send(**message.send_kwargs())
                desktop, phone = HEIGHTS[name]
                base = f"tournament-{name}{suffix}"
                for width, height, tail in ((WIDTH, desktop, ""), (PHONE, phone, "-phone")):
                    for light in (False, True):
                        shown = f"{base}{tail}{'-light' if light else ''}"
                        await shoot(shown, width, height, light=light)

            await post(ui.signup_view(info, names, lang, NOW), "signup")
            running = replace(info, status="running", round=2)
            threads: list[int | None] = []
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


HEIGHTS["standings-final"] = HEIGHTS["standings"]

if __name__ == "__main__":
    args = arguments(
        __doc__,
        language={"default": "en", "choices": ["en", "es", "fr", "it"]},
        players={"type": int, "default": 16},
    )
    asyncio.run(main(args.chromium, args.out, args.language, args.players))
