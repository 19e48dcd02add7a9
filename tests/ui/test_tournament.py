"""The tournament screens: within Discord's limits for 2, 16 and 256 entrants in every
language, hostile names shown as typed, the standings picture readable on a phone with its
alt text listing every row it shows, and the buttons' custom_ids read back."""

from __future__ import annotations

import io
import random
import re
from dataclasses import replace
from datetime import UTC, datetime
from functools import cache

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.domain.tournament import (
    Entrant,
    RoundPlan,
    TableResult,
    TournamentInfo,
    ai_entrant,
    seat_swiss,
    standings,
)
from bot.i18n import LANGUAGES, t
from bot.ui import ids
from bot.ui import tournament as ui
from bot.ui.picture.fonts import FONTS
from bot.ui.picture.layout import READABLE, shown_px
from bot.ui.picture.standings import FONTS_USED, WIDTH, height
from tests.support.hostile import HOSTILE, check_alt, check_label, check_text, names

from .messages import labels, parts, texts, within_limits

NOW = datetime(2026, 12, 2, 12, tzinfo=UTC)
LONG = ("*_~`|" * 7)[:32]  # Discord's longest display name, doubled by escaping
THREAD = 987654321098765432


def entrants(n: int, ai: int = 0) -> tuple[Entrant, ...]:
    people = [Entrant(str(10**17 + i), rating=float(n - i)) for i in range(n - ai)]
    bots = [Entrant(ai_entrant("hard", i + 1), rating=0.0) for i in range(ai)]
    return (*people, *bots)


