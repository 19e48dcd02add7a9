from pathlib import Path

import pytest

from bot.storage import Storage


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "steal.db"


@pytest.fixture
async def storage(db_path: Path):
    s = await Storage.open(db_path, setting_defaults={"turn_seconds": 120, "preset": "standard"})
    yield s
    await s.close()
