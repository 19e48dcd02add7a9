"""The tournament screens' edges (issue 32): a Swiss whose rounds are set at its start, and
the standings picture with long names and emoji."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from PIL import Image

from bot.domain.tournament import (
    Entrant,
    TournamentInfo,
    ai_entrant,
    standings,
    swiss_rounds_advised,
)
from bot.i18n import LANGUAGES, t, tn
from bot.ui import tournament as ui

from .messages import texts

NOW = datetime(2026, 12, 2, 12, tzinfo=UTC)


def entrants(n: int, ai: int = 0) -> tuple[Entrant, ...]:
    people = [Entrant(str(10**17 + i), rating=float(n - i)) for i in range(n - ai)]
    bots = [Entrant(ai_entrant("hard", i + 1), rating=0.0) for i in range(ai)]
    return (*people, *bots)


def info(n: int, **changes: object) -> TournamentInfo:
    base = TournamentInfo(
        id=7, guild_id=1, channel_id=2, name="Cup", host_id=10**17, format="swiss",
        table_size=4, rounds=3, preset="standard", turn_seconds=90, signup_ends=None,
        starts_at=None, check_in=False, counted=True, status="signup", round=0,
        entrants=entrants(n),
    )  # fmt: skip
    return replace(base, **changes)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_swiss_without_rounds_shows_the_advised_number_never_zero(lang: str) -> None:
    """Made without `rounds`, a Swiss is stored with 0 rounds until its start sets them: the
    sign-up says they are set at the start, and how many the entrants so far would play."""
    for n in (0, 1, 5, 17):
        tour = info(n, rounds=0)
        body = "\n".join(texts(ui.signup_view(tour, {}, lang, NOW)))
        zero = tn(lang, "tour.format_line.swiss", 0, size=4)
        assert zero not in body, body
        if n >= 2:
            advised = swiss_rounds_advised(n, 4)
            assert ui.format_words(lang, tour) == tn(
                lang, "tour.format_line.swiss_advised", advised, size=4
            )
            assert f" {advised} " in ui.format_words(lang, tour)
        else:
            assert ui.format_words(lang, tour) == t(lang, "tour.format_line.swiss_at_start", size=4)
    # Set rounds are shown as set.
    assert ui.format_words(lang, info(5)) == tn(lang, "tour.format_line.swiss", 3, size=4)


LONG_NAMES = (
    "Bartholomew Featherstonehaugh-Smythe",  # longer than Discord's 32: the worst case
    "abcdefghijklmnopqrstuvwxyzabcdef",  # 32 characters, no space to break at
    "🔥🔥 Dragon Slayer 🐉 of Doom 🔥",
)


def picture_of(names: dict[str, str], ai: int = 0) -> bytes:
    tour = info(len(names) + ai, entrants=entrants(len(names) + ai, ai=ai))
    ids_ = [e.id for e in tour.entrants]
    named = dict(zip(ids_, names.values(), strict=False))
    rows = standings(tour.entrants, [], [], ())
    message = ui.standings_view(tour, rows, named, "en")
    ((_, png),) = message.images
    return png


def test_the_standings_picture_draws_long_names_whole_and_their_emoji() -> None:
    """A name is drawn to its end (a long one over two lines): changing its last letter, or
    one of its emoji, changes the picture."""
    for name in LONG_NAMES:
        other = name[:-1] + ("X" if name[-1] != "X" else "Y")
        assert picture_of({"a": name}) != picture_of({"a": other}), name
    assert picture_of({"a": "🎲 Zoë"}) != picture_of({"a": "🎯 Zoë"})


def test_the_standings_alt_text_keeps_the_ai_entrants_robot() -> None:
    tour = info(3, entrants=entrants(3, ai=2))
    rows = standings(tour.entrants, [], [], ())
    scene = ui.standings_scene(tour, rows, {}, "en")
    alt = ui.alt_text("en", scene, "Standings")
    assert alt.count("🤖 ") == 2, alt
    assert sum(line.name.startswith("🤖") for line in scene.lines) == 2  # drawn as well


def test_long_names_make_taller_rows_within_the_size_limit() -> None:
    """Long names, emoji and an AI entrant: the picture keeps its width, grows taller rows
    for the long names and stays within its file size."""
    png = picture_of({str(i): n for i, n in enumerate(LONG_NAMES)}, ai=1)
    image = Image.open(io.BytesIO(png))
    assert image.size[0] == 480 and len(png) <= 100 * 1024
    short = Image.open(io.BytesIO(picture_of({str(i): "ann" for i in range(3)}, ai=1)))
    assert image.size[1] > short.size[1]