def info(n: int, **changes: object) -> TournamentInfo:
    base = TournamentInfo(
        id=7, guild_id=1, channel_id=2, name=LONG * 3, host_id=10**17, format="swiss",
        table_size=4, rounds=3, preset="rubamazzo", turn_seconds=90,
        signup_ends=datetime(2026, 12, 2, 18, tzinfo=UTC),
        starts_at=datetime(2026, 12, 2, 19, tzinfo=UTC), check_in=True, counted=True,
        status="signup", round=0, entrants=entrants(n, ai=min(2, n // 8)),
    )  # fmt: skip
    return replace(base, **changes)


def named(tour: TournamentInfo, name: str = LONG) -> dict[str, str]:
    return {e.id: name for e in tour.entrants}


def played(tour: TournamentInfo, rounds: int, seed: int = 1):
    """`rounds` Swiss rounds with random results: (plans, results, byes)."""
    return _played(tour.entrants, tour.table_size, rounds, seed)


@cache
def _played(entrants: tuple[Entrant, ...], size: int, rounds: int, seed: int):
    rng = random.Random(seed)
    plans, results, byes = [], [], []
    for _ in range(rounds):
        plan = seat_swiss(entrants, results, byes, (), size, seed)
        tables = []
        for seats in plan.tables:
            finish = list(seats)
            rng.shuffle(finish)
            places = tuple(finish.index(w) for w in seats)
            tables.append(TableResult(seats, places, tuple(rng.randrange(40) for _ in seats)))
        plans.append(plan)
        results.append(tables)
        byes.append(plan.byes)
    return plans, results, byes


def every_view(tour: TournamentInfo, names_: dict[str, str], lang: str):
    plans, results, byes = played(tour, 3)
    dropped = {tour.entrants[0].id}
    rows = standings(tour.entrants, results, byes, dropped)
    threads = [THREAD] * len(plans[-1].tables)
    viewer = tour.entrants[-1].id
    running = replace(tour, status="running", round=3)
    return [
        ui.signup_view(tour, names_, lang, NOW),
        ui.signup_view(replace(tour, signup_ends=None, starts_at=None), names_, lang, NOW),
        ui.signup_view(running, names_, lang, NOW),
        ui.round_view(running, plans[-1], threads, names_, lang),
        ui.round_view(running, plans[0], [], names_, lang),
        ui.standings_view(running, rows, names_, lang, viewer=viewer),
        ui.standings_view(replace(tour, status="finished"), rows, names_, lang, final=True),
        ui.champion_view(replace(tour, status="finished"), rows, names_, lang),
        ui.tournaments_list_view([tour, running] * 10, names_, lang),
        ui.tournaments_list_view([], names_, lang),
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("n", [2, 16, 256])
def test_every_view_stays_within_discords_limits(n: int, lang: str) -> None:
    tour = info(n)
    for message in every_view(tour, named(tour), lang):
        within_limits(message)
        for label in labels(message):
            assert 0 < len(label) <= 80


@settings(max_examples=12, deadline=None)
@given(
    st.lists(names, min_size=16, max_size=16), st.sampled_from(HOSTILE), st.sampled_from(LANGUAGES)
)
def test_hostile_names_never_act(people: list[str], tour_name: str, lang: str) -> None:
    tour = info(16, name=tour_name + " cup")
    known = {e.id: people[i] for i, e in enumerate(tour.entrants)}
    known[str(tour.host_id)] = people[0]
    for message in every_view(tour, known, lang):
        for shown, markdown in parts(message):
            if markdown:
                check_text(shown.replace(f"<#{THREAD}>", ""), seats=())
            elif markdown is None:
                check_alt(shown)
            else:
                check_label(shown)


def test_the_signup_lists_sixteen_then_counts_the_rest() -> None:
    tour = info(256)
    known = {e.id: f"name{i}" for i, e in enumerate(tour.entrants)}
    message = ui.signup_view(tour, known, "en", NOW)
    body = "\n".join(texts(message))
    assert "name15" in body and "name16" not in body
    assert "+240 more" in body and "256 players" in body
    deadline = int(datetime(2026, 12, 2, 18, tzinfo=UTC).timestamp())
    assert f"<t:{deadline}:R>" in body  # the deadline, as a Discord timestamp
    buttons = [i for i in message.view.walk_children() if isinstance(i, discord.ui.Button)]
    assert [ids.parse(b.custom_id) for b in buttons] == [
        ids.Action("tour", 7, op=op) for op in ("join", "leave", "checkin", "start")
    ]
    assert [b.label for b in buttons] == ["Join", "Leave", "Check in", "Start now"]
    assert "Check-in is open: press **Check in** or you won't be seated · 0 of 256" in body
    opens = datetime(2026, 12, 2, 18, 45, tzinfo=UTC)
    later = "\n".join(texts(ui.signup_view(replace(tour, check_in_opens=opens), known, "en", NOW)))
    assert f"Check-in opens <t:{int(opens.timestamp())}:R>" in later
    plain = ui.signup_view(replace(tour, check_in=False), known, "en", NOW)
    assert "Check in" not in [b.label for b in plain.view.walk_children()
                              if isinstance(b, discord.ui.Button)]  # fmt: skip
    assert not any(b.disabled for b in buttons)


def test_a_lone_entrant_cannot_start_and_a_started_signup_has_no_buttons() -> None:
    alone = info(1)
    message = ui.signup_view(alone, named(alone), "en", NOW)
    start = [b for b in message.view.walk_children() if isinstance(b, discord.ui.Button)][-1]
    assert start.disabled and "once 2 players have joined" in "\n".join(texts(message))
    running = replace(info(16), status="running", round=2)
    message = ui.signup_view(running, named(running), "es", NOW)
    assert labels(message) == []
    assert "ronda 2 de 3 en juego" in "\n".join(texts(message))


def test_ai_entrants_are_named_as_ai_seats() -> None:
    tour = info(16)
    body = "\n".join(texts(ui.signup_view(tour, {}, "en", NOW)))
    assert "a player · 🤖 Hard bot · 🤖 Hard bot 2" in body  # names unknown: "a player"
    few = replace(tour, entrants=tour.entrants[-2:])
    body = "\n".join(texts(ui.signup_view(few, {}, "it", NOW)))
    assert t("it", "name.ai.hard") in body and f"{t('it', 'name.ai.hard')} 2" in body


def test_a_round_links_each_table_to_its_thread() -> None:
    tour = replace(info(10), status="running", round=1)
    plan = RoundPlan(1, (tuple(e.id for e in tour.entrants[:4]),
                         tuple(e.id for e in tour.entrants[4:7]),
                         tuple(e.id for e in tour.entrants[7:])), ())  # fmt: skip
    known = {e.id: f"p{i}" for i, e in enumerate(tour.entrants)}
    body = "\n".join(texts(ui.round_view(tour, plan, [11, None, 33], known, "en")))
    assert "**Table 1** · <#11> · p0, p1, p2, p3" in body
    assert "**Table 2** · thread opening… · p4, p5, p6" in body
    assert "<#33>" in body and "Round 1 of 3" in body


def test_a_round_of_256_lists_what_fits_and_counts_the_rest() -> None:
    tour = replace(info(256), status="running", round=1)
    plan = seat_swiss(tour.entrants, [], [], (), 4, seed=1)
    message = ui.round_view(tour, plan, [THREAD] * 64, named(tour), "fr")
    body = "\n".join(texts(message))
    listed = len(re.findall(r"\*\*Table \d+\*\*", body))
    assert 10 < listed < 64
    assert f"+{64 - listed} autres tables" in body


def test_byes_and_the_knockout_final() -> None:
    tour = replace(info(5, format="knockout", table_size=2), status="running", round=1)
    known = {e.id: f"p{i}" for i, e in enumerate(tour.entrants)}
    ids_ = [e.id for e in tour.entrants]
    plan = RoundPlan(1, ((ids_[1], ids_[4]), (ids_[2], ids_[3])), (ids_[0],))
    body = "\n".join(texts(ui.round_view(tour, plan, [], known, "en")))
    assert "Through without playing: p0" in body and "Round 1" in body
    final = RoundPlan(3, ((ids_[0], ids_[1]),), ())
    assert "The final" in texts(ui.round_view(tour, final, [], known, "en"))[0]
    swiss = replace(tour, format="swiss")
    body = "\n".join(texts(ui.round_view(swiss, plan, [], known, "en")))
    assert "Bye this round (3 points): p0" in body


def test_the_standings_picture_is_readable_on_a_phone() -> None:
    for font in FONTS_USED:
        assert shown_px(getattr(FONTS, font).size) >= READABLE
    tour = info(256)
    _, results, byes = played(tour, 3)
    rows = standings(tour.entrants, results, byes, ())
    viewer = rows[200].entrant
    scene = ui.standings_scene(tour, rows, named(tour), "en", viewer=viewer)
    assert len(scene.lines) == ui.STANDINGS_SHOWN + 1
    assert (
        scene.lines[-1].you and scene.lines[-1].after_gap and scene.lines[-1].rank == rows[200].rank
    )
    message = ui.standings_view(tour, rows, named(tour), "en", viewer=viewer)
    ((name, png),) = message.images
    assert name == ui.STANDINGS_PNG and len(png) <= 100 * 1024
    image = Image.open(io.BytesIO(png))
    assert image.size == (WIDTH, height(scene))
    assert "👉 You: rank" in "\n".join(texts(message))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_alt_text_lists_every_row_shown(lang: str) -> None:
    tour = info(256)
    _, results, byes = played(tour, 2)
    rows = standings(tour.entrants, results, byes, {tour.entrants[5].id})
    viewer = rows[-1].entrant
    message = ui.standings_view(tour, rows, named(tour, "W" * 32), lang, final=True, viewer=viewer)
    (gallery,) = [i for i in message.view.walk_children() if isinstance(i, discord.ui.MediaGallery)]
    alt = gallery.items[0].description or ""
    assert len(alt) <= 1024
    scene = ui.standings_scene(tour, rows, named(tour, "W" * 32), lang, True, viewer)
    at = 0
    for line in scene.lines:  # in order, each with its rank, a name and its points
        row = re.compile(rf"{line.rank}\. [^;]+? ?: {re.escape(line.points)}, ")
        found = row.search(alt, at)
        assert found, (line, alt)
        at = found.end()


def test_medals_only_in_the_final_standings() -> None:
    tour = info(16)
    _, results, byes = played(tour, 3)
    rows = standings(tour.entrants, results, byes, ())
    assert not any(line.medal for line in ui.standings_scene(tour, rows, {}, "en").lines)
    assert all(line.medal for line in ui.standings_scene(tour, rows, {}, "en", True).lines)
    final = "\n".join(texts(ui.standings_view(tour, rows, {}, "en", final=True)))
    assert "🥇" in final and "🥉" in final
    assert "🥇" not in "\n".join(texts(ui.standings_view(tour, rows, {}, "en")))


def test_the_champion_is_announced_with_medals() -> None:
    tour = replace(info(16), status="finished")
    _, results, byes = played(tour, 3)
    top = standings(tour.entrants, results, byes, ())[0].entrant
    rows = standings(tour.entrants, results, byes, {top})  # the leader left: not the champion
    known = {e.id: f"p{i}" for i, e in enumerate(tour.entrants)}
    body = "\n".join(texts(ui.champion_view(tour, rows, known, "en")))
    second = next(r for r in rows if not r.dropped).entrant
    assert f"🏆 {known[second]} is the champion!" in body
    assert body.index("🥇") < body.index("🥈") < body.index("🥉")
    assert f"🥇 {known[top]}" not in body
    everyone = set(known)
    nobody = "\n".join(
        texts(
            ui.champion_view(tour, standings(tour.entrants, results, byes, everyone), known, "en")
        )
    )
    assert "no champion" in nobody


def test_the_list_of_tournaments() -> None:
    tours = [replace(info(4), id=i, name=f"Cup {i}") for i in range(20)]
    body = "\n".join(texts(ui.tournaments_list_view(tours, {}, "en")))
    assert "Cup 14" in body and "Cup 15" not in body and "+5 older" in body
    assert "sign-up open" in body
    empty = "\n".join(texts(ui.tournaments_list_view([], {}, "en")))
    assert "No tournaments here yet" in empty and "tournament new" in empty


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_names_a_next_step(lang: str) -> None:
    for key in ui.ERRORS:
        message = ui.tournament_error(key, lang)
        assert message.content and key not in message.content and "{" not in message.content


@given(st.sampled_from(ids.TOUR_OPS), st.integers(0, 10**18 - 1))
def test_tour_ids_read_back(op: str, tournament: int) -> None:
    custom_id = ids.tour(op, tournament)
    assert ids.parse(custom_id) == ids.Action("tour", tournament, op=op)
    assert len(custom_id) <= 100


@pytest.mark.parametrize(
    "custom_id",
    ["stb:tour:join", "stb:tour:join:01", "stb:tour:explode:1", "stb:tour:join:1:2",
     "stb:tour:JOIN:1", "stb:tour:join:٣", "stb:tour:join:1234567890123456789"],
)  # fmt: skip
def test_tour_ids_the_bot_never_writes_are_refused(custom_id: str) -> None:
    assert ids.parse(custom_id) is None
