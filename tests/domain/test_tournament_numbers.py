"""The tournament core's numbers: AI entrant ids, points, table sizes, how many rounds, and
what a table's result must hold."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.domain.tournament import (
    BYE_POINTS,
    TableResult,
    ai_entrant,
    ai_level,
    is_ai_entrant,
    knockout_rounds,
    points,
    swiss_rounds_advised,
    table_points,
    table_sizes,
)

# --- ids and numbers -----------------------------------------------------------------------


def test_ai_entrants_are_never_member_ids():
    assert ai_entrant("hard", 12) == "bot:hard:12"
    assert is_ai_entrant("bot:easy:1") and ai_level("bot:easy:1") == "easy"
    for bad in ("123", "bot:naive:1", "bot:hard:0", "ai:medium:1", "bot:hard:", "bot:hard:1x"):
        assert not is_ai_entrant(bad)
    with pytest.raises(ValueError):
        ai_entrant("naive", 1)
    with pytest.raises(ValueError):
        ai_entrant("easy", 0)


def test_the_points_table():
    assert [points(p, 2) for p in range(2)] == [6, 0]
    assert [points(p, 3) for p in range(3)] == [6, 3, 0]
    assert [points(p, 4) for p in range(4)] == [6, 4, 2, 0]
    assert points(1, 3) == BYE_POINTS
    for n in (2, 3, 4):  # every table gives out a bye's worth per player on average
        assert sum(points(p, n) for p in range(n)) == BYE_POINTS * n
    with pytest.raises(ValueError):
        points(0, 5)
    with pytest.raises(ValueError):
        points(3, 3)


def test_tied_places_share_their_points():
    tie = TableResult(("a", "b", "c"), (0, 0, 1), (12, 12, 4))
    assert table_points(tie) == (4.5, 4.5, 0)
    all_tied = TableResult(("a", "b", "c", "d"), (0, 0, 0, 0), (5, 5, 5, 5))
    assert table_points(all_tied) == (3, 3, 3, 3)
    lasts = TableResult(("a", "b", "c", "d"), (0, 1, 2, 2), (5, 5, 5, 5))
    assert table_points(lasts) == (6, 4, 1, 1)


@given(st.integers(0, 400), st.integers(2, 4))
def test_table_sizes(n, size):
    sizes = table_sizes(n, size)
    assert all(2 <= s <= size for s in sizes)
    assert not sizes or max(sizes) - min(sizes) <= 1
    assert list(sizes) == sorted(sizes, reverse=True)
    left = n - sum(sizes)
    assert left == (1 if n == 1 or (size == 2 and n % 2) else 0)
    assert len(sizes) == (n // 2 if size == 2 else (-(-n // size) if n >= 2 else 0))


def test_table_sizes_examples():
    assert table_sizes(16, 4) == (4, 4, 4, 4)
    assert table_sizes(10, 4) == (4, 3, 3)
    assert table_sizes(5, 4) == (3, 2)
    assert table_sizes(7, 3) == (3, 2, 2)
    assert table_sizes(7, 2) == (2, 2, 2)
    with pytest.raises(ValueError):
        table_sizes(8, 5)


def test_rounds_advised_and_knockout_rounds():
    assert swiss_rounds_advised(16, 4) == 3
    assert swiss_rounds_advised(8, 2) == 3
    assert swiss_rounds_advised(256, 4) == 5
    assert swiss_rounds_advised(4, 4) == 1
    assert swiss_rounds_advised(2, 2) == 1
    assert knockout_rounds(8, 2) == 3
    assert knockout_rounds(8, 4) == 2
    assert knockout_rounds(5, 2) == 3  # 2 tables + a bye, then 1 table + a bye, then a final
    assert knockout_rounds(1, 4) == 0


def test_table_results_must_line_up():
    with pytest.raises(ValueError):
        TableResult(("a", "b"), (0,), (1, 2))
    with pytest.raises(ValueError):
        TableResult(("a", "a"), (0, 1), (1, 2))
