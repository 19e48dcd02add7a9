"""/steal-admin end-game: force-ending a lobby or a game without stats, after a question, and
what happens when the lobby or game changed before the answer.

SimCord note: an ephemeral answer the bot edits later (the 30 s question) is read live through
the interaction result's `response`.
"""

from __future__ import annotations

from tests.e2e.support.admin_effects import (
    answered_errors,
    pings,
)
from tests.e2e.support.admin_panel import (
    make_admin,
    make_staff,
)
from tests.e2e.support.helpers import (
    buttons,
    description,
    labels,
    play_one,
    start_game,
    title,
)


async def test_end_game_force_ends_a_lobby_and_a_game_without_stats(
    simcord_env, guild, channel, players
):
    env = simcord_env
    ann, bob, cat, dan = players
    staff = await make_staff(env, guild, channel)
    lobby_room = guild.create_text_channel("lobby-room")
    game_room = guild.create_text_channel("game-room")
    lobby = (await ann.slash(lobby_room, "steal new")).response
    await bob.click(lobby, label="Join")
    table = await start_game(game_room, [cat, dan])
    await play_one(table, [cat, dan], {})

    # the admin ends the lobby from another channel, after a Cancel first
    asked = await staff.admin.slash(channel, "steal-admin end-game", channel=lobby_room)
    assert asked.ephemeral
    assert asked.response.content == (
        f"End the lobby in {lobby_room.mention}? Its players are told, and nothing is recorded."
        "\nThis question expires in 30 seconds."
    )
    assert labels(asked.response) == ["Yes, end the lobby", "Cancel"]
    await staff.admin.click(asked.response, label="Cancel")
    assert asked.response.content == "Nothing changed." and asked.response.components == []
    assert "Join" in labels(lobby)

    asked = await staff.admin.slash(channel, "steal-admin end-game", channel=lobby_room)
    await staff.admin.click(asked.response, label="Yes, end the lobby")

    assert asked.response.content == "Ended. Its players were told, and nothing was recorded."
    assert asked.response.components == []
    assert title(lobby) == "Steal the Bundle: lobby ended"
    assert description(lobby) == (
        f"Ended by a server admin, **{staff.admin.name}**. No stats were recorded."
    )
    assert buttons(lobby) == []
    told = lobby_room.history()[-1]
    assert told.content == f"{ann.mention}, {bob.mention}: a server admin ended this lobby. " \
        "Nothing was recorded."  # fmt: skip
    assert {u.id for u in told.mentions} == {ann.id, bob.id}

    # the admin ends the running game from its own channel (no channel option)
    asked = await staff.admin.slash(game_room, "steal-admin end-game")
    assert asked.response.content.startswith(f"End the game in {game_room.mention}?")
    await staff.admin.click(asked.response, label="Yes, end the game")

    assert asked.response.content == "Ended. Its players were told, and nothing was recorded."
    assert title(table) == "Steal the Bundle: game ended"
    assert description(table) == (
        f"Ended by a server admin, **{staff.admin.name}**. No stats were recorded."
    )
    assert buttons(table) == []
    assert pings(game_room) == []
    told = game_room.history()[-1]
    assert told.content == (
        f"{cat.mention}, {dan.mention}: a server admin ended this game. Nothing was recorded."
    )
    assert {u.id for u in told.mentions} == {cat.id, dan.id}
    hand = await cat.slash(game_room, "steal hand")
    assert hand.response.content.startswith("There is no game running here.")
    stats = await cat.slash(game_room, "steal stats")
    assert stats.response.content.startswith("You haven't finished a game here yet.")
    assert await env.bot.storage.history.by_guild(guild.id) == []
    assert await env.bot.storage.stats.all(guild.id) == []
    assert answered_errors(env) == ["NoGame"]

    # nothing left to end
    for room in (lobby_room, game_room):
        nothing = await staff.admin.slash(channel, "steal-admin end-game", channel=room)
        assert nothing.ephemeral
        assert nothing.response.content == (
            f"There's no lobby or game in {room.mention}. Nothing to end: run it in, or name,"
            " the channel where the game is."
        )
        assert nothing.response.components == []


async def test_end_game_question_about_a_game_that_has_since_ended(
    simcord_env, guild, channel, players
):
    ann, _, cat, _ = players
    admin = make_admin(simcord_env, guild)
    lobby = (await ann.slash(channel, "steal new")).response
    asked = await admin.slash(channel, "steal-admin end-game")
    await ann.click(lobby, label="Leave")  # the lobby closes; a new one opens in its place
    newer = (await cat.slash(channel, "steal new")).response

    await admin.click(asked.response, label="Yes, end the lobby")

    assert asked.response.content == "That lobby or game has already ended. Nothing more to do."
    assert title(newer) == "Steal the Bundle: new game"  # the new lobby is untouched
    assert "Join" in labels(newer)


async def test_ending_a_lobby_never_ends_the_game_it_became(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    admin = make_admin(simcord_env, guild)
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")
    asked = await admin.slash(channel, "steal-admin end-game")
    await ann.click(lobby, label="Start")  # the lobby became a game before the admin answered

    await admin.click(asked.response, label="Yes, end the lobby")

    assert asked.response.content == (
        "That lobby has started since; nothing changed. Ask again to end the game."
    )
    assert "My hand" in labels(lobby)  # the game goes on
