"""Trying again: every background job of the session layer (finishing a game, expiring a lobby,
a turn timer) that fails is tried again, waiting longer each time (from `first` seconds,
doubling, at most MOST), until it succeeds or what it acts on is gone. So a database that
fails for a while leaves nothing stuck once it is back. A job's first failure is logged with
its game id; the ones after it (the same outage) only at debug level."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

log = logging.getLogger(__name__)

MOST = 60.0  # seconds between two tries, at most

T = TypeVar("T")


def wait(failures: int, first: float) -> float:
    """How long to wait after the `failures`-th failure in a row (0: the first)."""
    return min(MOST, first * 2.0 ** min(failures, 16))


def failed(what: str, game_id: int, failures: int) -> None:
    """Log a job's failure (call it in the `except` block): the first of a row in full."""
    if failures == 0:
        log.exception("game %s: %s failed; trying again until it works", game_id, what)
    else:
        log.debug("game %s: %s failed again (%d times)", game_id, what, failures + 1, exc_info=True)


def recovered(what: str, game_id: int, failures: int) -> None:
    if failures:
        log.info("game %s: %s worked after %d failures", game_id, what, failures)


async def until_done(
    attempt: Callable[[], Awaitable[T]],
    *,
    what: str,
    game_id: int,
    first: float,
    failures: int = 0,
) -> T:
    """`attempt()` until it returns (it returns at once when what it acts on is gone).
    `failures`: how many in a row came before (logged already)."""
    while True:
        try:
            result = await attempt()
        except Exception:
            failed(what, game_id, failures)
            await asyncio.sleep(wait(failures, first))
            failures += 1
            continue
        recovered(what, game_id, failures)
        return result
