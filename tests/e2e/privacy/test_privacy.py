"""Deleting data as members and admins do it (issue 24, item 21): a looker is never stored,
`/steal forget-me` and `/steal-admin forget` ask, then the boards, stats, history and replay
show the person no more; a server the bot left is purged after its grace, unless the bot is
back in time."""

from __future__ import annotations

from simcord.backend import serializers

from tests.e2e.conftest import BOTH_BACKENDS, make_bot
from tests.e2e.support.admin_panel import make_admin, panel_texts
from tests.e2e.support.boards import rows
from tests.e2e.support.helpers import buttons, labels, play_to_end, start_game
from tests.e2e.support.play import crafted_click_target

DAY = 24 * 3600
OTHER_SERVER = 987654321


def yes_of(message) -> str:
    (yes,) = [b["custom_id"] for b in buttons(message) if b["custom_id"].endswith(":yes")]
    return yes


async def played(env, channel, ann, bob) -> int:
    """ann and bob finish a game here, through the buttons: its id."""
    table = await start_game(channel, [ann, bob])
    await play_to_end(table, [ann, bob])
    (entry,) = await env.bot.storage.history.by_guild(channel.guild.id)
    return entry.game_id


@BOTH_BACKENDS
async def test_someone_who_only_looks_is_not_stored(simcord_env, guild, channel, players):
    ann, cat = players[0], players[2]
    stats = simcord_env.bot.storage.stats
    await cat.slash(channel, "steal leaderboard")
    await cat.slash(channel, "steal stats")
    await cat.slash(channel, "steal history")
    await cat.slash(channel, "steal rules")
    await cat.slash(channel, "steal replay")
    assert await stats.get(guild.id, str(cat.id)) is None

    # Joining a lobby is playing: from then on the name is kept.
    lobby = (await ann.slash(channel, "steal new")).response
    await cat.click(lobby, label="Join")
    assert (await stats.get(guild.id, str(cat.id))).name == cat.name
    assert (await stats.get(guild.id, str(ann.id))).name == ann.name


@BOTH_BACKENDS
async def test_forget_me_asks_then_the_boards_stats_history_and_replay_show_me_no_more(
    simcord_env, guild, channel, players
):
    env = simcord_env
    ann, bob = players[:2]
    storage = env.bot.storage
    game_id = await played(env, channel, ann, bob)
    await storage.stats.set_name(OTHER_SERVER, str(ann.id), ann.name)  # she played elsewhere
    board = (await bob.slash(channel, "steal leaderboard")).response
    assert set(names_on(board)) == {ann.name, bob.name}

    asked = await ann.slash(channel, "steal forget-me")
    assert asked.ephemeral
    asked_words = asked.response.content
    assert asked_words.startswith("This deletes your stats, your ratings (the global ladder's")
    assert labels(asked.response) == ["Delete my data", "Keep it"]
    yes = yes_of(asked.response)
    # Her question's button does nothing for anyone else.
    other = await bob.click(crafted_click_target(env, channel, yes), custom_id=yes)
    assert other.response.content == "That question was for someone else."
    assert await storage.stats.get(guild.id, str(ann.id)) is not None

    await ann.click(asked.response, label="Delete my data")

    assert asked.response.content.startswith("Done: what this bot kept about you is deleted.")
    assert asked.response.components == []
    assert await storage.stats.get(guild.id, str(ann.id)) is None
    assert await storage.stats.get(OTHER_SERVER, str(ann.id)) is None  # every server
    assert names_on((await bob.slash(channel, "steal leaderboard")).response) == [bob.name]
    stats = await bob.slash(channel, "steal stats", member=ann)
    assert stats.response.content.startswith(f"{ann.name} hasn't finished a game here yet.")
    history = (await bob.slash(channel, "steal history")).response.embeds[0]
    (shown,) = [f.value for f in history.fields]
    assert "former player" in shown and ann.name not in shown and bob.name in shown
    replay = await bob.slash(channel, "steal replay", game=game_id)
    words = "\n".join(panel_texts(replay.response))
    assert "former player" in words and ann.name not in words
    assert "no replay of that game" not in words


