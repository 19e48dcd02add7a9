"""SimCord fixtures: the real bot on a fresh database, a guild, a channel and players."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import StealBot


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.db"


SEED = 20261129


_made: list[StealBot] = []


def make_bot(db_path: Path, **options) -> StealBot:
    """The real bot on `db_path`, dealing from a fixed seed so every run plays the same game."""
    options.setdefault("seed_source", lambda: SEED)
    options.setdefault("sync", True)
    bot = StealBot(db_path, **options)
    _made.append(bot)
    return bot


@pytest.fixture(autouse=True)
async def close_bots():
    """SimCord never closes a bot, even across restart_bot; a process exit would. An open
    aiosqlite connection (a non-daemon thread) would keep pytest from exiting after a failure."""
    yield
    while _made:
        bot = _made.pop()
        if bot.storage is not None:
            await bot.storage.close()


@pytest.fixture
def simcord_bot(db_path: Path) -> StealBot:
    return make_bot(db_path)


@pytest.fixture
def guild(simcord_env):
    return simcord_env.create_guild()


@pytest.fixture
def channel(guild):
    return guild.create_text_channel("steal-the-bundle")


@pytest.fixture
def players(simcord_env, guild):
    return [guild.add_member(simcord_env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]
