"""AI opponents: policies that pick a move from one seat's `View`, never from the `Game`.

    from bot.ai import get_policy
    move = get_policy("medium").choose(view, random.Random(seed))

Difficulties offered to players: easy (random legal move), medium (card counting), hard
(determinized search, 100 ms per decision by default). "naive" is a reference for the arena.
Pure like the engine: no Discord, asyncio, storage or I/O (the arena CLI aside).
"""

from .knowledge import Unseen, determinize, legal_moves_of
from .policies import (
    DEFAULT_BUDGET,
    DIFFICULTIES,
    POLICIES,
    Easy,
    Hard,
    Medium,
    Naive,
    NoMove,
    Policy,
    get_policy,
)

__all__ = [
    "DEFAULT_BUDGET",
    "DIFFICULTIES",
    "POLICIES",
    "Easy",
    "Hard",
    "Medium",
    "Naive",
    "NoMove",
    "Policy",
    "Unseen",
    "determinize",
    "get_policy",
    "legal_moves_of",
]
