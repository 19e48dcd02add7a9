"""Every `/steal` subcommand in the DM with the bot (issue 36): offered there, each works
without what only a server has (its settings are the defaults, there are no member objects,
no server name, no channel permissions to read), and the DM keeps its own games, names and
board under its channel (bot/adapter/interactions.py guild_of). Tournaments answer there with
where they are played (tests/e2e/tournament/test_tournament_outside_servers.py)."""

from __future__ import annotations

from bot.i18n import t
from bot.ui.text import next_steps
from tests.e2e.conftest import BOTH_BACKENDS
from tests.e2e.support.helpers import (
    description,
    hand_cards,
    is_over,
    labels,
    plain,
    play_to_end,
    text_of,
    title,
)
from tests.e2e.support.screens import text as screen_text


def refused(env, since: int) -> list[str]:
    """The session's refusals said to players since `since` (env.error_cursor), by key."""
    found = env.errors[since:]  # reading them tells SimCord they were expected
    return [getattr(getattr(e, "original", e), "key", type(e).__name__) for e in found]


async def test_before_any_game_each_command_answers_in_the_dm(simcord_env):
    env = simcord_env
    ann = env.create_user("ann")
    rules = await ann.slash("steal rules")
    assert rules.ephemeral and screen_text(rules.response).startswith("## 📖 Standard rules")
    preset = await ann.slash("steal rules", preset="casita")
    assert preset.ephemeral and "Casita" in screen_text(preset.response)
    for command in ("steal stats", "steal history", "steal replay"):
        said = await ann.slash(command)
        words = plain(text_of(said.response))
        assert said.ephemeral and "/steal new" in words and "server" not in words, command
    board = await ann.slash("steal leaderboard")
    assert "leaderboard" in screen_text(board.response)
    assert "server" not in screen_text(board.response)
    for command, key in [
        ("steal join", "error.no_lobby"),
        ("steal leave", "error.no_lobby"),
        ("steal start", "error.no_lobby"),
        ("steal hand", "error.no_game"),
        ("steal table", "error.no_game"),
        ("steal forfeit", "error.no_game"),
        ("steal cancel", "error.no_game"),
    ]:
        since = env.error_cursor
        said = await ann.slash(command)
        expected = plain(t("en", key, **next_steps("en")))
        assert said.ephemeral and plain(said.response.content) == expected, command
        assert refused(env, since) == [key], command


@BOTH_BACKENDS
async def test_a_dm_game_and_every_command_around_it(simcord_env):
    env = simcord_env
    ann, bob = env.create_user("ann"), env.create_user("bob")
    # A lobby: the host is seated, and leaving closes it.
    lobby = (await ann.slash("steal new", bots=1)).response
    joined = await ann.slash("steal join")
    assert joined.ephemeral and joined.response.content.startswith("You host this lobby")
    left = await ann.slash("steal leave")
    assert left.ephemeral and "closed" in left.response.content
    assert "closed" in title(lobby) or "closed" in description(lobby)
    # Another, started by the command: the table is its answer.
    await ann.slash("steal new", bots=2, difficulty="hard")
    started = await ann.slash("steal start")
    table = started.response
    assert not started.ephemeral and "Turn: **ann**" in description(table)
    hand = await ann.slash("steal hand")
    assert hand.ephemeral and len(hand_cards(hand.response)) == 4
    rules = await ann.slash("steal rules")
    assert rules.ephemeral and screen_text(rules.response).startswith("## 📖")
    again = (await ann.slash("steal table")).response
    assert description(table).startswith("The table moved: ")
    asked = await ann.slash("steal forfeit")
    assert labels(asked.response) == ["Yes, forfeit", "No, keep playing"]
    await ann.click(asked.response, label="No, keep playing")
    asked = await ann.slash("steal cancel")
    await ann.click(asked.response, label="Yes, cancel the game")
    assert title(again) == "Steal the Bundle: game cancelled"
    # A whole game, then what the DM keeps of it.
    lobby = (await ann.slash("steal new", bots=1, difficulty="easy")).response
    await ann.click(lobby, label="Start")
    await play_to_end(lobby, [ann])
    assert is_over(lobby)
    history = await ann.slash("steal history")
    assert history.ephemeral and "ann" in screen_text(history.response)
    theirs = await ann.slash("steal history", member=bob)  # a user, not a server's member
    assert theirs.ephemeral and "bob" in text_of(theirs.response)
    replay = await ann.slash("steal replay")
    assert replay.ephemeral and replay.response.attachments
    stats = await ann.slash("steal stats")
    assert stats.ephemeral
    of_bob = await ann.slash("steal stats", member=bob)
    assert of_bob.ephemeral and "bob" in text_of(of_bob.response)
    board = await ann.slash("steal leaderboard")
    assert not board.ephemeral and "leaderboard" in screen_text(board.response)
    # A DM is no server, and /steal-admin is not offered there: no answer says otherwise.
    for shown in (history, theirs, stats, of_bob, board):
        words = plain(screen_text(shown.response))
        assert "server" not in words and "/steal-admin" not in words, words
    forget = await ann.slash("steal forget-me")
    assert forget.ephemeral and labels(forget.response) == ["Delete my data", "Keep it"]
    await ann.click(forget.response, label="Delete my data")
    assert refused(env, 0) == []
