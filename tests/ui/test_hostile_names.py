"""Names people chose are shown as typed on every screen, never acting as markdown: no masked
link, heading, quote or mention comes from a name, and no invisible or direction-changing
character reaches a message (issue 24, item 18)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain import ratings as stats
from bot.domain.values import HistoryEntry, PlayerStats, Standing
from bot.engine import Rules, apply, legal_moves, new_game, record
from bot.engine.playout import random_game
from bot.session import Lobby, Table
from bot.session.results import standing
from bot.ui import boards, hand_message, history, render, replay
from bot.ui.end_screen import final
from bot.ui.highlights import highlights
from bot.ui.names import plain, shown
from bot.ui.table import table
from bot.ui.text import describe, names_of
from tests.support.hostile import (
    HUMANS,
    SEATS,
    check_alt,
    check_label,
    check_text,
    every_name,
)

from .messages import parts


def check(message: render.Message) -> None:
    seen = 0
    for text, markdown in parts(message):
        (check_text if markdown else check_alt if markdown is None else check_label)(text)
        seen += 1
    assert seen


def mid_game() -> Table:
    game = new_game(Rules(), SEATS, seed=5)
    for _ in range(6):
        game, _ = apply(game, legal_moves(game)[-1])
    return Table(7, 10, 100, SEATS[0], game, version=6, away={1}, deadline=2e9)


def ended() -> Table:
    game = random_game(Rules(), 4, 11)
    game.seats = SEATS
    return Table(
        8, 10, 100, SEATS[0], game, version=len(game.moves), standing=standing(game, set())
    )


MID, END = mid_game(), ended()
REPLAYED = replay.replayed(8, record(END.game))
LOG = [
    {"type": "played", "seat": 0, "card": "13H"},
    {"type": "stole", "seat": 0, "card": "13H", "from_seat": 1, "n": 4},
    {"type": "played", "seat": 1, "card": "2H"},
    {"type": "captured", "seat": 1, "card": "2H", "n": 2},
    {"type": "leftovers_awarded", "seat": 3, "n": 3},
    {"type": "playoff_started", "number": 1, "seats": [0, 1, 3]},
]


@settings(max_examples=60, deadline=None)
@given(every_name, st.sampled_from(["en", "es", "fr", "it"]))
def test_hostile_names_never_act_on_any_screen(known: dict[str, str], lang: str) -> None:
    lobby = Lobby(5, 10, 100, HUMANS[0], Rules(), list(SEATS), deadline=2e9)
    check(render.lobby(lang, lobby, known))
    log = describe(lang, LOG, Rules(), names_of(lang, SEATS, known))
    for line in log:
        check_text(line)
    check(table(lang, MID, known, log))
    for seat in range(4):
        check(hand_message.hand(lang, MID.hand(seat), MID, known))
        check(hand_message.ended(lang, END, seat, known))
    turn = MID.hand(MID.turn)
    for move in turn.legal:
        check_text(hand_message.hint(lang, turn, move, known))
    check(final(lang, END, known, highlights(END.game)))
    check(render.cancelled(lang, "game", HUMANS[1], known, admin=True))

    rows = [
        Standing(i + 1, PlayerStats(10, u, known[u], 3, 1, 20, 2, 4, 25.0, 8.0))
        for i, u in enumerate(HUMANS)
    ]
    check(boards.leaderboard(lang, rows, "rating", 1, 3, 1, rows[0]))
    figures = stats.Figures((1, 2), None)
    check(boards.player_stats(lang, rows[0].player, known[HUMANS[0]], 1, 3, figures, b"", True))
    check_text(boards.never_played(lang, known[HUMANS[1]]))
    entry = HistoryEntry(8, 10, 100, 1e9, SEATS, (0, 1, 2, 3), (), record(END.game))
    check(history.history(lang, [entry], known, known[HUMANS[2]]))
    for step in (0, 1, REPLAYED.last):
        check(replay.viewer(lang, REPLAYED, step, known, b""))


def test_a_masked_link_name_reads_as_typed() -> None:
    """The issue's own example: its brackets are escaped, so it shows as typed."""
    name = "[Free Nitro](https://evil.example)"
    assert shown(name) == "\\[Free Nitro\\](https://evil.example)"
    name_of = names_of("en", SEATS, {SEATS[0]: name})
    (line,) = describe("en", LOG[:2], Rules(), name_of)
    assert line.startswith("\\[Free Nitro\\](https://evil.example)")


def test_invisible_and_bidi_characters_are_dropped() -> None:
    assert plain("a\u202eb\u200bc\u2066 d\n\ne") == "abc d e"
    assert shown("@everyone") == "@\u200beveryone"
    assert shown("# evil") == "\\# evil"
