from pathlib import Path

import pytest

from bot.storage import Storage


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A SQLite file, for the tests of SQLite's own files (migrations, crashes)."""
    return tmp_path / "data" / "steal.db"


@pytest.fixture
async def storage(database: str):
    """Open storage on each backend (the `database` fixture, tests/conftest.py)."""
    s = await Storage.open(database, setting_defaults={"turn_seconds": 120, "preset": "standard"})
    yield s
    await s.close()
