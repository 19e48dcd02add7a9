"""The table as a picture (bot.ui.picture): layout facts checked on the layout data, not on
pixels; the same table gives the same bytes; the size budget; one golden image per deck.

The golden images in tests/ui/golden are compared with a small tolerance (mean absolute pixel
difference), so a change of font rasteriser or zlib does not fail them, but a change of the
drawing does. After a deliberate change of the picture, look at the new images and regenerate
them with

    .venv/bin/python -m bot.ui.picture --golden tests/ui/golden

Render times are never asserted here: bench/render.py measures them (docs/performance.md).
"""

from __future__ import annotations

import json
import runpy
import sys
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from io import BytesIO
from itertools import pairwise
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.engine import CAPTURE, STEAL, TRAIL, apply, legal_moves, new_game, preset, view
from bot.engine.playout import random_game
from bot.session import Table
from bot.ui.picture import (
    GOLDEN,
    SAMPLE_NAMES,
    SAMPLE_SEATS,
    WIDTH,
    LastMove,
    Layout,
    Scene,
    TableCache,
    golden_scene,
    layout,
    render,
    sample,
)
from bot.ui.picture.cards import CAPS
from bot.ui.picture.fonts import FONTS
from bot.ui.picture.suits import PIP, ink, suit_sprite

from .helpers import cached_table, layout_table, render_table

GOLDEN_DIR = Path(__file__).parent / "golden"
BUDGET = 100 * 1024  # bytes, docs/performance.md
TOLERANCE = 0.5  # mean absolute difference per channel, out of 255 (a missing card: about 3)


def inside(inner, outer) -> bool:
    return (
        outer[0] <= inner[0] < inner[2] <= outer[2] and outer[1] <= inner[1] < inner[3] <= outer[3]
    )


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def played_until(rules, players: int, seed: int, wanted: str, after: int = 4):
    """A table just after the first move of kind `wanted` (from move `after` on)."""
    game = new_game(rules, SAMPLE_SEATS[:players], seed=seed)
    for i in range(60):
        moves = legal_moves(game)
        pick = [m for m in moves if m.action == wanted and i >= after] or moves
        game, events = apply(game, pick[0])
        if pick[0].action == wanted and i >= after:
            return Table(1, 10, 100, SAMPLE_SEATS[0], game, version=i + 1), LastMove.of(events)
    raise AssertionError(f"no {wanted} in 60 moves")


# ----- layout facts


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("deck", ["french52", "spanish40", "spanish48", "italian40"])
def test_every_seat_has_a_panel_inside_the_picture_and_none_overlap(players, deck):
    table, last = sample(preset("standard").replace(deck=deck), players, 3, 9)
    lay = layout_table(table, SAMPLE_NAMES, "en", last=last)
    frame = (0, 0, lay.width, lay.height)
    assert lay.width == WIDTH
    assert [p.seat for p in lay.panels] == list(range(players))
    for p in lay.panels:
        assert inside(p.rect, frame)
        assert not overlap(p.rect, lay.pool_rect)
        for b in p.bundles:
            assert inside(b.rect, p.rect)
        for spot in p.hand:
            assert inside(spot.rect, p.rect)
    rects = [p.rect for p in lay.panels]
    assert not any(overlap(a, b) for i, a in enumerate(rects) for b in rects[i + 1 :])


def test_the_player_to_act_and_only_they_are_highlighted():
    for players in (2, 3, 4):
        for moves in range(6):
            table, last = sample("standard", players, 5, moves)
            lay = layout_table(table, SAMPLE_NAMES, "en", last=last)
            assert lay.turn == table.turn
            assert [p.seat for p in lay.panels if p.turn] == [table.turn]


def test_a_finished_game_highlights_nobody():
    game = random_game(preset("standard"), 3, 1)
    lay = layout_table(Table(1, 10, 100, "p0", game, len(game.moves)), {}, "en")
    assert lay.turn is None and not any(p.turn for p in lay.panels)


