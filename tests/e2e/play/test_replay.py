"""/steal replay and the Replay buttons as members use them: open a finished game at the deal,
step to the end and back, jump to the biggest steal, old buttons after a restart, and another
server's game refused."""

from __future__ import annotations

import pytest
from simcord.components import walk_components

import cogs.play._replay
from bot.engine import replay
from bot.ui import ids
from bot.ui.replay import ReplayCache
from tests.e2e.conftest import make_bot
from tests.e2e.support.admin_panel import panel_texts
from tests.e2e.support.boards import bot_message
from tests.e2e.support.helpers import plain
from tests.e2e.support.replays import UNKNOWN, finish

ALL_HANDS = "every hand is shown, since the game is over"


def steals(record: dict) -> list[tuple[int, int]]:
    """(step, cards) of every steal, read from the engine's own replay of the record."""
    events: list = []
    replay(record, events)
    return [(n, e["n"]) for n, es in enumerate(events, 1) for e in es if e["type"] == "stole"]


def head(message) -> str:
    return panel_texts(message)[0]


def move_text(message) -> str:
    return panel_texts(message)[1]


def nav(message) -> dict[str, dict]:
    """The viewer's buttons by what they do (first, back, next, last, steal)."""
    out = {}
    for c in walk_components(message.components):
        parsed = ids.TEMPLATES["replay"].fullmatch(c.get("custom_id") or "")
        if parsed:
            out[parsed["nav"]] = c
    return out


def image(message) -> str:
    (gallery,) = [c for c in walk_components(message.components) if c.get("type") == 12]
    return gallery["items"][0]["media"]["url"]


@pytest.fixture
async def game(simcord_env, channel, players):
    """ann and bob's finished game (one with steals), its id and record."""
    ann, bob = players[:2]
    seats = [str(ann.id), str(bob.id)]
    for seed in range(40):
        names = {seats[0]: "ann", seats[1]: "bob"}
        game_id, record = await finish(simcord_env, channel, seats, seed, names)
        if steals(record):
            return game_id, record
    raise AssertionError("no seed gave a steal")


async def test_replay_opens_at_the_deal_and_steps_to_the_end_and_back(
    simcord_env, channel, players, game
):
    ann = players[0]
    game_id, record = game
    last = len(record["moves"])

    shown = await ann.slash(channel, "steal replay")  # ann's last game here

    assert shown.ephemeral
    viewer = shown.response
    assert head(viewer) == f"## Replay of game #{game_id}\nMove 0 of {last} · {ALL_HANDS}"
    assert move_text(viewer).startswith("The deal: **")
    assert "\n-# Hands: ann: " in move_text(viewer)
    assert [a.filename for a in viewer.attachments] == [f"replay-{game_id}-0.png"]
    assert image(viewer).endswith(f"/replay-{game_id}-0.png")  # the attachment, resolved
    assert nav(viewer)["first"]["disabled"] and nav(viewer)["back"]["disabled"]
    for step in range(1, last + 1):
        await ann.click(viewer, custom_id=nav(viewer)["next"]["custom_id"])
        assert head(viewer).startswith(f"## Replay of game #{game_id}\nMove {step} of {last}")
        mover = "ann" if record["moves"][step - 1]["seat"] == 0 else "bob"
        assert move_text(viewer).startswith(mover), move_text(viewer)
    assert [a.filename for a in viewer.attachments] == [f"replay-{game_id}-{last}.png"]
    assert "🏁 Won by **" in move_text(viewer)
    assert nav(viewer)["next"].get("disabled") and nav(viewer)["last"].get("disabled")
    await ann.click(viewer, custom_id=nav(viewer)["back"]["custom_id"])
    assert f"Move {last - 1} of {last}" in head(viewer)
    await ann.click(viewer, custom_id=nav(viewer)["first"]["custom_id"])
    assert f"Move 0 of {last}" in head(viewer)
    await ann.click(viewer, custom_id=nav(viewer)["last"]["custom_id"])
    assert f"Move {last} of {last}" in head(viewer)


