"""The pure rules of Steal the Bundle: no Discord, no asyncio, no storage, no I/O.

Deterministic from a seed (or a deck order) and serialisable with `to_dict` / `from_dict`.
"""

from .cards import DECKS, RANK, Deck, rank, suit
from .errors import BadState, EngineError, GameOver, IllegalMove, RulesError
from .events import Event
from .game import ACTIONS, CAPTURE, STEAL, TRAIL, Game, Move, Result, active, new_game, shuffle
from .moves import apply, legal_moves, play
from .record import FORMAT, record, replay
from .rules import PRESETS, Rules, preset, preset_name
from .serialize import from_dict, to_dict
from .view import BundleView, View, view

__all__ = [
    "ACTIONS",
    "CAPTURE",
    "DECKS",
    "FORMAT",
    "PRESETS",
    "RANK",
    "STEAL",
    "TRAIL",
    "BadState",
    "BundleView",
    "Deck",
    "EngineError",
    "Event",
    "Game",
    "GameOver",
    "IllegalMove",
    "Move",
    "Result",
    "Rules",
    "RulesError",
    "View",
    "active",
    "apply",
    "from_dict",
    "legal_moves",
    "new_game",
    "play",
    "preset",
    "preset_name",
    "rank",
    "record",
    "replay",
    "shuffle",
    "suit",
    "to_dict",
    "view",
]
