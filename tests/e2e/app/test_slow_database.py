"""Every command and button answers (or defers) within Discord's 3 seconds, whatever the
database does: the budget starts when the handler is entered, and a handler still waiting on
the database after 2 s defers, then finishes with a follow-up or an edit."""

from __future__ import annotations

import asyncio
import contextlib

import discord

from tests.e2e.support.helpers import description, labels, start_game, table_text, text_of
from tests.e2e.support.play import choose, open_hand, quick

DELAY = 2.5  # seconds each database call waits: past the 2 s budget on its own


def slow_database(env, monkeypatch) -> None:
    """Every read and every transaction (a move's too: SQLite saves moves on the driver
    itself) waits DELAY seconds (virtual: advance_time moves it). On SQLite a move is saved on
    the event loop's own connection only if that cannot wait (bot/storage/sqlite_moves.py):
    here it never can, as when another process holds the database's lock."""
    storage = env.bot.storage.connection  # what every repository reads and writes through
    real_fetchall, real_transaction = storage.fetchall, storage.transaction
    real_driver, real_driver_transaction = storage.driver, storage.driver_transaction

    async def fetchall(*args, **kwargs):
        await asyncio.sleep(DELAY)
        return await real_fetchall(*args, **kwargs)

    @contextlib.asynccontextmanager
    async def transaction():
        await asyncio.sleep(DELAY)
        async with real_transaction() as db:
            yield db

    @contextlib.asynccontextmanager
    async def driver():
        await asyncio.sleep(DELAY)
        async with real_driver() as db:
            yield db

    @contextlib.asynccontextmanager
    async def driver_transaction():
        await asyncio.sleep(DELAY)
        async with real_driver_transaction() as db:
            yield db

    monkeypatch.setattr(storage, "fetchall", fetchall)
    monkeypatch.setattr(storage, "transaction", transaction)
    monkeypatch.setattr(storage, "driver", driver)
    monkeypatch.setattr(storage, "driver_transaction", driver_transaction)
    monkeypatch.setattr(storage, "loop_free", lambda: False)


async def answered_in_time(env, act):
    """Run `act` (a slash command or a click) with the database slow: it is not answered at
    once, it is deferred before 3 s, and it is finished once the database is done."""
    with quick(env, 1.0):  # the 2 s budget and the slow calls stay on virtual time
        result = await act()
    assert not result.acknowledged  # still waiting for the database
    await env.advance_time(2.1)
    assert result.acknowledged and result.deferred  # within Discord's 3 seconds
    for _ in range(12):  # each database call takes DELAY; let them all finish
        await env.advance_time(DELAY)
    return result


async def test_nothing_is_left_unanswered_when_the_database_is_slow(
    simcord_env, guild, channel, players, monkeypatch
):
    env = simcord_env
    ann, bob = players[:2]
    mods = guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[mods])
    slow_database(env, monkeypatch)

    opened = await answered_in_time(env, lambda: ann.slash(channel, "steal new"))
    lobby = opened.followups[0] if opened.followups else opened.response
    assert "Join" in labels(lobby)

    await answered_in_time(env, lambda: bob.click(lobby, label="Join"))
    assert "**bob**" in table_text(lobby)

    board = await answered_in_time(env, lambda: ann.slash(channel, "steal leaderboard"))
    assert board.followups or board.response.components

    settings = await answered_in_time(env, lambda: boss.slash(channel, "steal-admin settings"))
    shown = settings.followups[0] if settings.followups else settings.response
    assert shown.components and shown.ephemeral  # the settings panel


async def test_a_move_is_answered_in_time_when_the_database_is_slow(
    simcord_env, channel, players, monkeypatch
):
    env = simcord_env
    two = players[:2]
    table = await start_game(channel, two)
    first = next(m for m in two if m.name in (description(table) or ""))
    hand = await open_hand(first, table)
    slow_database(env, monkeypatch)

    played = await answered_in_time(env, lambda: choose(first, hand))
    assert text_of(played.response).startswith("### 🃏 Your hand")
