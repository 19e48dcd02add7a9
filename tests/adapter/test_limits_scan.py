"""The button families' per-member cooldowns: a click does not scan every member's bucket."""

from __future__ import annotations

from types import SimpleNamespace

from bot.adapter.registry import Limits, _member


class Scanned(dict):
    """A bucket cache that counts the full scans made of it."""

    scans = 0

    def items(self):
        Scanned.scans += 1
        return super().items()


def click(user: int) -> SimpleNamespace:
    return SimpleNamespace(guild_id=1, user=SimpleNamespace(id=user))


def test_a_click_scans_the_buckets_at_most_once_a_window():
    limits = Limits.from_cooldown(2, 10, _member)
    limits._cache = Scanned()
    Scanned.scans = 0
    for user in range(500):  # 500 members click within one window: one scan, not 500
        assert limits.update_rate_limit(click(user), current=1000.0 + user / 100) is None
    assert Scanned.scans <= 1
    assert len(limits._cache) == 500
    # Limits still hold: a third click within 10 s is refused.
    assert limits.update_rate_limit(click(7), current=1006.0) is None
    assert limits.update_rate_limit(click(7), current=1006.5) is not None
    # A window later, the idle buckets are dropped.
    limits.update_rate_limit(click(9999), current=1030.0)
    assert len(limits._cache) == 1
