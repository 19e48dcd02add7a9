"""The DM with the bot (issue 36, item 3): a person plays against one, two or three AI
opponents there, whether they installed the app to their account or met it in a server that
did. The bot token reaches its own DM, so the game runs as in a server channel: the lobby, the
table and the hands through the usual presenter."""

from __future__ import annotations

import pytest
import simcord.interactions as interactions

from tests.e2e.conftest import BOTH_BACKENDS
from tests.e2e.support import payload_limits as limits
from tests.e2e.support.helpers import (
    buttons,
    description,
    is_over,
    play_one,
    play_to_end,
    table_text,
    title,
)
from tests.e2e.support.screens import text as screen_text

USER_INSTALL, SERVER_INSTALL = "user", "server"
LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr", "it": "it"}


@pytest.fixture
def installed(monkeypatch):
    """The install an interaction comes through, as Discord's payload says it: a user install
    names the installer ({"1": id}); a server install met in the bot's DM is {"0": "0"}
    (Discord's documented value there). SimCord sends {} for both."""
    chosen: dict[str, str] = {"how": USER_INSTALL}
    real = interactions.base_payload

    def base_payload(backend, **kwargs):
        record, payload = real(backend, **kwargs)
        user = str(kwargs["user_id"])
        owners = {"1": user} if chosen["how"] == USER_INSTALL else {"0": "0"}
        payload["authorizing_integration_owners"] = owners
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", base_payload)
    return chosen


@BOTH_BACKENDS
@pytest.mark.parametrize("how", [USER_INSTALL, SERVER_INSTALL])
async def test_a_dm_game_against_two_ai_seats(simcord_env, installed, how):
    installed["how"] = how
    ann = simcord_env.create_user("ann")
    made = await ann.slash("steal new", bots=2, difficulty="easy")
    lobby = made.response
    assert not made.ephemeral and lobby.channel_id == ann.dm_channel.id
    seats = table_text(lobby)
    assert "🤖 Easy bot" in seats and "🤖 Easy bot 2" in seats and "Players (3/4)" in seats
    await ann.click(lobby, label="Start")
    moves = await play_to_end(lobby, [ann])
    assert moves > 5 and is_over(lobby) and "game over" in title(lobby)
    # It is kept: in this DM's history, and replayable from there.
    history = await ann.slash("steal history")
    assert history.ephemeral and "🤖 Easy bot 2" in screen_text(history.response)
    replay = await ann.slash("steal replay")
    assert replay.ephemeral and replay.response.attachments
    assert simcord_env.errors == []


@pytest.mark.parametrize("bots", [1, 3])
async def test_one_or_three_ai_seats_in_the_dm_with_the_bot(simcord_env, installed, bots):
    ann = simcord_env.create_user("ann")
    lobby = (await ann.slash("steal new", bots=bots, max_players=bots + 1)).response
    assert f"Players ({bots + 1}/{bots + 1})" in table_text(lobby)
    await ann.click(lobby, label="Start")
    await play_to_end(lobby, [ann])
    assert is_over(lobby)
    assert simcord_env.errors == []


async def test_links_to_a_dm_table_open_that_dm(simcord_env, installed):
    """A DM's games are kept under its channel (it has no server): a link to its table is a
    DM link, "@me", not one into a server of that id."""
    ann = simcord_env.create_user("ann")
    dm = ann.dm_channel.id
    lobby = (await ann.slash("steal new", bots=1)).response
    await ann.click(lobby, label="Start")
    again = (await ann.slash("steal table")).response
    assert f"https://discord.com/channels/@me/{dm}/{again.id}" in description(lobby)


@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_every_message_of_a_dm_game_is_within_discords_limits(
    simcord_env, installed, locales, lang
):
    ann = simcord_env.create_user("ann")
    locales[ann.id] = LOCALES[lang]
    start = len(simcord_env.http_requests)
    lobby = (await ann.slash("steal new", bots=3)).response
    await ann.click(lobby, custom_id=next(b["custom_id"] for b in buttons(lobby)
                                          if ":start:" in b["custom_id"]))  # fmt: skip
    while not is_over(lobby):
        await play_one(lobby, [ann], {})  # the labels are the reader's: by custom_id
    for command in ("steal history", "steal stats", "steal leaderboard", "steal replay"):
        await ann.slash(command)
    sent = limits.sent_messages(simcord_env.http_requests[start:])
    assert len(sent) > 20
    assert [f"{where}: {p}" for where, m in sent for p in limits.message_problems(m)] == []
