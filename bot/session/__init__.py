"""Lobbies and live games per channel, on top of the engine and storage. No Discord here."""

from .errors import (
    AlreadyHosting,
    AlreadyRunning,
    AlreadySeated,
    Forfeited,
    LobbyFull,
    MoveRefused,
    NoGame,
    NoHints,
    NoLobby,
    NotEnoughPlayers,
    NotHost,
    NotInGame,
    NotYourTurn,
    SaveFailed,
    SessionError,
    StaleHand,
)
from .models import Hand, Lobby, Played, Table
from .play import AWAY_AFTER
from .sessions import Sessions
from .timers import auto_move

__all__ = [
    "AWAY_AFTER",
    "AlreadyHosting",
    "AlreadyRunning",
    "AlreadySeated",
    "Forfeited",
    "Hand",
    "Lobby",
    "LobbyFull",
    "MoveRefused",
    "NoGame",
    "NoHints",
    "NoLobby",
    "NotEnoughPlayers",
    "NotHost",
    "NotInGame",
    "NotYourTurn",
    "Played",
    "SaveFailed",
    "SessionError",
    "Sessions",
    "StaleHand",
    "Table",
    "auto_move",
]
