"""Every message issue 36 added is within Discord's limits in all four languages (its item
8): a group-DM game played through the layer in each language, past a ping, a repost, a pause
and a resume, then the place's commands (stats with the global rank, /steal profile, the
global ladder, a tournament outside a server), and the forced-ephemeral reply in a server.
Every payload sent is checked (tests/e2e/support/payload_limits.py), and each new message is
checked to be among them, so none is skipped unseen."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from bot.ui.text import next_steps
from tests.e2e.support import payload_limits as limits
from tests.e2e.support.external_apps import external_apps_off
from tests.e2e.support.gdm_play import play_one, play_to_end, start, table_of
from tests.e2e.support.group_dm import TokenPlace
from tests.e2e.support.helpers import buttons, whose_turn

LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr", "it": "it"}
HOLE = "\x00"


def words_of(payload: dict[str, Any]) -> str:
    """A payload's text: its content, text displays and embeds."""
    parts = [payload.get("content") or ""]
    parts += [c.get("content") or "" for c in limits.walk(payload.get("components") or [])]
    for embed in payload.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
    return "\n".join(parts)


def fixed(lang: str, key: str, *holes: str) -> str:
    """The longest part of a message that its values do not change."""
    return max(t(lang, key, **dict.fromkeys(holes, HOLE)).split(HOLE), key=len).strip()


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.bot_options(turn_seconds=20 * 60)
async def test_every_new_message_is_within_discords_limits(
    simcord_env, monkeypatch, guild, channel, players, locales, lang
):
    env = simcord_env
    people = [env.create_user(n) for n in ("ann", "bob", "cat")]
    for person in [*people, players[0]]:
        locales[person.id] = LOCALES[lang]
    gdm = TokenPlace.group_dm(env, monkeypatch, people, installer=people[0])
    begin = len(env.http_requests)

    await start(gdm, people, lang)
    hands: dict[int, Any] = {}
    for _ in range(10):  # a minute a move: the table is reposted before its anchor expires
        await play_one(gdm, people, hands)
        await env.advance_time(60)
    await env.advance_time(15 * 60)  # nobody clicks: paused
    shown = table_of(gdm, people[0])
    mine = next(b["custom_id"] for b in buttons(shown) if ":table:hand:" in b["custom_id"])
    await gdm.click(whose_turn(shown, people), shown, custom_id=mine)  # resumed
    await play_to_end(gdm, people, pace=20.0)
    ann = people[0]
    await gdm.slash(ann, "steal stats")  # with the global rank
    await gdm.slash(ann, "steal profile", global_name="show")
    await gdm.slash(ann, "steal profile")
    await gdm.slash(ann, "steal leaderboard", scope="global")
    await gdm.slash(ann, "steal stats", member=people[1])
    await gdm.slash(ann, "steal profile", global_name="hide")
    await gdm.slash(ann, "steal profile")
    await gdm.slash(ann, "steal stats")
    await gdm.slash(ann, "steal tournament new", name="Kitchen Cup")
    with external_apps_off(guild.id):
        await players[0].slash(channel, "steal new")

    sent = limits.sent_messages(env.http_requests[begin:])
    assert [(where, p) for where, m in sent for p in limits.message_problems(m)] == []
    said = "\n".join(words_of(m) for _, m in sent)
    new = [
        fixed(lang, "table.paused"), fixed(lang, "table.resumed"),
        fixed(lang, "table.moved", "link"), fixed(lang, "ladder.title"),
        fixed(lang, "ladder.rank", "rank", "players"), fixed(lang, "ladder.rank_hidden", "command"),
        fixed(lang, "profile.shown", "name", "command"), fixed(lang, "profile.hidden", "anonymous"),
        fixed(lang, "profile.status_shown", "name"),
        fixed(lang, "profile.status_hidden", "anonymous", "command"),
        t(lang, "tour.error.server_only", **next_steps(lang)),
        fixed(lang, "reply.forced_private.title"),
    ]  # fmt: skip
    assert [words for words in new if words not in said] == []
    pings = [m for where, m in sent if where.startswith("POST /webhooks/") and "<@" in words_of(m)]
    assert pings  # turn pings, follow-ups that mention the player
    assert gdm.bot_token_calls() == [] and gdm.over_cap == []
    # The tournament's answer is raised as the cog's error, as everywhere: no other error.
    assert [e for e in env.errors if "tour.error.server_only" not in str(e)] == []


def test_the_check_can_fail():
    """A message one character past Discord's 2000 is refused by the check this test uses."""
    assert limits.message_problems({"content": "x" * 2001}) != []
    assert limits.message_problems({"content": "x" * 2000}) == []
