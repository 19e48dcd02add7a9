"""Timers of a game only interaction tokens reach act only while an anchor lives; pause and
resume (bot/session/anchors.py, Sessions.pause and resume)."""

from __future__ import annotations

from bot.domain.place import Kind, Place
from bot.session.anchors import Anchors
from bot.session.models import Table
from bot.session.timers import TurnTimers

GROUP_DM = Place(Kind.PRIVATE, None, 50, bot_member=False)


def test_an_anchor_lives_until_it_expires():
    now = [100.0]
    anchors = Anchors(lambda: now[0])
    assert not anchors.alive(1)
    anchors.hold(1, 200.0)
    assert anchors.alive(1)
    now[0] = 200.0
    assert not anchors.alive(1)


def test_a_timer_acts_only_while_an_anchor_lives():
    now = [100.0]
    anchors = Anchors(lambda: now[0])

    async def due(*args: object) -> None:
        raise AssertionError("nothing is played")

    timers = TurnTimers(
        lambda: now[0], due, turn_seconds=60, away_delay=1, bot_delay=0, anchors=anchors
    )
    here = Table(1, 50, 50, "3", None, 0, place=GROUP_DM)
    server = Table(2, 9, 10, "3", None, 0)
    assert timers.asleep(here) and here.paused  # no anchor: paused
    assert not timers.asleep(server) and not server.paused  # a server's game: as ever
    anchors.hold(1, 500.0)
    here.paused = False
    assert not timers.asleep(here)
