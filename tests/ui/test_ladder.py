"""The global ladder's and /steal profile's screens: a name someone chose to show never acts
as markdown, a hidden one never shows (nor does the marker that would point at its row)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain.values import LadderEntry
from bot.ui import ladder
from tests.support.hostile import HUMANS, check_text, every_name

from .messages import parts

LANGS = st.sampled_from(["en", "es", "fr", "it"])


def entries(names: dict[str, str], shown: set[str]) -> list[LadderEntry]:
    return [
        LadderEntry(i + 1, u, 5, 2, 27.0, 6.0, names[u] if u in shown else None)
        for i, u in enumerate(HUMANS)
    ]


def words(message) -> str:
    return "\n".join(text for text, _ in parts(message))


@settings(max_examples=60, deadline=None)
@given(every_name, LANGS)
def test_hostile_names_never_act_on_the_ladder_or_the_profile(known, lang) -> None:
    page = ladder.ladder(lang, entries(known, set(HUMANS)), 1, 30, 1, HUMANS[0])
    for text, markdown in parts(page):
        if markdown:
            check_text(text)
    check_text(ladder.profile_set(lang, True, known[HUMANS[0]]))
    check_text(ladder.profile_status(lang, (True, known[HUMANS[1]])))


def test_a_hidden_name_shows_as_a_player_and_is_never_pointed_at() -> None:
    names = {u: f"name{i}" for i, u in enumerate(HUMANS)}
    page = ladder.ladder("en", entries(names, {HUMANS[1]}), 1, 3, 1, HUMANS[0])
    text = words(page)
    assert "name0" not in text and "name2" not in text and "👉" not in text
    assert "🥈 name1 · **1,360 rating**" in text
    assert text.count("a player") >= 2
    mine = ladder.ladder("en", entries(names, {HUMANS[0]}), 1, 3, 1, HUMANS[0])
    assert "🥇 👉 __name0__ · **" in words(mine)


def test_the_stats_line_tells_a_hidden_reader_how_to_show_their_name() -> None:
    hidden = LadderEntry(4, HUMANS[0], 5, 2, 27.0, 6.0)
    assert ladder.global_rank("en", hidden, 9, me=True) == (
        "🌍 Global ladder: **#4** of 9 players\n"
        "-# You appear there as “a player”: `/steal profile` shows your name."
    )
    shown = LadderEntry(4, HUMANS[0], 5, 2, 27.0, 6.0, "Ann")
    assert ladder.global_rank("en", shown, 9, me=True) == "🌍 Global ladder: **#4** of 9 players"


def test_an_empty_board_outside_a_server_says_here() -> None:
    """A group DM's or DM's own board (its key the channel's): not "this server"."""
    from bot.ui import boards

    here = words(boards.leaderboard("en", [], "rating", 1, 0, 1, serverless=True))
    assert "Nobody has finished a game here yet." in here and "server" not in here
    server = words(boards.leaderboard("en", [], "rating", 1, 0, 1))
    assert "Nobody has finished a game in this server yet." in server
