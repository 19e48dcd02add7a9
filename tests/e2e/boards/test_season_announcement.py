"""A season's end announcement still owed (issue 32, items 10 and 13): it never names a member
who was forgotten while it waited (its retries and a restart included), and a crash between
posting it and marking it posted never posts it twice."""

from __future__ import annotations

from tests.e2e.conftest import BOTH_BACKENDS, make_bot
from tests.e2e.support.admin_panel import make_admin
from tests.e2e.support.boards import finish
from tests.e2e.support.helpers import buttons
from tests.e2e.support.screens import text

pytestmark = BOTH_BACKENDS
HOUR = 3600.0


async def two_games(env, guild, channel, ann, bob) -> None:
    """Ann beats Bob twice (straight through storage, as a game's end does)."""
    names = {str(ann.id): ann.name, str(bob.id): bob.name}
    for _ in range(2):
        seats = (str(ann.id), str(bob.id))
        await finish(env.bot.storage, guild.id, channel.id, seats, names, winner_first=True)


def announcements(channel) -> list:
    return [m for m in channel.history() if "is over!" in text(m)]


async def new_season(env, guild, channel) -> None:
    admin = make_admin(env, guild)
    asked = (await admin.slash(channel, "steal-admin season-new")).response
    await admin.click(asked, label="Yes, start season 2")
    await env.advance_time(1)


async def forget_me(member, channel) -> None:
    asked = (await member.slash(channel, "steal forget-me")).response
    (yes,) = [b["custom_id"] for b in buttons(asked) if b["custom_id"].endswith(":yes")]
    await member.click(asked, custom_id=yes)
    assert asked.content.startswith("Done: what this bot kept about you is deleted.")


async def owed_then_forgotten(env, guild, channel, ann, bob) -> None:
    """The season ends while Discord refuses the channel's new messages; then Ann is
    forgotten, the announcement still owed. It is owed to Bob's lobby, the latest game,
    which Ann does not sit in."""
    await two_games(env, guild, channel, ann, bob)
    await bob.slash(channel, "steal new")
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=503, times=None)
    await new_season(env, guild, channel)
    await env.advance_time(60)  # its tries fail: it waits a minute before the next
    assert announcements(channel) == []
    await forget_me(ann, channel)


def names_nobody_forgotten(channel, ann, bob) -> None:
    [said] = announcements(channel)
    shown = text(said)
    assert "🥇 **former player**" in shown and f"🥈 **{bob.name}**" in shown
    assert ann.name not in shown and str(ann.id) not in shown


async def test_a_retried_announcement_names_nobody_forgotten_meanwhile(
    simcord_env, guild, channel, players
):
    env, (ann, bob) = simcord_env, players[:2]
    await owed_then_forgotten(env, guild, channel, ann, bob)
    env.backend.faults.clear()
    await env.advance_time(60)  # the announcer's next try
    names_nobody_forgotten(channel, ann, bob)
    assert await env.bot.storage.outbox.pending() == []


async def test_an_announcement_posted_after_a_restart_names_nobody_forgotten(
    simcord_env, db_path, guild, channel, players
):
    env, (ann, bob) = simcord_env, players[:2]
    await owed_then_forgotten(env, guild, channel, ann, bob)
    await env.bot.app.presenter.close()  # the bot stops while it is still owed
    env.backend.faults.clear()
    await env.restart_bot(make_bot(db_path))
    await env.advance_time(1)
    names_nobody_forgotten(channel, ann, bob)
    assert await env.bot.storage.outbox.pending() == []


async def posted_then_crashed(env, guild, channel, ann, bob) -> None:
    """The announcement is posted, but the bot dies before it marks it posted."""
    await two_games(env, guild, channel, ann, bob)

    async def dies_first(item_id: int) -> None:  # storage is gone: then the process dies
        raise ConnectionError("the database is unreachable")

    env.bot.app.sessions.announced = dies_first
    await new_season(env, guild, channel)
    assert len(announcements(channel)) == 1


async def test_a_crash_between_posting_and_marking_posted_never_posts_twice(
    simcord_env, db_path, guild, channel, players
):
    env, (ann, bob) = simcord_env, players[:2]
    await posted_then_crashed(env, guild, channel, ann, bob)
    # The post carries a nonce Discord enforces (for its few minutes), the same at every try.
    [posted] = [
        r.json
        for r in env.http_requests
        if r.method == "POST" and r.path == f"/channels/{channel.id}/messages"
    ]
    assert posted["enforce_nonce"] is True and posted["nonce"].startswith("season:")
    await env.bot.app.presenter.close()
    await env.advance_time(HOUR)  # down for longer than Discord remembers a nonce
    await env.restart_bot(make_bot(db_path))
    await env.advance_time(1)
    assert len(announcements(channel)) == 1
    assert await env.bot.storage.outbox.pending() == []  # and it is marked posted now
    await env.restart_bot(make_bot(db_path))
    await env.advance_time(1)
    assert len(announcements(channel)) == 1


async def test_without_read_message_history_a_late_retry_does_not_post_again(
    simcord_env, db_path, guild, channel, players
):
    # The bot cannot look for its post, and Discord forgot the nonce by now: it counts the
    # announcement as posted rather than risk a second one.
    env, (ann, bob) = simcord_env, players[:2]
    await posted_then_crashed(env, guild, channel, ann, bob)
    await env.bot.app.presenter.close()
    env.inject_error("GET", f"/channels/{channel.id}/messages", status=403, code=50001, times=None)
    await env.advance_time(HOUR)
    await env.restart_bot(make_bot(db_path))
    await env.advance_time(1)
    env.backend.faults.clear()
    assert len(announcements(channel)) == 1
    assert await env.bot.storage.outbox.pending() == []
