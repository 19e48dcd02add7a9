"""Check what Discord will refuse before Discord does (tests/e2e/support/payload_limits.py holds the
limits, from Discord's documentation). SimCord takes payloads Discord would answer with a 400:
a command's option bound beyond ±2^53 (which makes Discord refuse the whole command sync, so
no slash command gets registered at all), a custom_id over 100 characters, a 26th select
option. Here every command the bot syncs, in every locale, and every message it sends over a
whole game, the lobby, the end screen, the admin panel, rules, replay, leaderboard, stats and
history, in the four languages, is checked against those limits."""

from __future__ import annotations

import pytest

from bot.i18n.commands import CommandTranslator
from bot.ui import ids
from tests.e2e.support import payload_limits as limits
from tests.e2e.support.admin_panel import make_admin
from tests.e2e.support.helpers import buttons, is_over, moves_of

LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr", "it": "it"}


async def synced_payloads(bot) -> list[dict]:
    """The commands exactly as the bot syncs them (bot/client.py sync_commands)."""
    translator = bot.tree.translator or CommandTranslator()
    return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]


async def test_every_synced_command_is_within_discords_limits(simcord_env):
    payloads = await synced_payloads(simcord_env.bot)
    assert {p["name"] for p in payloads} == {"steal", "steal-admin"}
    assert all(p.get("name_localizations") for p in payloads)  # the locales are in them
    found = [problem for p in payloads for problem in limits.command_problems(p)]
    assert found == []


def test_the_command_checks_catch_what_discord_refuses():
    """Each check against a payload Discord would refuse (so a pass above means something)."""
    option = {"type": limits.INTEGER, "name": "game", "description": "A game", "min_value": 1}
    command = {"type": 1, "name": "steal", "description": "Play", "options": [
        {"type": limits.SUBCOMMAND, "name": "replay", "description": "Step through",
         "options": [{**option, "max_value": 10**18 - 1}]},
    ]}  # fmt: skip
    assert limits.command_problems(command) == [
        "/steal replay game: max_value 999999999999999999 is outside ±2^53"
    ]
    bad = {
        "type": 1, "name": "Steal", "description": "", "name_localizations": {"fr": "x" * 33},
        "options": [
            {"type": limits.STRING, "name": "a", "description": "d", "required": False},
            {"type": limits.STRING, "name": "b", "description": "d", "required": True,
             "choices": [{"name": str(i), "value": str(i)} for i in range(26)]},
        ],
    }  # fmt: skip
    found = "\n".join(limits.command_problems(bad))
    for expected in ("bad name 'Steal'", "[fr]: bad name", "description of 0 characters",
                     "required option comes after", "26 choices"):  # fmt: skip
        assert expected in found
    long = {"type": 1, "name": "x", "description": "d" * 100, "options": [
        {"type": limits.STRING, "name": f"o{i}", "description": "d" * 100,
         "choices": [{"name": "n" * 100, "value": "v" * 100} for _ in range(2)]}
        for i in range(10)
    ]}  # fmt: skip
    assert any("characters, over 4000" in p for p in limits.command_problems(long))


def test_the_message_checks_catch_what_discord_refuses():
    row = {"type": 1, "components": [
        {"type": 2, "style": 2, "label": "x" * 81, "custom_id": "a" * 101},
        {"type": 2, "style": 2, "label": "ok", "custom_id": "same"},
        {"type": 2, "style": 2, "label": "ok", "custom_id": "same"},
    ]}  # fmt: skip
    menu = {"type": 1, "components": [{"type": 3, "custom_id": "m", "options": [
        {"label": str(i), "value": str(i)} for i in range(26)]}]}  # fmt: skip
    found = "\n".join(limits.message_problems({"content": "c" * 2001, "components": [row, menu]}))
    for expected in ("content of 2001", "label of 81", "custom_id of 101", "repeat", "26 options"):
        assert expected in found
    text = {"type": 10, "content": "t" * 2001}
    v2 = {"flags": limits.V2_FLAG, "components": [
        {"type": 17, "components": [text, text, {"type": 12, "items": []}]},
        *({"type": 14} for _ in range(40)),
    ]}  # fmt: skip
    found = "\n".join(limits.message_problems(v2))
    for expected in ("components, over 40", "4002 characters of text", "gallery of 0 items"):
        assert expected in found


