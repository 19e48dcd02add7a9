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
