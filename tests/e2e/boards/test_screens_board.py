"""The leaderboard as a V2 card: medals, the asker's own row, a pager only when there are
pages, and a rating scale where a newcomer is never negative."""

from __future__ import annotations

from bot.domain import ratings as stats
from tests.e2e.support.boards import SEEDED, TABLES, finish, rows, seed
from tests.e2e.support.screens import buttons, text


async def test_medals_and_the_askers_row_below_the_page(simcord_env, guild, channel, players):
    ann, bob, *_ = players
    storage = simcord_env.bot.storage
    await seed(storage, guild.id, channel.id)
    # ann lost her only game to the best seeded player: she is near the bottom, page 2.
    names = {**SEEDED, str(ann.id): "ann"}
    await finish(storage, guild.id, channel.id, (str(ann.id), "101"), names, winner_first=False)

    board = (await ann.slash(channel, "steal leaderboard")).response

    shown = text(board)
    page = rows(board)
    assert [r[0] for r in page] == list(range(1, 11))
    lines = [line for line in shown.splitlines() if " · " in line and "rating" in line]
    assert [line[:1] for line in lines[:3]] == ["🥇", "🥈", "🥉"]
    assert lines[3].startswith("`#4` ")
    assert "ann" not in [r[1] for r in page]
    [mine] = rows(board, below=True)  # below the page, after a "…"
    assert mine[1] == "ann" and mine[0] > 10
    assert f"👉 __ann__ · **{mine[2]} rating**" in shown

    # bob turns the page: now his own row is the one pointed at (he has no games: none)
    turned = await bob.click(board, label="Next")
    assert turned.acknowledged
    assert "👉" not in text(board) and rows(board, below=True) == []

    # on the page where she is, her row is highlighted in place and not repeated below
    second = (await ann.slash(channel, "steal leaderboard", page=2)).response
    assert [r[1] for r in rows(second) if r[1] == "ann"] == ["ann"]
    assert "👉 __ann__" in text(second) and rows(second, below=True) == []


async def test_a_single_page_has_no_pager_and_explains_the_rating(
    simcord_env, guild, channel, players
):
    ann = players[0]
    storage = simcord_env.bot.storage
    await seed(storage, guild.id, channel.id, TABLES[:2])

    board = (await ann.slash(channel, "steal leaderboard")).response

    assert buttons(board) == []  # one page: no Previous / Next
    assert "Page 1 of" not in text(board)
    assert "-# Sorted by **rating** · 4 players\n" in text(board)  # the count on the sort's line
    assert "-# Rating: everyone starts at 1000." in text(board)
    assert "μ" not in text(board) and "σ" not in text(board)


async def test_a_newcomer_who_lost_is_rated_near_1000_never_below_zero(
    simcord_env, guild, channel, players
):
    ann, bob, *_ = players
    storage = simcord_env.bot.storage
    names = {str(ann.id): "ann", str(bob.id): "bob"}
    await finish(storage, guild.id, channel.id, (str(ann.id), str(bob.id)), names, True)

    board = rows((await bob.slash(channel, "steal leaderboard")).response)

    (_, winner, high, *_), (_, loser, low, *_) = board
    assert (winner, loser) == ("ann", "bob")
    assert int(high.replace(",", "")) > 1000 > int(low.replace(",", "")) > 800


def test_the_rating_scale():
    start = stats.display_rating(stats.START_MU, stats.START_SIGMA)
    assert start == 1000  # a newcomer
    rating = (stats.START_MU, stats.START_SIGMA)
    newcomer = (stats.START_MU, stats.START_SIGMA)
    shown = []
    for _ in range(60):  # a long losing streak against newcomers
        rating, _ = stats.rate([rating, newcomer], [1, 0])
        shown.append(stats.display_rating(*rating))
    assert all(isinstance(r, int) and r >= 0 for r in shown)
    assert shown == sorted(shown, reverse=True) and shown[-1] < 500
    assert stats.display_rating(0.0, 10.0) == 0  # floored, never negative
    assert stats.display_rating(30.0, 1.0) == 1000 + 40 * 27