async def play_through(env, table, members) -> None:
    """Play the game to its end, whoever's turn it is, in any language: the session says who
    is to act, and each clicks the first move their hand offers."""
    game_id = ids.parse(next(b["custom_id"] for b in buttons(table) if ":table:" in
                             (b.get("custom_id") or ""))).game_id  # fmt: skip
    by_id = {str(m.id): m for m in members}
    hands: dict = {}
    hinted = False
    for _ in range(400):
        if is_over(table):
            return
        game = env.bot.sessions.table_of(game_id).game
        player = by_id[env.bot.sessions.table_of(game_id).seats[game.turn]]
        hand = hands.get(player.id)
        if hand is None or not [b for b in moves_of(hand) if not b.get("disabled")]:
            result = await player.click(table, custom_id=ids.table("hand", game_id))
            hand = hands[player.id] = result.response
        hint = next((b for b in buttons(hand) if ":hint:" in b.get("custom_id", "")), None)
        if hint is not None and not hinted:
            hinted = (await player.click(hand, custom_id=hint["custom_id"])).ephemeral
        move = next(b for b in moves_of(hand) if not b.get("disabled"))
        await player.click(hand, custom_id=move["custom_id"])
    raise AssertionError("the game did not end")


def newest_with(channel, fragment: str):
    return next(m for m in reversed(channel.history()) if any(
        fragment in (b.get("custom_id") or "") for b in buttons(m)))  # fmt: skip


# On SQLite: a message's size does not depend on the backend (whole games run on both in
# test_results, test_smoke and others).
@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_every_message_of_a_game_and_its_screens_is_within_discords_limits(
    simcord_env, guild, channel, locales, lang
):
    env = simcord_env
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    admin = make_admin(env, guild)
    for member in (ann, bob, admin):
        locales[member.id] = LOCALES[lang]
    await env.bot.storage.settings.set(guild.id, "language", lang)
    start = len(env.http_requests)

    # The lobby: join, an AI seat asked for and taken away, start; then the whole game.
    lobby = (await ann.slash(channel, "steal new")).response
    game_id = ids.parse(next(b["custom_id"] for b in buttons(lobby))).game_id
    await bob.click(lobby, custom_id=ids.lobby("join", game_id))
    asked = (await ann.click(lobby, custom_id=ids.lobby("bot", game_id))).response
    await ann.click(asked, custom_id=ids.lobby("bot_easy", game_id))
    await ann.click(lobby, custom_id=ids.lobby("unbot", game_id))
    await ann.click(lobby, custom_id=ids.lobby("start", game_id))
    table = lobby
    (await ann.slash(channel, "steal hand"))
    await bob.click(table, custom_id=ids.table("hand", game_id))
    await play_through(env, table, [ann, bob])
    assert is_over(table)

    # The end screen's buttons, the boards, the replay and the rules.
    await ann.click(table, custom_id=ids.record(game_id))
    for sort in ids.SORTS:
        await ann.slash(channel, "steal leaderboard", sort=sort)
    await ann.slash(channel, "steal stats")
    await bob.slash(channel, "steal history")
    shown = (await ann.slash(channel, "steal replay")).response
    for nav in ("next", "last", "first"):
        replay = next((b for b in buttons(shown) if f":replay:{nav}:" in b.get("custom_id", "")),
                      None)  # fmt: skip
        if replay is not None and not replay.get("disabled"):
            await ann.click(shown, custom_id=replay["custom_id"])
    rules = (await ann.slash(channel, "steal rules")).response
    for tab in (*ids.RULES_TABS, ids.RULES_TABS[0]):  # every page (the one shown is greyed)
        if any(b.get("custom_id") == ids.rules("here", tab) and not b.get("disabled")
               for b in buttons(rules)):  # fmt: skip
            await ann.click(rules, custom_id=ids.rules("here", tab))
    await ann.slash(channel, "steal new")
    lobby2 = newest_with(channel, ":lobby:")
    await ann.slash(channel, "steal cancel")

    # The admin panel, topic by topic, and its questions.
    panel = (await admin.slash(channel, "steal-admin settings")).response
    for topic in ids.TOPICS:
        await admin.select(panel, [topic], custom_id=ids.topics())
    await admin.slash(channel, "steal-admin reset-leaderboard")
    await admin.slash(channel, "steal-admin channels list")

    sent = limits.sent_messages(env.http_requests[start:])
    assert len(sent) > 50 and lobby2 is not None  # the whole tour was sent
    kinds = {c["type"] for _, m in sent for c in limits.walk(m.get("components") or [])}
    assert {limits.BUTTON, limits.STRING_SELECT, limits.TEXT_DISPLAY, limits.MEDIA_GALLERY} <= kinds
    assert any((m.get("flags") or 0) & limits.V2_FLAG for _, m in sent)
    found = [f"{where}: {p}" for where, m in sent for p in limits.message_problems(m)]
    assert found == []
