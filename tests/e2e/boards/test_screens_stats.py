"""/steal stats: a picture card and its figures in words, the rating's trend over the last
games and the favourite capture, worked out from the history."""

from __future__ import annotations

import io
from itertools import pairwise

from PIL import Image

from bot.domain import ratings as stats
from bot.domain.seats import is_ai
from tests.e2e.support.boards import finish
from tests.e2e.support.screens import figures, images, text


async def test_stats_card_trend_and_favourite_capture(simcord_env, guild, channel, players):
    ann, bob, cat, _ = players
    storage = simcord_env.bot.storage
    names = {str(m.id): m.name for m in (ann, bob, cat)}
    a, b, c = (str(m.id) for m in (ann, bob, cat))
    await finish(storage, guild.id, channel.id, (a, b), names, winner_first=True)
    await finish(storage, guild.id, channel.id, (b, c), names, winner_first=True)
    await finish(storage, guild.id, channel.id, (a, c), names, winner_first=False)

    result = await ann.slash(channel, "steal stats")

    shown = result.response
    assert result.ephemeral and images(shown) == ["stats.png"]
    [attachment] = shown.attachments
    picture = Image.open(io.BytesIO(await attachment.read()))
    assert picture.size[0] == 420 and 300 < picture.size[1] < 600  # narrow: legible on a phone
    got = figures(shown)
    mine = await storage.stats.get(guild.id, a)
    assert got["Rating"] == f"{mine.rating:,}"
    # The trend replays her two games: 1000, then after the win, then after the loss.
    entries = await storage.history.all(guild.id)
    trend = stats.rating_trend([(e.seats, e.places) for e in entries], a, 2, mine.rating, is_ai)
    assert len(trend) == 3 and trend[0] == 1000 and trend[-1] == mine.rating
    assert trend[1] > 1000  # she won her first game
    change = mine.rating - 1000
    assert got["Trend"] == f"{'+' if change > 0 else '−'}{abs(change)} (last 2 games)"
    expected = stats.favourite_capture(
        [(e.record, e.seats.index(a)) for e in entries if a in e.seats]
    )
    assert expected is not None
    assert got["Favourite capture"].endswith(f" ({expected[2]} captures)")
    assert "-# Rating: everyone starts at 1000." in text(shown)


def test_the_trend_covers_the_games_since_a_reset_and_ends_at_the_stored_rating():
    games = [(("a", "b"), (0, 1))] * 12 + [(("a", "b"), (1, 0))] * 2  # 12 wins, 2 losses
    replayed = stats.rating_trend(games, "a", 14, 0, is_ai)
    assert len(replayed) == stats.TREND_GAMES + 1
    assert replayed[-1] == 0 and replayed[-2] > replayed[-1]  # ends at the stored rating
    steps = [b - a for a, b in pairwise(replayed)]
    assert all(s > 0 for s in steps[:-2]) and all(s < 0 for s in steps[-2:])
    # After a reset only her last 2 games count: the line shows those two, ending at 1013.
    since = stats.rating_trend(games, "a", 2, 1013, is_ai)
    assert len(since) == 3 and since[-1] == 1013
    assert [b - a for a, b in pairwise(since)] == steps[-2:]
    assert stats.rating_trend([], "a", 0, 1000, is_ai) == (1000,)
