"""The table message as players see it: one Components V2 card with the table's picture, its
accent colour for whose turn it is, under it only whose turn and the last move, what the
picture shows in its description (alt text), and its buttons; a picture that fails to upload
still leaves a readable table (its facts in words); edits coalesced to about one a second."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.adapter.presenter import Channel, Presenter
from bot.adapter.presenter.channel import LOG_KEEP
from bot.ui.table import SEAT_COLOURS
from tests.e2e.support.helpers import (
    V2,
    accent,
    alt_text,
    buttons,
    description,
    fields,
    images,
    labels,
    pool_cards,
    start_game,
    table_text,
    texts,
    whose_turn,
)
from tests.e2e.support.play import (
    SLOWER,
    by_bot_token,
    choose,
    game_id_of,
    open_hand,
    quick,
    slower_retries,
    stored_moves,
    table_patches,
)


async def test_the_table_is_one_v2_card_with_its_picture_colour_and_words(
    simcord_env, channel, players
):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])

    assert table.flags.value & V2
    assert [a.filename for a in table.attachments] == ["table.png"]
    assert table.attachments[0].size > 1000  # a real picture
    assert images(table) == ["table.png"]
    first = whose_turn(table, [ann, bob])
    seat = [ann, bob].index(first)
    assert accent(table) == SEAT_COLOURS[seat].value  # the colour of the seat to play
    # The words say what the picture cannot: whose turn and its countdown.
    turn = description(table)
    assert f"Turn: **{first.name}** · auto-play <t:" in turn and ":R>" in turn
    assert "Pool:" not in table_text(table) and f"**{second_of(first, ann, bob).name}**" not in (
        table_text(table)
    )
    # Its description says what it shows: the pool, each seat, in plain words.
    alt = alt_text(table).splitlines()
    assert alt[0] == f"Steal the Bundle · Turn: {first.name}"
    assert len(pool_cards(table)) == 4 and alt[1].startswith("Pool: ")
    assert alt[2:] == [f"{p.name} · Bundle: empty · Hand: 4 cards" for p in (ann, bob)]
    assert labels(table) == ["My hand", "Rules"]

    await choose(first, await open_hand(first, table))

    second = whose_turn(table, [ann, bob])
    assert second is not first
    assert accent(table) == SEAT_COLOURS[1 - seat].value
    assert [a.filename for a in table.attachments] == ["table.png"]  # one picture, replaced
    (move,) = fields(table)["Last moves"].splitlines()
    assert move.startswith(first.name)
    assert texts(table)[1] == f"-# {move}"  # and in words, under the picture


def second_of(first, *two):
    return next(p for p in two if p is not first)


async def test_the_tables_picture_is_drawn_once_for_every_repost(simcord_env, channel, players):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])
    pictures = simcord_env.bot.app.presenter.drawing.pictures
    drawn = pictures.renders

    first = await ann.slash(channel, "steal table")
    again = await bob.slash(channel, "steal table")

    assert pictures.renders == drawn  # the same game version: the cached picture
    assert images(again.response) == ["table.png"] and len(again.response.attachments) == 1
    for old in (table, first.response):  # each older table became a link, without a picture
        assert description(old).startswith("The table moved: ") and old.attachments == []


async def test_a_failed_picture_upload_leaves_a_readable_table(
    simcord_env, channel, players, monkeypatch
):
    slower_retries(monkeypatch)  # the retry fires on advance_time only
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])
    first = whose_turn(table, [ann, bob])
    second = bob if first is ann else ann
    hand = await open_hand(first, table)
    by_bot_token(simcord_env, table)
    simcord_env.inject_error("PATCH", f"/channels/{channel.id}/messages/{table.id}", times=1)

    await choose(first, hand)
    assert whose_turn(table, [ann, bob]) is first  # the edit with the picture failed
    await simcord_env.advance_time(SLOWER * 0.6)  # the retry: the table in words alone

    assert whose_turn(table, [ann, bob]) is second
    assert images(table) == [] and table.attachments == []
    assert len(fields(table)["Last moves"].splitlines()) == 1
    assert len(pool_cards(table)) >= 1 and labels(table) == ["My hand", "Rules"]
    assert f"**{ann.name}**" in table_text(table) and f"**{bob.name}**" in table_text(table)

    await choose(second, await open_hand(second, table))  # the next edit has its picture again
    assert images(table) == ["table.png"] and len(table.attachments) == 1


async def test_the_presenters_work_starts_once_the_click_is_answered():
    """A move's table edit, ping and hands wait for the handler that played it to return (its
    answer sent), so they never delay the answer. (SimCord answers a click without yielding,
    so this is checked on the presenter itself; bench/moves.py measures what it saves.)"""
    presenter = Presenter(None, None)  # type: ignore[arg-type]  # no call reaches either
    ch = Channel(1, 2, 3)
    flushed: list[Channel] = []

    async def flush(c: Channel) -> None:
        flushed.append(c)

    presenter.worker._flush = flush  # type: ignore[method-assign]

    async def handler() -> None:  # a click: watch() marks its task, the move kicks the worker
        presenter.answering(asyncio.current_task())
        tasks = len(asyncio.all_tasks())
        presenter.worker.kick(ch)
        for _ in range(5):  # the answer's round trip to Discord
            await asyncio.sleep(0)
        assert flushed == []
        # Not even its task yet: made in the click, it and its first step ran in the click.
        assert len(asyncio.all_tasks()) == tasks and not isinstance(ch.worker, asyncio.Task)

    await asyncio.create_task(handler())
    assert ch.worker is not None
    await ch.worker
    assert flushed == [ch]


async def test_tables_are_drawn_once_the_other_clicks_are_answered():
    """A burst of moves in many games: every click is answered before any table is drawn."""
    presenter = Presenter(None, None)  # type: ignore[arg-type]  # no call reaches either
    ch = Channel(1, 2, 3)
    flushed: list[Channel] = []

    async def flush(c: Channel) -> None:
        flushed.append(c)

    presenter.worker._flush = flush  # type: ignore[method-assign]
    release = asyncio.Event()

    async def other_click() -> None:  # another game's click, still being answered
        presenter.answering(asyncio.current_task())  # type: ignore[arg-type]
        await release.wait()

    other = asyncio.create_task(other_click())
    await asyncio.sleep(0)
    presenter.worker.kick(ch)
    for _ in range(5):
        await asyncio.sleep(0)
    assert flushed == []
    release.set()
    await other
    assert ch.worker is not None
    await ch.worker
    assert flushed == [ch]


# Time is scaled up (an AI move every 10 s, an edit every 50 s) and the whole test runs with
# a 2.5 s settle timeout (`quick`): no bot timer is then waited out in real time, and each
# step settles well within it on a loaded machine.
@pytest.mark.bot_options(bot_delay=10.0, away_delay=10.0, edit_gap=50.0)
async def test_fast_ai_seats_edit_the_table_once_an_edit_gap(simcord_env, channel, players):
    ann = players[0]
    with quick(simcord_env, 2.5):
        lobby = (await ann.slash(channel, "steal new", bots=3)).response
        await ann.click(lobby, label="Start")
        by_bot_token(simcord_env, lobby)  # its edits counted where they go
        asked = await ann.slash(channel, "steal forfeit")  # every seat now plays by itself
        await ann.click(asked.response, label="Yes, forfeit")
        game_id = game_id_of(lobby)
        started = simcord_env.now().timestamp()
        moves, edits = (
            len(await stored_moves(simcord_env, game_id)),
            table_patches(simcord_env, channel, lobby.id),
        )
        for _ in range(20):  # a step an AI move
            await simcord_env.advance_time(10)

    seconds = simcord_env.now().timestamp() - started
    played = len(await stored_moves(simcord_env, game_id)) - moves
    edited = table_patches(simcord_env, channel, lobby.id) - edits
    assert played >= 12, played  # a move every 10 s
    assert 1 <= edited <= seconds / 50 + 1, (edited, seconds, played)  # one every 50 s
    assert not [b for b in buttons(lobby) if b.get("disabled")]


def test_the_move_log_says_every_move_marked_in_order_when_read():
    """A move's click only marks its log line (Intake.moved); the table's log says them all,
    in order, when it is read, and a log set anew (rebuilt from storage) drops the marks."""
    ch = Channel(1, 2, 3)
    said: list[str] = []

    def move(n: int) -> Callable[[], list[str]]:
        def say() -> list[str]:
            said.append(f"move {n}")
            return [f"move {n}", f"move {n} refilled"]

        return say

    ch.unsaid += [move(1), move(2)]
    assert said == []  # nothing put in words until read
    assert ch.log == ["move 1", "move 1 refilled", "move 2", "move 2 refilled"]
    ch.unsaid.append(move(3))
    assert ch.log[-2:] == ["move 3", "move 3 refilled"] and said == ["move 1", "move 2", "move 3"]
    ch.unsaid += [move(n) for n in range(4, 30)]
    assert len(ch.log) == LOG_KEEP and ch.log[-1] == "move 29 refilled"
    ch.unsaid.append(move(30))
    ch.log = ["rebuilt"]
    assert ch.log == ["rebuilt"] and "move 30" not in said
