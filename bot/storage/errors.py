"""What storage raises. Every error is a `StorageError`, so the bot can catch them in one place."""


class StorageError(Exception):
    """Something is wrong with the database or with what was asked of it."""


class NotADatabase(StorageError):
    """The database file is not SQLite, or is damaged."""


class NewerDatabase(StorageError):
    """The database was written by a newer version of the bot."""


class MigrationFailed(StorageError):
    """A schema migration failed; it was rolled back."""


class GameNotFound(StorageError):
    """No game has that id."""


class WrongStatus(StorageError):
    """The game is not in a status that allows this (e.g. a move saved to a finished game)."""


class StaleVersion(StorageError):
    """Optimistic locking: the game was saved by someone else since it was loaded."""


class UnknownSetting(StorageError):
    """A guild setting that has no default, so it does not exist."""


class ChannelTaken(StorageError):
    """The channel already has a lobby or a game under way: one live game per channel."""

    def __init__(self, channel_id: int, game_id: int) -> None:
        super().__init__(
            f"channel {channel_id} already has a lobby or game under way (game {game_id})"
        )
        self.channel_id = channel_id
        self.game_id = game_id  # the live game that holds the channel


class StaleRatings(StorageError):
    """A finished game's new ratings were worked out from ratings that changed meanwhile
    (another game of the same player finished first): work them out again and retry."""


class StillPlaying(StorageError):
    """A person cannot be forgotten while seated in a lobby or game under way."""

    def __init__(self, user_id: str, game_ids: list[int]) -> None:
        listed = ", ".join(map(str, game_ids))
        super().__init__(f"player {user_id} is in a lobby or game under way (game {listed})")
        self.game_ids = game_ids


class StillSeated(StillPlaying):
    """A person cannot be forgotten while seated at a table of a running tournament whose
    game has not started yet: it would open with a former player's seat in it."""

    def __init__(self, user_id: str, tournament_ids: list[int]) -> None:
        StorageError.__init__(
            self,
            f"player {user_id} is seated at a table whose game has not started yet "
            f"(tournament {', '.join(map(str, tournament_ids))})",
        )
        self.game_ids: list[int] = []
        self.tournament_ids = tournament_ids


class SaveInterrupted(StorageError):
    """A batch's commit was cut off (the save leading it was cancelled): whether this write
    was committed is the database's to say; read the game again."""