def test_the_pool_stock_bundles_and_hands_are_the_tables():
    table, last = sample("standard", 4, 2, 10)
    v = view(table.game, 0)
    lay = layout_table(table, SAMPLE_NAMES, "en", last=last)
    assert [s.card for s in lay.pool] == list(v.pool)
    assert all(inside(s.rect, lay.pool_rect) for s in lay.pool)
    assert all(s.size == "big" and s.label for s in lay.pool)
    assert lay.stock and all(s.card is None for s in lay.stock)  # a pile of backs
    for p in lay.panels:
        assert [b.size for b in p.bundles] == [b.size for b in v.bundles[p.seat]]
        assert [b.top.card if b.top else None for b in p.bundles] == [
            b.top for b in v.bundles[p.seat]
        ]
        assert len(p.hand) == v.hand_sizes[p.seat] and all(s.card is None for s in p.hand)
    words = [x.text for x in lay.texts]
    assert "Pool" in words and f"Stock: {v.stock_size} cards" in words


def test_ranks_are_the_languages_labels():
    table, _ = played_until(preset("casita"), 2, 1, TRAIL, after=0)
    spanish = {s.card: s.label for s in layout_table(table, {}, "es").pool}
    english = {s.card: s.label for s in layout_table(table, {}, "en").pool}
    for card, text in spanish.items():
        rank = int(card[:-1])
        assert text == {10: "S", 11: "C", 12: "R"}.get(rank, str(rank))
        assert english[card] == str(rank)  # in English, the number printed on Spanish cards


def test_a_crowded_pool_overlaps_but_every_card_shows_its_corner():
    table, _ = sample(preset("standard").replace(refill_pool=False), 4, 0, 0)
    scene = replace(Scene.of(table, {}, "en"), pool=table.game.rules.card_deck.cards[:30])
    lay = layout(scene)
    assert len(lay.pool) == 30
    rows: dict[int, list[int]] = {}
    for s in lay.pool:
        assert inside(s.rect, lay.pool_rect) and inside(s.rect, (0, 0, lay.width, lay.height))
        rows.setdefault(s.rect[1], []).append(s.rect[0])
    for xs in rows.values():
        steps = [b - a for a, b in pairwise(xs)]
        assert min(steps) >= 48  # the rank and its suit stay visible
    assert not any(overlap(lay.pool_rect, p.rect) for p in lay.panels)


def test_a_trail_marks_the_pool_card_it_left():
    table, last = played_until(preset("standard"), 3, 4, TRAIL)
    assert last is not None and last.action == TRAIL
    lay = layout_table(table, SAMPLE_NAMES, "en", last=last)
    spot = next(s for s in lay.pool if s.card == last.card)
    assert lay.marked == (spot.rect,)
    # the move is said in words under the picture (bot.ui.table), so here it is only marked
    assert not any("trailed" in x.text for x in lay.texts)


def test_a_capture_marks_the_players_bundle_with_what_it_took():
    table, last = played_until(preset("standard"), 2, 1, CAPTURE)
    assert last is not None and last.action == CAPTURE and last.n >= 1
    lay = layout_table(table, SAMPLE_NAMES, "en", last=last)
    bundle = lay.panels[last.seat].bundles[0]
    assert bundle.top is not None and bundle.top.card == last.card
    assert lay.marked == (bundle.rect,)
    assert f"+{last.n}" in [b.text for b in lay.badges]


def test_a_steal_marks_the_thief_and_the_victim():
    table, last = played_until(preset("standard"), 3, 0, STEAL)
    assert last is not None and last.action == STEAL and last.target_seat is not None
    lay = layout_table(table, SAMPLE_NAMES, "en", last=last)
    thief = lay.panels[last.seat].bundles[0]
    victim = lay.panels[last.target_seat].bundles[0]
    assert victim.top is None and victim.size == 0
    assert set(lay.marked) == {thief.rect, victim.rect}
    badges = [b.text for b in lay.badges]
    assert f"+{last.n}" in badges and f"−{last.n}" in badges


def test_no_last_move_no_marks():
    table, _ = sample("standard", 2, 1, 3)
    lay = layout_table(table, SAMPLE_NAMES, "en")
    assert lay.marked == ()
    assert not any(b.text.startswith(("+", "−")) for b in lay.badges)


def test_double_bundles_show_both_tops():
    table, last = sample(preset("standard").replace(double_bundles=True), 2, 4, 12)
    lay = layout_table(table, SAMPLE_NAMES, "en", last=last)
    for p in lay.panels:
        assert len(p.bundles) == 2
        assert not overlap(p.bundles[0].rect, p.bundles[1].rect)


