"""/steal stats shows counted games only: its favourite capture too, named in the server's own
deck; its words do not repeat the picture (every figure is in the picture's description);
and a member whose games all went uncounted is told that, not that they never played."""

from __future__ import annotations

import random

from bot.domain import ratings as stats
from bot.engine import Rules, new_game, preset, to_dict
from bot.engine.playout import play_out
from bot.i18n.cards import rank_name
from tests.e2e.support.screens import descriptions, figures, text
from tests.storage.play import finish as finish_game

BOT = "ai:easy:1"


async def finished(storage, guild_id, channel_id, seats, rules: str, seed: int, **details):
    """One game between `seats` played to the end with random moves and finished as the
    session does; its history entry's record."""
    game = play_out(new_game(preset(rules), list(seats), seed=seed), random.Random(seed))
    row = await storage.games.create(
        guild_id, channel_id, seats[0], game.rules.to_dict(), state=to_dict(game)
    )
    assert await finish_game(storage, row.id, game, **details)
    return (await storage.history.get(row.id)).record


async def test_the_favourite_capture_is_of_counted_games_in_the_servers_deck(
    simcord_env, guild, channel, players
):
    ann, bob = players[:2]
    storage = simcord_env.bot.storage
    a, b = str(ann.id), str(bob.id)
    counted = await finished(storage, guild.id, channel.id, (a, b), "standard", 1)
    # Three games against a bot, with the Spanish deck: not counted (the server's ai_counts
    # is off), so neither their captures nor their deck's names (Knights) are the card's.
    casita = [
        await finished(storage, guild.id, channel.id, (a, BOT), "casita", seed,
                       counted=False, unrated={BOT})
        for seed in (2, 3, 4)
    ]  # fmt: skip
    expected = stats.favourite_capture([(counted, 0)])
    every_game = stats.favourite_capture([(counted, 0), *((r, 0) for r in casita)])
    assert expected is not None and every_game != expected  # what the card showed before

    shown = (await ann.slash(channel, "steal stats")).response

    _deck, rank, n = expected
    name = rank_name("en", rank, Rules(deck="french52"), 2)
    assert figures(shown)["Games"] == "1"
    assert figures(shown)["Favourite capture"] == f"{name} ({n} capture{'s' * (n != 1)})"
    assert "Knight" not in "".join(descriptions(shown))


async def test_the_words_under_the_card_do_not_repeat_it(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    storage = simcord_env.bot.storage
    await finished(storage, guild.id, channel.id, (str(ann.id), str(bob.id)), "standard", 1)
    mine = await storage.stats.get(guild.id, str(ann.id))

    shown = (await ann.slash(channel, "steal stats")).response

    words = text(shown)
    for label in ("Games", "Wins", "Win rate", "Trend", "Rank", "Biggest steal", "Favourite"):
        assert f"{label}:" not in words, label
    assert f"Cards collected: **{mine.cards}** · Steals: **{mine.steals}**" in words
    [description] = descriptions(shown)
    assert description.split(" — ")[0] == "ann"
    got = figures(shown)
    assert {"Games", "Wins", "Win rate", "Rating", "Trend", "Rank", "Cards collected", "Steals",
            "Biggest steal", "Favourite capture"} <= got.keys()  # fmt: skip
    assert (got["Games"], got["Rating"]) == ("1", f"{mine.rating:,}")


async def test_a_member_whose_games_all_went_uncounted_is_told_so(
    simcord_env, guild, channel, players
):
    ann, bob = players[:2]
    storage = simcord_env.bot.storage
    await finished(storage, guild.id, channel.id, (str(ann.id), BOT), "standard", 1,
                   counted=False, unrated={BOT})  # fmt: skip

    mine = await ann.slash(channel, "steal stats")
    theirs = await bob.slash(channel, "steal stats", member=ann)
    never = await ann.slash(channel, "steal stats", member=bob)

    assert mine.ephemeral and mine.response.content.startswith(
        "None of your finished games here counted for the leaderboard: some games are left out "
        "(with AI opponents, or where a hint was taken)"
    )
    assert theirs.response.content.startswith("None of ann's finished games here counted")
    assert never.response.content.startswith("bob hasn't finished a game here yet.")
