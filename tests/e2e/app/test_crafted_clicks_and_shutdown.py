"""Faults a review found, each as a player or admin meets it: a crafted Confirm that names
another game, nicknames leaking between servers, and the order of shutdown."""

from __future__ import annotations

from bot.ui import ids
from tests.e2e.conftest import make_bot
from tests.e2e.support.helpers import labels, start_game, table_text
from tests.e2e.support.play import bot_message, game_id_of


async def test_a_confirm_naming_another_game_cancels_nothing(simcord_env, guild, players):
    """A Yes is about the game it names, in the channel it is clicked in: a crafted one for a
    game elsewhere ends nothing, and says so."""
    ann, bob, cat, dan = players
    here = guild.create_text_channel("here")
    there = guild.create_text_channel("there")
    mine = await start_game(here, [ann, bob])
    other = await start_game(there, [cat, dan])
    other_id = game_id_of(other)
    crafted = bot_message(simcord_env, here, [ids.confirm("cancel", other_id, True)])

    result = await ann.click(crafted, custom_id=ids.confirm("cancel", other_id, True))

    assert result.response.content.startswith(
        "That question was about a game in another channel. Nothing changed; ask again"
    )
    assert "My hand" in labels(mine) and "My hand" in labels(other)  # both still running
    sessions = simcord_env.bot.sessions
    assert sessions.table_of(game_id_of(mine)) is not None
    assert sessions.table_of(other_id) is not None


async def test_a_nickname_stays_in_its_server(simcord_env):
    """ann is "Ann of A" in one server and "Ann of B" in another: each server's lobby shows
    the name she has there, whatever she did last elsewhere."""
    env = simcord_env
    a, b = env.create_guild("A"), env.create_guild("B")
    ann_user, bob_user = env.create_user("ann"), env.create_user("bob")
    ann_a = a.add_member(ann_user, nick="Ann of A")
    bob_a = a.add_member(bob_user)
    ann_b = b.add_member(ann_user, nick="Ann of B")
    room_a, room_b = a.create_text_channel("games"), b.create_text_channel("games")

    lobby_a = (await ann_a.slash(room_a, "steal new")).response
    await ann_b.slash(room_b, "steal new")  # she is seen in B last
    await bob_a.click(lobby_a, label="Join")  # A's lobby is drawn again

    assert "Ann of A" in table_text(lobby_a)
    assert "Ann of B" not in table_text(lobby_a)


async def test_shutdown_stops_the_presenter_and_timers_before_storage(simcord_env, db_path):
    """Nothing may write to a closed database: the presenter's workers and the turn timers
    stop first, then storage closes, then the cogs unload."""
    bot = simcord_env.bot
    order: list[str] = []
    app = bot.app

    def spy(name, real):
        async def closing(*args, **kwargs):
            order.append(name)
            return await real(*args, **kwargs)

        return closing

    app.presenter.close = spy("presenter", app.presenter.close)
    app.sessions.close = spy("sessions", app.sessions.close)
    app.storage.close = spy("storage", app.storage.close)
    steal = bot.get_cog("Steal")
    steal.cog_unload = spy("cogs", steal.cog_unload)

    await bot.close()

    assert order == ["presenter", "sessions", "storage", "cogs"]
    await simcord_env.restart_bot(make_bot(db_path))  # the database opens cleanly again
    assert await simcord_env.bot.storage.schema_version() > 0
