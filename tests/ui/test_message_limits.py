"""Discord's limits on a Components V2 message (40 components, 4,000 characters of text, and
what SimCord's validator checks besides) hold in the worst case: 4 players with every rule
option on, long names full of markdown to escape, a long move log, a match and its playoff,
for the table, the lobby and the end screen, in every language."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.domain import ratings as stats
from bot.domain.match import GameResult, Match
from bot.engine import Rules, apply, legal_moves, new_game, view
from bot.engine.playout import random_game
from bot.i18n import LANGUAGES, t
from bot.session import Lobby, Table
from bot.session.results import standing
from bot.ui import render
from bot.ui.end_screen import final
from bot.ui.highlights import highlights
from bot.ui.picture import FinalScene, Scene, render_final
from bot.ui.picture import render as draw
from bot.ui.table import table
from bot.ui.text import describe, names_of

from .helpers import render_table
from .messages import texts, within_limits

SEATS = ("1", "2", "3", "4")
# Discord's longest display names (32), made of what markdown escaping doubles.
NAMES = {s: ("*_~`|" * 7)[:32] for s in SEATS}
# Every option on: the longest rules summary and footer, two bundles a seat, playoffs.
EVERYTHING = Rules(
    direction="counterclockwise",
    play="forced",
    refill_pool=False,
    short_deal="one_at_a_time",
    leftovers="nobody",
    tiebreak="playoff",
    wild_jacks=True,
    sweep_bonus=True,
    double_bundles=True,
)
MATCH = Match(games=9, scoring="cards", number=9)
LOG = [
    {"type": "stole", "seat": s % 4, "card": "13H", "from_seat": (s + 1) % 4, "n": 48,
     "own_bundle": 1, "from_bundle": 1}
    for s in range(20)
]  # fmt: skip


def crowded_table() -> Table:
    """Four seats mid-game with a pool grown long (no refill), one away, one forfeited."""
    game = new_game(EVERYTHING, SEATS, seed=3)
    rng = random.Random(3)
    for _ in range(20):
        moves = legal_moves(game)
        trails = [m for m in moves if m.action == "trail"]
        game, _ = apply(game, rng.choice(trails or moves))
    assert not game.over and len(view(game, 0).pool) >= 8
    return Table(
        5, 10, 100, "1", game, version=20, away={1}, forfeited={2}, deadline=2e9, match=MATCH
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_stays_within_discords_limits(lang: str) -> None:
    crowded = crowded_table()
    name = names_of(lang, SEATS, NAMES)
    log = describe(lang, LOG, EVERYTHING, name)
    assert len(log) == 20
    png = render_table(crowded, NAMES, lang)
    within_limits(table(lang, crowded, NAMES, log, png))
    within_limits(table(lang, crowded, NAMES, log))  # the words alone, after a failed upload


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_stays_within_discords_limits(lang: str) -> None:
    seated = ["1", "ai:hard:1", "3", "ai:easy:2"]
    lobby = Lobby(5, 10, 100, "1", EVERYTHING, seated, deadline=2e9, match=MATCH)
    within_limits(render.lobby(lang, lobby, NAMES))  # full: every button, Remove bot too
    alone = Lobby(5, 10, 100, "1", EVERYTHING, ["1"], deadline=2e9, match=MATCH)
    within_limits(render.lobby(lang, alone, NAMES))  # alone: Start disabled, and why


def finished_match() -> Table:
    """A finished 4-player game of a match's last game, with playoffs, leftovers and
    forfeits: every part of the end screen."""
    for seed in range(200):
        game = random_game(EVERYTHING, 4, seed)
        if game.playoffs:
            break
    else:
        raise AssertionError("no deal with a playoff")
    game.seats = SEATS
    results = tuple(GameResult(i, (10, 12, 14, 16), (3, 2, 1, 0), (2,)) for i in range(9))
    match = dataclasses.replace(MATCH, results=results, winners=(3,))
    return Table(
        6, 10, 100, "1", game, version=len(game.moves), forfeited={2}, match=match,
        standing=standing(game, {2}),
    )  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_end_screen_stays_within_discords_limits(lang: str) -> None:
    ended = finished_match()
    places = stats.places(ended.game, ended.forfeited)
    png = render_final(FinalScene.of(ended, NAMES, lang, places))
    message = final(lang, ended, NAMES, highlights(ended.game), png)
    within_limits(message)
    score = t(lang, "final.playoff_score", number=1, scores="").strip()  # shown, names escaped
    (line,) = [line for line in texts(message)[0].splitlines() if line.startswith(score)]
    assert "\\*\\_" in line


def test_pictures_stay_small_in_the_worst_case() -> None:
    scene = dataclasses.replace(
        Scene.of(crowded_table(), NAMES, "fr"), names=tuple("W" * 40 for _ in SEATS)
    )
    assert len(draw(scene)) <= 100 * 1024
    places = [0, 1, 2, 3]
    assert len(render_final(FinalScene.of(finished_match(), NAMES, "fr", places))) <= 100 * 1024
