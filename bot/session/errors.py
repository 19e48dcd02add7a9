"""What can go wrong in a lobby or at a table, each with a short message a player may read."""

from __future__ import annotations


class SessionError(Exception):
    """Base class: `message` is short and safe to show to the player who caused it."""

    message = "that cannot be done now"

    def __init__(self, message: str | None = None) -> None:
        if message is not None:
            self.message = message
        super().__init__(self.message)


class AlreadyRunning(SessionError):
    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__("a lobby or game is already running in this channel")


class NoLobby(SessionError):
    message = "there is no open lobby in this channel"


class NoGame(SessionError):
    message = "there is no game running here"


class NotInGame(SessionError):
    message = "you're not in this game"


class AlreadySeated(SessionError):
    message = "you're already in this lobby"


class LobbyFull(SessionError):
    message = "this lobby is full"


class NotHost(SessionError):
    message = "only the host can do that"


class NotEnoughPlayers(SessionError):
    message = "a game needs 2 to 4 players"


class StaleHand(SessionError):
    message = "this hand is out of date"


class NotYourTurn(SessionError):
    message = "it's not your turn"


class Forfeited(SessionError):
    message = "you have forfeited this game"


class MoveRefused(SessionError):
    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class TooManyGames(SessionError):
    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(
            f"this server already has {limit} lobbies and games going, the most its admins "
            "allow; join one, or wait for one to end"
        )


class SaveFailed(SessionError):
    message = "the move could not be saved; nothing changed"


__all__ = [
    "AlreadyRunning",
    "AlreadySeated",
    "Forfeited",
    "LobbyFull",
    "MoveRefused",
    "NoGame",
    "NoLobby",
    "NotEnoughPlayers",
    "NotHost",
    "NotInGame",
    "NotYourTurn",
    "SaveFailed",
    "SessionError",
    "StaleHand",
    "TooManyGames",
]