async def test_each_step_is_drawn_once(simcord_env, channel, players, game, monkeypatch):
    ann, bob = players[:2]
    game_id, _ = game
    monkeypatch.setattr(cogs.play._replay, "CACHE", ReplayCache())
    mine = (await ann.slash(channel, "steal replay", game=game_id)).response
    theirs = (await bob.slash(channel, "steal replay", game=game_id)).response
    for viewer, who in ((mine, ann), (theirs, bob)):
        await who.click(viewer, custom_id=nav(viewer)["next"]["custom_id"])
        await who.click(viewer, custom_id=nav(viewer)["back"]["custom_id"])
    assert cogs.play._replay.CACHE.renders == 2  # steps 0 and 1, for both viewers and both ways


async def test_jump_to_the_biggest_steal(simcord_env, channel, players, game):
    ann = players[0]
    game_id, record = game
    size = max(n for _, n in steals(record))
    step = next(s for s, n in steals(record) if n == size)  # the first of the biggest

    viewer = (await ann.slash(channel, "steal replay", game=game_id)).response
    assert nav(viewer)["steal"]["label"] == "Biggest steal"
    await ann.click(viewer, custom_id=nav(viewer)["steal"]["custom_id"])

    assert f"Move {step} of {len(record['moves'])}" in head(viewer)
    assert " stole " in move_text(viewer) and f"{size} cards" in move_text(viewer)
    assert nav(viewer)["steal"]["disabled"]  # already there


async def test_old_buttons_work_after_a_restart(
    simcord_env, channel, players, game, db_path, monkeypatch
):
    ann = players[0]
    game_id, record = game
    viewer = (await ann.slash(channel, "steal replay", game=game_id)).response
    forward = nav(viewer)["next"]["custom_id"]

    await simcord_env.restart_bot(make_bot(db_path))
    # Nothing kept from before: the id and the database only.
    monkeypatch.setattr(cogs.play._replay, "CACHE", ReplayCache())

    await ann.click(viewer, custom_id=forward)
    assert f"Move 1 of {len(record['moves'])}" in head(viewer)
    assert [a.filename for a in viewer.attachments] == [f"replay-{game_id}-1.png"]


async def test_the_history_replay_button_opens_the_viewer(simcord_env, channel, players, game):
    ann = players[0]
    game_id, _ = game
    history = (await ann.slash(channel, "steal history")).response

    opened = await ann.click(history, label=f"Replay #{game_id}")

    assert opened.ephemeral
    assert head(opened.response).startswith(f"## Replay of game #{game_id}\nMove 0 of ")
    assert history.embeds  # the history stays as it was


async def test_another_servers_game_is_refused(simcord_env, channel, game):
    game_id, _ = game
    elsewhere = simcord_env.create_guild()
    room = elsewhere.create_text_channel("games")
    stranger = elsewhere.add_member(simcord_env.create_user("eve"))

    asked = await stranger.slash(room, "steal replay", game=game_id)
    crafted = bot_message(simcord_env, room, [ids.replay(game_id, 3, "next")])
    clicked = await stranger.click(crafted, custom_id=ids.replay(game_id, 3, "next"))

    assert asked.ephemeral and asked.response.content == UNKNOWN
    assert clicked.response.content == UNKNOWN
    assert crafted.content == "crafted"  # nothing of the game was shown


async def test_a_step_past_the_end_shows_the_end_and_no_game_yet_is_explained(
    simcord_env, channel, players, game
):
    ann, _, cat = players[:3]
    game_id, record = game
    crafted = bot_message(simcord_env, channel, [ids.replay(game_id, 10**17)])
    opened = await ann.click(crafted, custom_id=ids.replay(game_id, 10**17))
    last = len(record["moves"])
    assert f"Move {last} of {last}" in head(opened.response)

    none = await cat.slash(channel, "steal replay")
    assert plain(none.response.content) == (
        "You haven't finished a game here yet. Start one with /steal new; afterwards you can"
        " replay it."
    )
