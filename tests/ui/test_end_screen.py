"""The end screen, rendered from finished games (no Discord connection needed)."""

from bot.domain.match import Match
from bot.engine import Rules
from bot.engine.playout import random_game
from bot.session import Table
from bot.session.results import standing
from bot.ui.end_screen import final
from bot.ui.highlights import highlights

from .messages import description, fields, labels, title

NAMES = {"0": "Ann", "1": "Bob", "2": "Cat"}


def finished(rules: Rules, players: int, seed: int, **extra) -> Table:
    game = random_game(rules, players, seed)
    game.seats = tuple(str(i) for i in range(players))
    placed = standing(game, extra.get("forfeited", ()))  # as the session sets it at the end
    return Table(1, 10, 100, "0", game, version=len(game.moves), standing=placed, **extra)


def test_a_shared_win_names_everyone_tied():
    t = finished(Rules(tiebreak="shared"), 2, 3)  # this deal ends 26 to 26
    message = final("en", t, NAMES, highlights(t.game))
    assert description(message).splitlines() == [
        "🏆 **Ann and Bob** share the win.",
        "Tied on 26 cards: the win is shared.",
        "-# Bob took the 20 cards left in the pool.",  # small print, no heading of its own
    ]
    assert fields(message)["Final bundles"].splitlines() == ["🥇 Ann: 26 cards", "🥇 Bob: 26 cards"]
    assert "Leftovers" not in fields(message)
    assert labels(message) == ["Rematch", "Game file", "Replay"]


def test_a_forfeiter_is_last_and_cannot_win():
    t = finished(Rules(), 3, 1, forfeited={0})
    message = final("en", t, NAMES, highlights(t.game))
    rows = fields(message)["Final bundles"].splitlines()
    assert rows[-1].startswith("🥉 Ann: ") and rows[-1].endswith("🏳️ forfeited")
    assert "Ann" not in description(message).splitlines()[0]


def test_highlights_are_named():
    t = finished(Rules(), 3, 4)
    text = fields(final("en", t, NAMES, highlights(t.game))).get("Highlights", "")
    h = highlights(t.game)
    if h.biggest_steal:
        assert text.startswith("Biggest steal: ")
    assert "Longest on top: " in text


def test_a_match_in_progress_has_no_rematch_and_says_what_comes_next():
    match = Match.from_dict({"games": 3, "scoring": "wins", "number": 1, "results": [
        {"game_id": 1, "sizes": [30, 22], "places": [0, 1], "forfeited": []}]})  # fmt: skip
    t = finished(Rules(), 2, 2, match=match)
    message = final("en", t, NAMES, highlights(t.game))
    assert title(message) == "Steal the Bundle: game 1 of 3 over"
    assert fields(message)["Match: 3 games, scored by games won"].splitlines() == [
        "Ann: 1 win · 30 cards",
        "Bob: 0 wins · 22 cards",
        "Game 2 is starting below.",
    ]
    assert labels(message) == ["Game file", "Replay"]


def test_the_end_pictures_names_are_never_cut():
    from bot.ui.picture.end_screen import FinalScene, Standing, _name_room, draw_final, wrap

    long = "Bartholomew the Magnificent"  # wider than a row's line
    lines = wrap(long, "name", _name_room(1))
    assert len(lines) == 2 and " ".join(lines) == long  # on two lines, not cut
    wide = "Ŵ" * 32  # one word, Discord's longest name: broken inside, every letter kept
    assert "".join(wrap(wide, "name", _name_room(2))) == wide
    rows = (Standing(0, 0, long, 20, ("5S",)), Standing(1, 1, "bob", 8, ("7H",)))
    short = (Standing(0, 0, "ann", 20, ("5S",)), Standing(1, 1, "bob", 8, ("7H",)))
    rules = Rules()
    tall = draw_final(FinalScene(1, 1, "en", rules, rows))
    assert tall.height > draw_final(FinalScene(1, 1, "en", rules, short)).height
