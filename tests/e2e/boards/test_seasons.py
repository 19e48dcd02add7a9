"""Leaderboard seasons as members see them: a manager starts a new season (with a
confirmation; a member cannot), the end is announced in the game channel with its top three,
`/steal leaderboard season:1` shows the archive, the stats card shows the medals, and every
screen of it is within Discord's limits in the four languages."""

from __future__ import annotations

import pytest

from bot.ui import ids
from tests.e2e.support import payload_limits as limits
from tests.e2e.support.admin_panel import make_admin
from tests.e2e.support.boards import finish, rows
from tests.e2e.support.helpers import buttons, labels
from tests.e2e.support.play import crafted_click_target
from tests.e2e.support.screens import text

pytestmark = pytest.mark.usefixtures("commands_in_words")
LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr", "it": "it"}


async def two_games(env, guild, channel, ann, bob) -> None:
    """Ann beats Bob twice (straight through storage, as a game's end does)."""
    names = {str(ann.id): ann.name, str(bob.id): bob.name}
    for _ in range(2):
        seats = (str(ann.id), str(bob.id))
        await finish(env.bot.storage, guild.id, channel.id, seats, names, winner_first=True)


def announcements(channel) -> list:
    return [m for m in channel.history() if "is over!" in text(m)]


async def test_a_new_season_by_hand_its_announcement_archive_and_medals(
    simcord_env, guild, channel, players
):
    env = simcord_env
    ann, bob, cat = players[:3]
    admin = make_admin(env, guild)
    mods = guild.create_text_channel("mods")
    await two_games(env, guild, channel, ann, bob)
    before = rows((await ann.slash(channel, "steal leaderboard")).response)
    assert [r[1] for r in before] == [ann.name, bob.name]

    # The manager is asked first; Cancel changes nothing.
    asked = await admin.slash(mods, "steal-admin season-new")
    assert asked.ephemeral and asked.response.content.startswith(
        "End season 1 and start season 2? Season 1's final standings are kept"
    )
    assert labels(asked.response) == ["Yes, start season 2", "Cancel"]
    (yes,) = [b["custom_id"] for b in buttons(asked.response) if b["label"].startswith("Yes")]
    # A member who crafts the Yes click is refused: only managers end a season.
    refused = await cat.click(crafted_click_target(env, mods, yes), custom_id=yes)
    assert refused.ephemeral and "Manage Server" in refused.response.content
    assert announcements(channel) == []
    await admin.click(asked.response, label="Yes, start season 2")
    assert asked.response.content == (
        "Season 1 ended with 2 players on its final board; season 2 starts now."
    )
    await env.advance_time(1)

    # The announcement, in the channel of the latest game, with the top three.
    [said] = announcements(channel)
    shown = text(said)
    assert "Season 1 is over!" in shown and "Season 2 starts now" in shown
    assert f"🥇 **{ann.name}** · rating {before[0][2]}" in shown
    assert f"🥈 **{bob.name}** · rating {before[1][2]}" in shown
    assert "🥉" not in shown and "2 players" in shown

    # The board of season 2 is empty; season 1's is kept as it stood.
    now = text((await ann.slash(channel, "steal leaderboard")).response)
    assert now == (
        "### 🏆 Leaderboard · season 2\n"
        "Nobody has a counted game yet in season 2. Start one with `/steal new`!"
    )
    past = (await ann.slash(channel, "steal leaderboard", season=1)).response
    assert "Leaderboard · season 1" in text(past) and "Final · " in text(past)
    assert rows(past) == before
    # An unknown season: an ephemeral error naming the valid ones.
    wrong = await ann.slash(channel, "steal leaderboard", season=7)
    assert wrong.ephemeral and wrong.response.content == (
        "This server's leaderboard has no season 7. Its past seasons: 1. Leave out **season**"
        " for the current one."
    )
    offered = await ann.autocomplete(channel, "steal leaderboard", "season", "")
    assert [(c["value"], c["name"].split(" (")[0]) for c in offered] == [(1, "Season 1")]

    # The medals: in words while season 2 has no game of hers, then under her card.
    mine = await ann.slash(channel, "steal stats")
    assert mine.response.content == (
        "You have no counted games yet in season 2. Start one with `/steal new`!\n"
        "Season medals: 🥇 1"
    )
    await two_games(env, guild, channel, ann, bob)
    card = text((await ann.slash(channel, "steal stats")).response)
    assert "Season medals: 🥇 1" in card
    assert "Season medals: 🥈 1" in text((await bob.slash(channel, "steal stats")).response)

    # Asked again later, the question is about the season under way.
    again = await admin.slash(mods, "steal-admin season-new")
    assert labels(again.response) == ["Yes, start season 3", "Cancel"]


@pytest.mark.parametrize("lang", list(LOCALES))
async def test_the_season_screens_are_within_discords_limits(
    simcord_env, guild, channel, players, locales, lang
):
    env = simcord_env
    ann, bob = players[:2]
    admin = make_admin(env, guild)
    for member in (ann, bob, admin):
        locales[member.id] = LOCALES[lang]
    await env.bot.storage.settings.set(guild.id, "language", lang)
    await two_games(env, guild, channel, ann, bob)
    start = len(env.http_requests)

    asked = (await admin.slash(channel, "steal-admin season-new")).response
    (yes,) = [b["custom_id"] for b in buttons(asked) if ":new_season:" in b["custom_id"]][:1]
    await admin.click(asked, custom_id=yes)
    await env.advance_time(1)
    await ann.slash(channel, "steal leaderboard", season=1)
    await ann.slash(channel, "steal leaderboard")
    await ann.slash(channel, "steal leaderboard", season=3)
    await ann.slash(channel, "steal stats")
    panel = (await admin.slash(channel, "steal-admin settings")).response
    await admin.select(panel, ["timers"], custom_id=ids.topics())

    sent = limits.sent_messages(env.http_requests[start:])
    posted = [m for where, m in sent if where.startswith("POST /channels/")]
    assert len(posted) == 1  # the announcement
    found = [f"{where}: {p}" for where, m in sent for p in limits.message_problems(m)]
    assert found == []
    assert env.errors == []
