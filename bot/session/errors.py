"""What can go wrong in a lobby or at a table, each with a short message a player may read."""

from __future__ import annotations

from typing import Any


class SessionError(Exception):
    """Base class. What the player who caused it reads is a catalog message: `key` (in
    bot/i18n/locales/*/play.po) filled in with `values`; a `n` value picks a plural form.
    The ui writes it in the player's language (bot.ui.text.error_text); str() is the key and
    values, for logs."""

    key = "error.cannot"

    def __init__(self, key: str | None = None, **values: Any) -> None:
        if key is not None:
            self.key = key
        self.values = values
        super().__init__(self.key, *([values] if values else []))


class AlreadyRunning(SessionError):
    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__("error.already_running")


class AlreadyHosting(SessionError):
    """One open lobby per host per server: this member hosts one in `channel_id`."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        super().__init__("error.already_hosting")


class NoHints(SessionError):
    """The server turned hints off, or keeps them for games that do not count."""

    key = "error.no_hints"


class NoLobby(SessionError):
    key = "error.no_lobby"


class NoGame(SessionError):
    key = "error.no_game"


class NotInGame(SessionError):
    key = "error.not_in_game"


class AlreadySeated(SessionError):
    key = "error.already_seated"


class LobbyFull(SessionError):
    key = "error.lobby_full"


class NotHost(SessionError):
    key = "error.not_host"


class NotEnoughPlayers(SessionError):
    key = "error.not_enough_players"


class StaleHand(SessionError):
    key = "error.stale_hand"


class NotYourTurn(SessionError):
    key = "error.not_your_turn"


class Forfeited(SessionError):
    key = "error.forfeited"


class MoveRefused(SessionError):
    """The engine's reason is English and technical: it goes to logs; the player reads a
    plain refusal (their buttons only offer legal moves, so this is a race or a forged id)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__("error.move_refused")
        self.args = (self.key, reason)


class TooManyGames(SessionError):
    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__("error.too_many_games", n=limit)


class SaveFailed(SessionError):
    key = "error.save_failed"


__all__ = [
    "AlreadyHosting",
    "AlreadyRunning",
    "AlreadySeated",
    "Forfeited",
    "LobbyFull",
    "MoveRefused",
    "NoGame",
    "NoHints",
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
