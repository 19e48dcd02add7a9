"""Everything the bot keeps: a SQLite file (the default) or a PostgreSQL database, through
SQLAlchemy Core. The only package that holds SQL.

storage = await Storage.open(database_url())  # a file path, sqlite:///... or postgresql://...
...
await storage.close()
"""

from bot.domain.values import (
    GameResult,
    GuildSettings,
    HistoryEntry,
    PlayerStats,
    SeatResult,
    Standing,
)

from .connection import check, check_file
from .db import Storage
from .errors import (
    ChannelTaken,
    GameNotFound,
    MigrationFailed,
    NewerDatabase,
    NotADatabase,
    StaleRatings,
    StaleVersion,
    StillPlaying,
    StillSeated,
    StorageError,
    UnknownSetting,
    WrongStatus,
)
from .forget import Forgetting, Forgotten
from .games import Games
from .hand_tokens import HandTokens
from .history import History
from .leaderboard import ORDERS, START_RATING, Stats
from .live import GameRow, LiveHead
from .migrations import LEGACY_LATEST, MIGRATIONS, migrate
from .outbox import Outbox, OutboxItem
from .settings import Settings
from .sql import KEEP
from .tournament import Tournaments
from .upgrade import LATEST
from .url import database_path, database_url, parse, sync_marker

__all__ = [
    "KEEP",
    "LATEST",
    "LEGACY_LATEST",
    "MIGRATIONS",
    "ORDERS",
    "START_RATING",
    "ChannelTaken",
    "Forgetting",
    "Forgotten",
    "GameNotFound",
    "GameResult",
    "GameRow",
    "Games",
    "GuildSettings",
    "HandTokens",
    "History",
    "HistoryEntry",
    "LiveHead",
    "MigrationFailed",
    "NewerDatabase",
    "NotADatabase",
    "Outbox",
    "OutboxItem",
    "PlayerStats",
    "SeatResult",
    "Settings",
    "StaleRatings",
    "StaleVersion",
    "Standing",
    "Stats",
    "StillPlaying",
    "StillSeated",
    "Storage",
    "StorageError",
    "Tournaments",
    "UnknownSetting",
    "WrongStatus",
    "check",
    "check_file",
    "database_path",
    "database_url",
    "migrate",
    "parse",
    "sync_marker",
]
