"""💡 Hint: the medium AI's suggestion on the hand, the server's `hints` setting (on, off,
casual) and its `hint_counts` rule for the leaderboard."""

from __future__ import annotations

import discord

from bot.session.hints import suggest
from bot.ui import hand_message as hand_ui
from bot.ui import ids
from tests.e2e.support.helpers import is_over, labels, moves_of, play_one, start_game, whose_turn
from tests.e2e.support.play import bot_message, game_id_of, open_hand
from tests.e2e.support.screens import figures


def make_admin(env, guild):
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user("boss"), roles=[mods])


async def change(admin, room, setting: str, value: str) -> None:
    said = (await admin.slash(room, "steal-admin set", setting=setting, value=value)).response
    assert said.content.startswith(f"`{setting}` is now **"), said.content


async def test_the_hint_suggests_the_medium_ais_move_privately(simcord_env, channel, players):
    env, two = simcord_env, players[:2]
    table = await start_game(channel, two)
    game_id = game_id_of(table)
    first = whose_turn(table, two)
    hand = await open_hand(first, table)
    assert "Hint" in labels(hand)
    live = env.bot.sessions.table(game_id)
    seat = live.seat_of(first.id)
    expected = hand_ui.hint("en", live.hand(seat), suggest(live.game), {"1": "ann"})

    answer = await first.click(hand, label="Hint")

    assert answer.ephemeral
    assert answer.response.content.startswith("💡 Try **")
    assert answer.response.content.split(": ", 1)[0] == expected.split(": ", 1)[0]
    stored = await env.bot.storage.games.get(game_id)
    assert stored.state["session"]["hints"] == {str(seat): 1}  # recorded with the game
    other = next(m for m in two if m is not first)
    assert "Hint" not in labels(await open_hand(other, table))  # not their turn


async def test_hints_off_takes_the_button_away(simcord_env, guild, channel, players):
    env, two = simcord_env, players[:2]
    await change(make_admin(env, guild), channel, "hints", "off")
    table = await start_game(channel, two)
    first = whose_turn(table, two)
    hand = await open_hand(first, table)
    assert "Hint" not in labels(hand)

    crafted_id = ids.hint(game_id_of(table), 0)
    refused = await first.click(bot_message(env, channel, [crafted_id]), custom_id=crafted_id)
    assert refused.ephemeral
    assert refused.response.content.startswith("Hints are off here")


async def test_casual_hints_only_where_the_game_does_not_count(
    simcord_env, guild, channel, players
):
    env, ann, bob = simcord_env, players[0], players[1]
    await change(make_admin(env, guild), channel, "hints", "casual")
    table = await start_game(channel, [ann, bob])
    first = whose_turn(table, [ann, bob])
    assert "Hint" not in labels(await open_hand(first, table))  # it counts: no hints

    other = guild.create_text_channel("casual")
    lobby = (await ann.slash(other, "steal new", bots=1)).response
    await ann.click(lobby, label="Start")  # with an AI seat it does not count (ai_counts off)
    for _ in range(3):
        if whose_turn(lobby, [ann]) is ann:
            break
        await env.advance_time(2)
    assert whose_turn(lobby, [ann]) is ann
    assert "Hint" in labels(await open_hand(ann, lobby))


async def play_to_end_with_a_hint(env, channel, two) -> None:
    table = await start_game(channel, two)
    first = whose_turn(table, two)
    await first.click(await open_hand(first, table), label="Hint")
    hands: dict = {}
    while not is_over(table):
        await play_one(table, two, hands)


async def test_a_game_with_a_hint_counts_unless_the_server_says_not(
    simcord_env, guild, channel, players
):
    env, two = simcord_env, players[:2]
    await play_to_end_with_a_hint(env, channel, two)  # counts by default
    assert figures((await two[0].slash(channel, "steal stats")).response)["Games"] == "1"

    await change(make_admin(env, guild), channel, "hint_counts", "off")
    await play_to_end_with_a_hint(env, channel, two)
    stats = figures((await two[0].slash(channel, "steal stats")).response)
    assert stats["Games"] == "1"  # the second game, with a hint, is not counted
    finished = await env.bot.storage.history.by_guild(guild.id)
    assert len(finished) == 2  # both are in the history


async def test_one_hint_a_turn_a_second_click_shows_it_again(
    simcord_env, channel, players, monkeypatch
):
    """40 clicks on 💡 Hint in one turn ran the AI 40 times and wrote 40 states under the
    table's lock (issue 24): now the AI runs and the state is written once a turn."""
    import bot.session.hints as hints

    env, two = simcord_env, players[:2]
    table = await start_game(channel, two)
    game_id = game_id_of(table)
    first = whose_turn(table, two)
    hand = await open_hand(first, table)
    thought, writes = [], []
    real_suggest, real_update = hints.suggest, env.bot.storage.games.update
    monkeypatch.setattr(hints, "suggest", lambda game: thought.append(1) or real_suggest(game))

    async def update(*args, **kwargs):
        writes.append(1)
        return await real_update(*args, **kwargs)

    monkeypatch.setattr(env.bot.storage.games, "update", update)

    answers = [await first.click(hand, label="Hint") for _ in range(5)]

    said = {a.response.content for a in answers}
    assert len(said) == 1 and said.pop().startswith("💡 Try **")
    assert all(a.ephemeral for a in answers)
    assert (len(thought), len(writes)) == (1, 1)
    stored = await env.bot.storage.games.get(game_id)
    seat = env.bot.sessions.table(game_id).seat_of(first.id)
    assert stored.state["session"]["hints"] == {str(seat): 1}


async def test_a_hint_goes_once_its_turn_is_played_or_its_game_cancelled(
    simcord_env, channel, players
):
    two = players[:2]
    table = await start_game(channel, two)
    first = whose_turn(table, two)
    hand = await open_hand(first, table)
    hinted = await first.click(hand, label="Hint")
    assert hinted.response.content.startswith("💡 Try **")

    move = next(b for b in moves_of(hand) if not b.get("disabled"))
    await first.click(hand, custom_id=move["custom_id"])
    assert hinted.response is None  # the turn it was for is over: it is gone

    second = whose_turn(table, two)
    hinted = await second.click(await open_hand(second, table), label="Hint")
    assert hinted.response is not None
    asked = await two[0].slash(channel, "steal cancel")
    await two[0].click(asked.response, label="Yes, cancel the game")
    assert hinted.response is None  # no game to play it in any more