def test_away_forfeited_and_sitting_out_seats_are_marked():
    table, last = sample("standard", 4, 1, 5)
    table.away, table.forfeited = {1}, {2}
    lay = layout_table(table, SAMPLE_NAMES, "fr", last=last)
    assert [p.state for p in lay.panels] == [None, "away", "forfeited", None]
    assert {"absent", "abandon"} <= {b.text for b in lay.badges}
    scene = replace(Scene.of(table, SAMPLE_NAMES, "en"), players=(0, 1), away=frozenset())
    assert [p.state for p in layout(scene).panels] == [None, None, "forfeited", "out"]


def test_names_keep_what_the_font_can_draw_and_fit_their_panel():
    table, _ = sample("standard", 4, 1, 2)
    names = {"111": "🌵🌵", "222": "José " + "W" * 60, "444": "Zoë 🌵 Ñandú"}
    lay = layout_table(table, names, "en")
    assert lay.panels[0].name == "Player 1"  # nothing drawable: the catalog's name
    assert lay.panels[1].name.startswith("José W") and lay.panels[1].name.endswith("…")
    assert lay.panels[2].name == "Medium bot"  # the robot emoji is not in the font
    assert lay.panels[3].name == "Zoë Ñandú"
    for p in lay.panels:
        width = FONTS.name.getlength(p.name)
        assert p.rect[0] + 14 + width <= p.rect[2]


def test_last_move_is_read_from_the_engines_events():
    assert LastMove.of([{"type": "played", "seat": 1, "card": "7H"}]) is None
    events = [
        {"type": "played", "seat": 1, "card": "7H", "auto": False},
        {"type": "stole", "seat": 1, "card": "7H", "from_seat": 0, "from_bundle": None,
         "own_bundle": None, "n": 5},
    ]  # fmt: skip
    assert LastMove.of(events) == LastMove(1, "7H", STEAL, 0, 5)


# ----- the cards


PHONE_SHOWN = 235  # px: the picture's width in a table message on a 360-px phone (measured)


@pytest.mark.parametrize("lang", ["en", "es", "fr", "it"])
def test_every_word_in_the_picture_is_readable_on_a_phone(lang):
    # Shown PHONE_SHOWN px wide, every word, count and badge is at least 12 px tall.
    table, last = sample("standard", 4, 2, 10)
    table.away, table.forfeited = {1}, {2}
    lay = layout_table(table, SAMPLE_NAMES, lang, last=last)
    scale = PHONE_SHOWN / lay.width
    assert lay.texts and lay.badges
    for x in lay.texts:
        assert getattr(FONTS, x.font).size * scale >= 12, (x.text, x.font)
    for badge in lay.badges:  # drawn in the count font, as the empty slots' word
        assert FONTS.count.size * scale >= 12, badge.text
    assert FONTS.rank.size * scale >= 12  # the cards' ranks


def test_ranks_are_tall_enough_to_read_on_a_phone():
    # The picture is 800 px wide, shown at about 360: a card's rank is at least 28 px tall.
    assert CAPS["big"] >= 28


@pytest.mark.parametrize("deck", ["french52", "spanish40", "italian40"])
def test_the_four_suits_of_a_deck_have_four_different_shapes(deck):
    suits = {"french52": "SHDC", "spanish40": "OCEB", "italian40": "DCSB"}[deck]
    masks = [suit_sprite(deck, s, False, PIP).getchannel("A") for s in suits]
    for i, a in enumerate(masks):
        for b in masks[i + 1 :]:
            assert ImageStat.Stat(ImageChops.difference(a, b)).mean[0] > 20


def test_four_colours_tell_every_french_suit_apart():
    two = {s: ink("french52", s, False) for s in "SHDC"}
    four = {s: ink("french52", s, True) for s in "SHDC"}
    assert len(set(two.values())) == 2 and len(set(four.values())) == 4
    assert ink("spanish40", "O", True) == ink("spanish40", "O", False)  # already four


def test_four_colour_is_drawn():
    table, last = sample("standard", 2, 3, 4)
    assert layout_table(table, {}, "en", four_colour=True).four_colour
    plain = render_table(table, {}, "en", last=last)
    four = render_table(table, {}, "en", last=last, four_colour=True)
    assert plain != four


# ----- bytes: determinism, size, goldens


def test_the_same_table_gives_the_same_bytes():
    table, last = sample("casita", 3, 8, 7)
    first = render_table(table, SAMPLE_NAMES, "es", last=last)
    render_table(*sample("rubamazzo", 4, 2, 5)[:1], SAMPLE_NAMES, "it")  # something else between
    assert render_table(table, SAMPLE_NAMES, "es", last=last) == first
    assert first.startswith(b"\x89PNG")
    with ThreadPoolExecutor(4) as pool:  # and in threads, at the same time
        results = list(pool.map(lambda _: render_table(table, SAMPLE_NAMES, "es", last=last),
                                range(8)))  # fmt: skip
    assert set(results) == {first}


