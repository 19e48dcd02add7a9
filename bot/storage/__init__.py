"""Everything the bot keeps on disk, in one SQLite file. The only package that holds SQL.

storage = await Storage.open(database_path())
...
await storage.close()
"""

from bot.rows import GuildSettings, HistoryEntry, PlayerStats, Standing

from .db import Storage, check_file, database_path
from .errors import (
    ChannelTaken,
    GameNotFound,
    MigrationFailed,
    NewerDatabase,
    NotADatabase,
    StaleVersion,
    StorageError,
    UnknownSetting,
    WrongStatus,
)
from .games import KEEP, GameRow, Games
from .history import History
from .leaderboard import ORDERS, Stats
from .migrations import LATEST, MIGRATIONS, migrate
from .outbox import Outbox, OutboxItem
from .settings import Settings

__all__ = [
    "KEEP",
    "LATEST",
    "MIGRATIONS",
    "ORDERS",
    "ChannelTaken",
    "GameNotFound",
    "GameRow",
    "Games",
    "GuildSettings",
    "History",
    "HistoryEntry",
    "MigrationFailed",
    "NewerDatabase",
    "NotADatabase",
    "Outbox",
    "OutboxItem",
    "PlayerStats",
    "Settings",
    "StaleVersion",
    "Standing",
    "Stats",
    "Storage",
    "StorageError",
    "UnknownSetting",
    "WrongStatus",
    "check_file",
    "database_path",
    "migrate",
]
