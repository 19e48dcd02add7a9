"""SimCord fixtures: the real bot on a fresh database, a guild, a channel and players."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
import simcord.interactions as interactions

from bot.client import StealBot
from bot.domain.options import Options
from tests.e2e.support.group_dm import server_installs


@pytest.fixture
def db_path(tmp_path: Path, request: pytest.FixtureRequest) -> Path | str:
    """The bot's database: a SQLite file; a test marked BOTH_BACKENDS runs on SQLite and on
    PostgreSQL (the `database` fixture, tests/conftest.py)."""
    if "database" in request.fixturenames:
        return request.getfixturevalue("database")
    return tmp_path / "bot.db"


# On both backends: tests where what storage keeps is the point (restarts, faults, deletion,
# stored results and records) and those an issue's acceptance names. What a screen says, or
# what a move costs Discord, is the same on either: those run on SQLite alone.
BOTH_BACKENDS = pytest.mark.usefixtures("database")


SEED = 20261129


_made: list[StealBot] = []


def make_bot(db_path: Path | str, **options) -> StealBot:
    """The real bot on `db_path`, dealing from a fixed seed so every run plays the same game."""
    options.setdefault("seed_source", lambda: SEED)
    options.setdefault("sync", True)
    # Players here click faster than anyone: cooldowns are tested on their own
    # (test_limits.py), with cooldowns=True.
    options.setdefault("cooldowns", False)
    # Tables here are edited as soon as they change: SimCord's clock stands still between
    # clicks, so a one-second gap would wait for real. Coalescing is tested on its own
    # (test_table.py), with edit_gap=1 and advance_time.
    options.setdefault("edit_gap", 0.0)
    # AI seats here play at once: a 1.5 s wait shorter than SimCord's settle timeout is
    # waited out in real time at every AI move. The wait is tested on its own (test_ai.py,
    # test_table.py), with bot_delay set.
    options.setdefault("bot_delay", 0.0)
    # Options' fields go into the bot's one Options value; the rest are StealBot's own.
    names = {f.name for f in fields(Options)}
    chosen = Options(**{k: options.pop(k) for k in list(options) if k in names})
    bot = StealBot(db_path, options=chosen, **options)
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
def simcord_bot(db_path: Path, request: pytest.FixtureRequest) -> StealBot:
    """The bot under test; @pytest.mark.bot_options(name=value) passes StealBot options."""
    marker = request.node.get_closest_marker("bot_options")
    return make_bot(db_path, **(marker.kwargs if marker else {}))


@pytest.fixture
def guild(simcord_env):
    return simcord_env.create_guild()


@pytest.fixture
def channel(guild):
    return guild.create_text_channel("steal-the-bundle")


@pytest.fixture
def players(simcord_env, guild):
    return [guild.add_member(simcord_env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]


@pytest.fixture(autouse=True)
def server_install(monkeypatch):
    """Interactions say the server installed the app (SimCord leaves their owners empty);
    group DMs and user-installed servers: tests/e2e/support/group_dm.py."""
    server_installs(monkeypatch)


@pytest.fixture
def locales(monkeypatch):
    """user id -> the Discord locale their client sends. SimCord sends every interaction as
    en-US; this sends each member's own instead."""
    chosen: dict[int, str] = {}
    real = interactions.base_payload

    def base_payload(backend, **kwargs):
        record, payload = real(backend, **kwargs)
        payload["locale"] = chosen.get(int(kwargs["user_id"]), "en-US")
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", base_payload)
    return chosen


@pytest.fixture
def commands_in_words(monkeypatch):
    """The bot never learns its commands' ids, so messages name commands in words
    (`/steal new`), as before a bot's first sync: for tests about a message's wording.
    Command mentions have their own tests (test_game_language.py, tests/i18n)."""
    import bot.client

    monkeypatch.setattr(bot.client, "remember_commands", lambda commands: None)