def test_a_four_player_worst_case_stays_under_the_size_budget():
    table, _ = sample(preset("standard").replace(refill_pool=False), 4, 0, 0)
    scene = Scene.of(table, {}, "fr", last=LastMove(0, "13H", STEAL, 1, 30))
    long = tuple("Wolfeschlegelsteinhausenbergerdorff" for _ in range(4))
    scene = replace(scene, pool=table.game.rules.card_deck.cards[:30], names=long)
    png = render(scene)
    assert len(png) <= BUDGET
    with Image.open(BytesIO(png)) as im:
        assert im.width == WIDTH and im.height < 1100


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


@pytest.mark.parametrize("golden", GOLDEN, ids=[g[0] for g in GOLDEN])
def test_golden_images(golden):
    png = render(golden_scene(*golden))
    path = GOLDEN_DIR / f"{golden[0]}.png"
    with Image.open(BytesIO(png)) as now, Image.open(path) as then:
        assert now.size == then.size, f"{path.name} changed size: see this module's docstring"
        assert mean_difference(now, then) < TOLERANCE, f"{path.name} differs: see the docstring"


def test_goldens_cover_every_deck():
    assert sorted(g[0] for g in GOLDEN) == sorted(["french52", "spanish40", "spanish48",
                                                   "italian40"])  # fmt: skip
    assert sorted(p.name for p in GOLDEN_DIR.glob("*.png")) == sorted(f"{g[0]}.png" for g in GOLDEN)


# ----- the cache


def test_the_cache_draws_a_table_once_for_every_viewer():
    cache = TableCache(size=2)
    table, last = sample("standard", 2, 1, 3)
    a = cached_table(cache, table, SAMPLE_NAMES, "en", last=last)
    assert cached_table(cache, table, SAMPLE_NAMES, "en", last=last) is a
    assert cache.renders == 1
    cached_table(cache, table, SAMPLE_NAMES, "es", last=last)  # another language
    cached_table(cache, table, SAMPLE_NAMES, "en", last=last, four_colour=True)  # other options
    assert cache.renders == 3 and len(cache) == 2  # bounded: the oldest went
    table.version += 1  # a move later
    cached_table(cache, table, SAMPLE_NAMES, "en", last=last)
    assert cache.renders == 4


def test_the_cache_draws_once_when_many_ask_at_the_same_time():
    cache = TableCache()
    scene = Scene.of(*sample("standard", 4, 1, 6)[:1], SAMPLE_NAMES, "en")
    start = threading.Barrier(6)

    def ask(_):
        start.wait()
        return cache.picture(scene)

    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(ask, range(6)))
    assert cache.renders == 1 and len(set(results)) == 1


def test_the_cache_key_sees_names_and_seats_away():
    table, _ = sample("standard", 2, 1, 3)
    scene = Scene.of(table, SAMPLE_NAMES, "en")
    table.away = {1}
    assert Scene.of(table, SAMPLE_NAMES, "en").key != scene.key
    assert Scene.of(table, {"111": "Another"}, "en").key != Scene.of(table, {}, "en").key


def test_layout_is_plain_data():
    table, last = sample("standard", 3, 1, 6)
    lay = layout_table(table, SAMPLE_NAMES, "en", last=last)
    assert isinstance(lay, Layout)
    assert lay == layout_table(table, SAMPLE_NAMES, "en", last=last)  # values, comparable
    hash(lay)  # and immutable


# ----- the benchmark script still runs (its figures come from running it: not timed here)


def test_render_bench_runs(monkeypatch, capsys):
    """`python -m bench.render --json`, in this process: the bot is already imported here (a
    fresh interpreter cost 3 s of CPU for a second of rendering)."""
    monkeypatch.setattr(sys, "argv", ["render.py", "--tables", "2", "--repeats", "1", "--json"])
    capsys.readouterr()
    with warnings.catch_warnings():  # "found in sys.modules": a rerun of an imported bench
        warnings.simplefilter("ignore", RuntimeWarning)
        runpy.run_module("bench.render", run_name="__main__")
    out = json.loads(capsys.readouterr().out)
    assert out["renders"] == 2 and out["max_kb"] * 1024 <= BUDGET
