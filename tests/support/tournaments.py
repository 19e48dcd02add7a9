"""Entrants and results for the tournament core's tests (Swiss and knockout alike)."""

from bot.domain.tournament import Entrant, TableResult


def people(n, rated=True):
    """n entrants; entrant "0" the strongest when rated."""
    return [Entrant(str(i), float(n - i) if rated else 0.0) for i in range(n)]


def result(table, finish, cards=None):
    """A table's result: `finish` lists its entrants first to last (no ties)."""
    places = tuple(finish.index(w) for w in table)
    return TableResult(tuple(table), places, tuple(cards or [10] * len(table)))


def seated(plan):
    return [w for t in plan.tables for w in t]