@BOTH_BACKENDS
async def test_forget_me_keeps_it_on_no_and_waits_for_a_game_to_end(
    simcord_env, guild, channel, players
):
    ann, bob = players[:2]
    stats = simcord_env.bot.storage.stats
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")

    kept = await ann.slash(channel, "steal forget-me")
    await ann.click(kept.response, label="Keep it")
    assert kept.response.content == "Nothing was deleted."
    playing = await ann.slash(channel, "steal forget-me")
    await ann.click(playing.response, label="Delete my data")
    assert playing.response.content == (
        "You are in a lobby or game: leave it or finish it first, then ask again."
    )
    assert (await stats.get(guild.id, str(ann.id))).name == ann.name

    await ann.click(lobby, label="Leave")
    gone = await ann.slash(channel, "steal forget-me")
    await ann.click(gone.response, label="Delete my data")
    assert gone.response.content.startswith("Done: ")
    assert await stats.get(guild.id, str(ann.id)) is None


@BOTH_BACKENDS
async def test_an_admin_forgets_a_member_in_this_server(simcord_env, guild, channel, players):
    env = simcord_env
    ann, bob, cat = players[:3]
    storage = env.bot.storage
    await played(env, channel, ann, bob)
    await storage.stats.set_name(OTHER_SERVER, str(ann.id), ann.name)
    boss = make_admin(env, guild)

    asked = await boss.slash(channel, "steal-admin forget", member=ann)
    assert asked.ephemeral
    assert asked.response.content.startswith(f"This deletes {ann.name}'s stats, rating and")
    assert labels(asked.response) == ["Delete their data", "Keep it"]
    yes = yes_of(asked.response)
    refused = await cat.click(crafted_click_target(env, channel, yes), custom_id=yes)
    assert refused.response.content.startswith("You need the Manage Server permission")
    assert await storage.stats.get(guild.id, str(ann.id)) is not None

    await boss.click(asked.response, label="Delete their data")

    said = f"Done: what this bot kept about <@{ann.id}> in this server is deleted."
    assert asked.response.content == said
    assert await storage.stats.get(guild.id, str(ann.id)) is None
    assert (await storage.stats.get(OTHER_SERVER, str(ann.id))).name == ann.name  # not there
    assert names_on((await cat.slash(channel, "steal leaderboard")).response) == [bob.name]


@BOTH_BACKENDS
async def test_a_server_the_bot_left_is_purged_after_30_days_unless_it_is_back(
    simcord_env, db_path
):
    env = simcord_env
    storage = env.bot.storage
    gone, back = env.create_guild("gone"), env.create_guild("back")
    for server in (gone, back):
        await storage.settings.set(server.id, "pings", False)
        await storage.stats.set_name(server.id, "100000000000000001", "ann")

    env.backend.remove_guild(gone.id)
    await env.advance_time(60)
    assert set(await storage.forgetting.pending_purges()) == {gone.id}
    await env.restart_bot(make_bot(db_path))  # the pending purge is stored: it is kept
    storage = env.bot.storage
    env.backend.emit("GUILD_DELETE", {"id": str(back.id)})  # removed too, for now
    await days(env, 29)
    assert set(await storage.forgetting.pending_purges()) == {gone.id, back.id}
    # Re-added within the grace: its purge is off at once.
    payload = serializers.guild_create_payload(env.backend, env.backend.get_guild(back.id))
    env.backend.emit("GUILD_CREATE", payload)
    await env.advance_time(60)
    assert set(await storage.forgetting.pending_purges()) == {gone.id}
    assert await storage.stats.get(gone.id, "100000000000000001") is not None  # not yet
    await days(env, 2)

    assert await storage.forgetting.pending_purges() == {}
    assert await storage.stats.get(gone.id, "100000000000000001") is None
    assert (await storage.settings.get(gone.id)).values["pings"] is True  # the default
    assert (await storage.stats.get(back.id, "100000000000000001")).name == "ann"
    assert (await storage.settings.get(back.id)).values["pings"] is False


def names_on(message) -> list[str]:
    return [r[1] for r in rows(message)]


async def days(env, n: int) -> None:
    """Let `n` days pass, a day at a time (the bot wakes every hour to run the due purges)."""
    for _ in range(n):
        await env.advance_time(DAY)
