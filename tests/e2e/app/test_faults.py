"""Issue 24 as players and admins see it: the database failing at each kind of write of a whole
game and coming back (on both backends, for real: tests/storage/outage.py), a restart before
anyone reads a game, a /steal new whose reply failed, and a stored row that cannot be read.
Nothing acknowledged is lost, no channel stays blocked, and no restart is needed."""

from __future__ import annotations

from sqlalchemy import update

from bot.storage.schema import games
from tests.e2e.conftest import BOTH_BACKENDS, make_bot
from tests.e2e.support.admin_panel import make_admin
from tests.e2e.support.helpers import is_over, labels, plain, start_game, text_of, title, whose_turn
from tests.e2e.support.play import choose, game_id_of, open_hand, stored_moves
from tests.e2e.support.screens import text as screen_text
from tests.engine.helpers import record_moves
from tests.storage.outage import Outage

LOBBY_NOT_SAVED = "The lobby could not be saved. Try /steal new again in a moment."
NOT_STARTED = "The game could not be started. Press **Start** again in a moment."
NOT_SAVED = "could not be saved"
ALREADY = "A lobby or game is already running in this channel."
RETRY = 11  # seconds of virtual time: past the first wait before a background job tries again


def answered(env) -> list[str]:
    """The errors the handlers raised and the cogs answered (reading acknowledges them)."""
    return [type(getattr(e, "original", e)).__name__ for e in env.errors]


async def restart(env, db_path):
    old = env.bot
    await env.restart_bot(make_bot(db_path))
    await old.storage.close()  # as the old process's exit would


async def play_on(env, table, members, game_id) -> int:
    """Play the game through the hands until the session has it over; the moves the players
    were told were played."""
    by_id = {str(m.id): m for m in members}
    told = 0
    while (live := env.bot.sessions.table_of(game_id)) is not None and not live.game.over:
        member = by_id[live.seats[live.turn]]
        result = await choose(member, await open_hand(member, table))
        assert NOT_SAVED not in text_of(result.response)
        told += 1
        assert told < 400, "the game did not end"
    return told


@BOTH_BACKENDS
async def test_a_whole_game_survives_the_database_failing_at_each_kind_of_write(
    simcord_env, db_path, channel, players
):
    env = simcord_env
    two = ann, bob = players[:2]
    outage = await Outage(env.bot.storage).install()

    # The lobby: not saved, and the member may try again at once.
    outage.during("create")
    failed = await ann.slash(channel, "steal new")
    assert failed.ephemeral and plain(text_of(failed.response)) == LOBBY_NOT_SAVED
    lobby = (await ann.slash(channel, "steal new")).response
    assert "Join" in labels(lobby)
    await bob.click(lobby, label="Join")

    # The start: not saved; pressing Start again works.
    outage.during("start")
    failed = await ann.click(lobby, label="Start")
    assert text_of(failed.response) == NOT_STARTED
    await ann.click(lobby, label="Start")
    table = lobby
    game_id = game_id_of(table)

    # A move: either not saved (nothing changed) or, if the storage's own retry on a fresh
    # connection saved it, played; what the player is told is what is stored.
    mover = whose_turn(table, two)
    hand = await open_hand(mover, table)
    outage.during("save_move")
    told = text_of((await choose(mover, hand)).response)
    played = 0 if NOT_SAVED in told else 1
    assert len(await stored_moves(env, game_id)) == played
    assert outage.failed["save_move"] == 1

    # The finish: the last move is played (the table shows the result), its result saved
    # once the database is back, in the background, with no restart.
    outage.during("finish")
    played += await play_on(env, table, two, game_id)
    assert outage.failed["finish"] == 1
    assert await env.bot.storage.history.get(game_id) is None  # not recorded yet
    still = await ann.slash(channel, "steal new")
    assert text_of(still.response).startswith(ALREADY)  # its row is still live: held
    await env.advance_time(RETRY)
    assert is_over(table)
    entry = await env.bot.storage.history.get(game_id)
    assert entry is not None and len(record_moves(entry.record)) == played
    assert (await env.bot.storage.games.get(game_id)).status == "finished"

    # No channel stays blocked: a new game opens there at once.
    again = await ann.slash(channel, "steal new")
    assert not again.ephemeral and "Join" in labels(again.response)
    assert answered(env) == ["SaveFailed"]  # the first /steal new, answered (clicks say so)


@BOTH_BACKENDS
async def test_a_lobby_whose_expiry_failed_expires_when_the_database_is_back(
    simcord_env, channel, players
):
    env = simcord_env
    ann = players[0]
    outage = await Outage(env.bot.storage).install()
    await ann.slash(channel, "steal new")
    outage.during("cancel")
    await env.advance_time(15 * 60)  # the lobby's time runs out: its expiry fails, then works
    await env.advance_time(RETRY)
    assert outage.failed["cancel"] == 1
    assert env.bot.sessions.live_in(channel.id) is None
    lobby = await ann.slash(channel, "steal new")  # same host, same channel: at once
    assert not lobby.ephemeral


async def test_rules_and_table_after_a_restart_before_anyone_moved(
    simcord_env, db_path, channel, players
):
    env = simcord_env
    two = players[:2]
    table = await start_game(channel, two, rules="classic")
    game_id = game_id_of(table)
    await restart(env, db_path)
    assert not env.bot.sessions.table_of(game_id).loaded

    result = await players[2].click(table, label="Rules")  # the table's Rules button
    assert screen_text(result.response).startswith("## 📖 Classic rules\n")
    await restart(env, db_path)
    result = await players[3].slash(channel, "steal rules")
    assert screen_text(result.response).startswith("## 📖 Classic rules\n")
    await restart(env, db_path)
    result = await two[0].slash(channel, "steal table")
    assert not result.ephemeral and labels(result.response) == ["My hand", "Rules"]


async def test_a_new_lobby_whose_reply_failed_can_be_opened_again_at_once(
    simcord_env, channel, players
):
    env = simcord_env
    ann = players[0]
    env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    failed = await ann.slash(channel, "steal new")
    assert "Something went wrong" in text_of(failed.response)  # told to try again
    assert answered(env) == ["HTTPException"]
    assert env.bot.sessions.live_in(channel.id) is None  # the lobby nobody saw is withdrawn
    lobby = await ann.slash(channel, "steal new")
    assert not lobby.ephemeral and "Join" in labels(lobby.response)


@BOTH_BACKENDS
async def test_a_stored_row_that_cannot_be_read_does_not_stop_the_bot(
    simcord_env, db_path, guild, channel, players
):
    env = simcord_env
    table = await start_game(channel, players[:2])
    game_id = game_id_of(table)
    async with env.bot.storage.transaction() as db:
        await db.execute(update(games).where(games.c.id == game_id).values(seats="not json"))
    await restart(env, db_path)  # starts: the row is set aside

    assert env.bot.sessions.live_in(channel.id) is None
    admin = make_admin(env, guild)
    other = guild.create_text_channel("elsewhere")
    asked = await admin.slash(other, "steal-admin end-game")
    assert f"<#{channel.id}>" in asked.response.content  # listed for the admins
    asked = await admin.slash(channel, "steal-admin end-game")
    assert "could not be read" in asked.response.content
    await admin.click(asked.response, label="Yes, end the game")
    assert asked.response.content == "Ended. Nothing was recorded."
    asked = await admin.slash(other, "steal-admin end-game")
    assert f"<#{channel.id}>" not in asked.response.content

    lobby = await players[2].slash(channel, "steal new")  # its channel takes a new game
    assert not lobby.ephemeral and title(lobby.response)
