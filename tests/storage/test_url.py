from pathlib import Path

import pytest

from bot.config import load
from bot.storage import StorageError, database_url, parse, sync_marker


def test_database_url_comes_from_the_environment_and_defaults_to_the_sqlite_file():
    assert database_url({}) == "data/steal.db"  # `make run` with no settings: as before
    assert database_url({"DATABASE_PATH": "/srv/games.db"}) == "/srv/games.db"
    url = "postgresql://bot@db:5432/steal"
    assert database_url({"DATABASE_URL": url, "DATABASE_PATH": "/srv/games.db"}) == url


def test_each_form_of_setting_names_its_backend():
    assert parse("data/steal.db").path == Path("data/steal.db")
    assert parse("sqlite:///data/steal.db").path == Path("data/steal.db")
    assert parse("sqlite:////srv/steal.db").path == Path("/srv/steal.db")
    pg = parse("postgresql://bot:secret@db:5432/steal?search_path=shard_a")
    assert pg.path is None and pg.search_path == "shard_a"
    assert pg.url.drivername == "postgresql+asyncpg" and pg.url.database == "steal"
    assert "secret" not in str(pg) and "search_path" not in str(pg)


@pytest.mark.parametrize(
    "bad", ["mysql://x@y/z", "sqlite://", "sqlite:///:memory:", "post gres://"]
)
def test_anything_else_is_refused_with_a_message(bad):
    with pytest.raises(StorageError):
        parse(bad)


def test_the_sync_marker_sits_beside_a_sqlite_file_and_in_data_for_a_server():
    assert sync_marker("data/steal.db") == Path("data/steal.db.commands-synced")
    marker = sync_marker("postgresql://bot:secret@db/steal")
    assert marker.parent == Path("data") and "secret" not in marker.name


def test_the_config_shows_the_database_without_its_password():
    config = load({"DISCORD_TOKEN": "abc", "DATABASE_URL": "postgresql://bot:secret@db/steal"})
    assert config.database == "postgresql://bot:secret@db/steal"
    assert "secret" not in repr(config) and "db/steal" in repr(config)
