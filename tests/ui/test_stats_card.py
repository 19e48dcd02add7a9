"""The stats card picture: the same card gives the same bytes, and long names, big numbers and
empty figures fit in every language."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n import LANGUAGES
from bot.ui import stats_card
from bot.ui.picture.fonts import FONTS
from bot.ui.picture.layout import SHOWN
from bot.ui.stats_card import StatsCard, alt_text, render_card, words

CARD = StatsCard("en", "ann", 12, 7, 1134, (1000, 1138, 1090, 1134), 2, 5, 14, ("french52", 13, 9))


def test_the_same_card_gives_the_same_bytes():
    assert render_card(CARD) == render_card(CARD)
    assert render_card(CARD) != render_card(CARD.__class__(**{**CARD.__dict__, "wins": 8}))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_and_odd_values_render(lang):
    odd = StatsCard(
        lang, "Bartholomew the Magnificent 🌵" * 3, 123456, 0, 0, (1000,), None, 0, 0, None
    )
    for card in (odd, StatsCard(**{**CARD.__dict__, "lang": lang})):
        picture = Image.open(io.BytesIO(render_card(card)))
        assert picture.size[0] == stats_card.WIDTH
        assert "{" not in alt_text(card) and len(alt_text(card)) <= 256


def test_words():
    w = words(CARD)
    assert (w["rating"], w["change"], w["over"], w["win_rate"]) == (
        "1,134",
        "+134",
        "last 3 games",
        "58%",
    )
    assert w["favourite"] == "Kings (9 captures)"
    assert (
        words(StatsCard("fr", "x", 3, 1, 12345, (1200, 1000), 1, 1, 0, None))["rating"] == "12 345"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_description_holds_every_figure_within_discords_limit(lang):
    """Every figure, big ones and a long name included: the name is shortened, never a figure."""
    big = StatsCard(
        lang, "Bartholomew the Magnificent", 12345, 6789, 1396, tuple(range(1000, 1011)), 12,
        3456, 13, ("french52", 12, 123), cards=45678, steals=890,
    )  # fmt: skip
    alt = alt_text(big)
    name, figures = alt.split(" — ")
    assert len(alt) <= 256 and name.startswith("Bart")
    items = figures.split(" · ")
    assert len(items) == 10 and "(123 " in items[-1] and items[-1].endswith(")")
    assert "45" in items[6] and "890" in items[7]


def test_the_card_is_legible_on_a_phone():
    """Shown 235 px wide on a 360-px phone (scripts/heights.py), its smallest words (the
    labels' font) are at least 11 px tall there."""
    width = Image.open(io.BytesIO(render_card(CARD))).width
    assert width == stats_card.WIDTH
    smallest = min(FONTS.text.size, FONTS.name.size)
    assert smallest * SHOWN / width >= 11
