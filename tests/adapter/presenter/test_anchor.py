"""The anchor of a game only interaction tokens reach (bot/adapter/presenter/anchor.py), on
fakes: which token edits the table, when a fresher one reposts it, and the follow-up cap."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.adapter.presenter import anchor as anchor_module
from bot.adapter.presenter.anchor import MAX_FOLLOWUPS, REPOST_AT, Anchoring, Followups, Spent
from bot.adapter.presenter.channel import Channel
from bot.domain.place import Kind, Place
from bot.domain.values import AnchorToken
from bot.session.anchors import Anchors
from bot.ui import render

NOW = 1_000_000.0
GROUP_DM = Place(Kind.PRIVATE, None, 50, bot_member=False)


class Gone(discord.HTTPException):
    def __init__(self, status: int) -> None:
        self.status, self.code, self.text = status, 0, "gone"


class FakeHook:
    def __init__(self, calls: list[tuple[str, str, Any]], token: str, gone: set[str]) -> None:
        self.calls, self.token, self.gone = calls, token, gone

    async def edit(self, message: int | None, **fields: Any) -> None:
        self.calls.append((self.token, "edit", message))
        if self.token in self.gone:
            raise Gone(404)

    async def post(self, **fields: Any) -> int:
        self.calls.append((self.token, "post", None))
        if self.token in self.gone:
            raise Gone(401)
        return 900 + len(self.calls)


class FakeHands:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str, Any]] = []
        self.live: list[tuple[str, float]] = []
        self.gone: set[str] = set()  # tokens Discord refuses before their time

    def webhooks(self, token: str) -> FakeHook:
        return FakeHook(self.calls, token, self.gone)

    def voices(self, game_id: int) -> list[tuple[str, float]]:
        return self.live


class FakeMessages:
    def __init__(self) -> None:
        self.kept: list[AnchorToken] = []

    async def keep_anchor(self, anchor: AnchorToken) -> None:
        self.kept.append(anchor)

    async def anchors(self) -> list[AnchorToken]:
        return self.kept[-1:]


class FakeSessions:
    def __init__(self) -> None:
        self.anchors = Anchors(lambda: NOW)
        self.game_messages = FakeMessages()
        self.paused: list[int] = []

    async def keep_messages(self, game_id: int, **ids: int | None) -> None:
        pass

    def pause(self, game_id: int) -> bool:
        self.paused.append(game_id)
        return True


@pytest.fixture
def world(monkeypatch):
    monkeypatch.setattr(anchor_module, "now", lambda: NOW)
    sessions, hands = FakeSessions(), FakeHands()
    ch = Channel(7, 50, 50, table_id=100, place=GROUP_DM)
    anchoring = Anchoring(sessions, {7: ch}, hands, Followups(), lambda ch: None)  # type: ignore[arg-type]
    return anchoring, ch, hands, sessions


MESSAGE = render.Message(content="the table")


def test_no_token_sends_a_sixth_followup():
    counted = Followups()
    for _ in range(MAX_FOLLOWUPS):
        counted.take("t")
    with pytest.raises(Spent):
        counted.take("t")
    assert counted.left("t") == 0 and counted.left("other") == MAX_FOLLOWUPS


async def test_a_young_anchor_edits_the_table_itself(world):
    anchoring, ch, hands, _ = world
    anchoring.hold(ch, AnchorToken(7, "start", None, NOW + 800))
    hands.live = [("move", NOW + 840)]  # fresher, but the anchor has long to live
    await anchoring.put(ch, MESSAGE)
    assert hands.calls == [("start", "edit", None)] and ch.table_id == 100


async def test_an_old_anchor_hands_the_table_to_a_moves_fresher_token(world):
    anchoring, ch, hands, sessions = world
    anchoring.hold(ch, AnchorToken(7, "start", None, NOW + REPOST_AT - 1))
    hands.live = [("move", NOW + 840)]
    await anchoring.put(ch, MESSAGE)
    # The move's token posts the table; the old one, through its own token, links to it.
    assert hands.calls == [("move", "post", None), ("start", "edit", None)]
    assert ch.anchor is not None and ch.anchor.token == "move" and ch.anchor.message_id == 901
    assert ch.table_id == 901 and anchoring.followups.left("move") == MAX_FOLLOWUPS - 1
    assert sessions.anchors.alive(7)
    await asyncio.sleep(0)  # the anchor is stored for a restart, with its follow-ups so far
    assert sessions.game_messages.kept[-1].followups == 1


async def test_a_spent_token_never_reposts_and_nothing_uses_the_bot_token(world):
    anchoring, ch, hands, _ = world
    anchoring.hold(ch, AnchorToken(7, "start", None, NOW + 30))  # about to die
    hands.live = [("move", NOW + 840)]
    for _ in range(MAX_FOLLOWUPS):
        anchoring.followups.take("move")
    await anchoring.put(ch, MESSAGE)
    assert hands.calls == [("start", "edit", None)]  # the dying anchor, still alive
    assert await anchoring.send(ch, content="ping") is not None  # the anchor's own follow-up
    assert hands.calls[-1] == ("start", "post", None)


async def test_with_no_fresher_token_the_game_pauses_and_says_so(world):
    anchoring, ch, _, sessions = world
    ch.table = type("T", (), {"game": type("G", (), {"over": False})()})()  # type: ignore[assignment]
    dying = AnchorToken(7, "start", None, NOW + 30)
    anchoring.hold(ch, dying)
    anchoring._pause(ch, dying)
    assert sessions.paused == [7] and ch.paused and ch.dirty and 7 in anchoring.paused
    assert "⏸" in ch.log[-1]


async def test_an_anchor_gone_early_hands_over_to_a_live_token(world):
    anchoring, ch, hands, sessions = world
    anchoring.hold(ch, AnchorToken(7, "start", None, NOW + 800))
    hands.gone = {"start", "dead"}
    hands.live = [("move", NOW + 700), ("dead", NOW + 840)]
    await anchoring.put(ch, MESSAGE)
    # The anchor's edit failed (404): a fresher token reposts; one that fails too is passed over.
    assert hands.calls == [("start", "edit", None), ("dead", "post", None), ("move", "post", None)]
    assert ch.anchor is not None and ch.anchor.token == "move"
    assert anchoring.followups.left("dead") == 0 and sessions.anchors.alive(7)


async def test_with_nothing_left_to_show_it_the_game_pauses(world):
    anchoring, ch, hands, sessions = world
    ch.table = type("T", (), {"game": type("G", (), {"over": False})()})()  # type: ignore[assignment]
    anchoring.hold(ch, AnchorToken(7, "start", None, NOW + 800))
    hands.gone = {"start"}
    await anchoring.put(ch, MESSAGE)
    assert ch.anchor is None and not sessions.anchors.alive(7)
    assert sessions.paused == [7] and ch.paused


async def test_a_followup_through_the_anchor_is_stored_with_its_count(world):
    """A restart reads the anchor's count back: it must count the follow-ups sent since it
    became the anchor, or the restarted bot could send a sixth."""
    anchoring, ch, _, sessions = world
    anchoring.hold(ch, AnchorToken(7, "start", None, NOW + 800))
    await asyncio.sleep(0)
    assert sessions.game_messages.kept[-1].followups == 0
    await anchoring.send(ch, content="ping")
    await anchoring.send(ch, content="ping")
    await asyncio.gather(*anchoring.jobs)
    assert sessions.game_messages.kept[-1].followups == 2


async def test_the_anchors_count_is_stored_before_its_followup_goes(world):
    """A restart between the follow-up and the store of its count would read one follow-up
    too few, and the restarted bot could try a sixth: the count is stored first."""
    anchoring, ch, _, sessions = world
    anchoring.hold(ch, AnchorToken(7, "start", None, NOW + 800))
    await asyncio.gather(*anchoring.jobs)
    seen: list[int] = []
    post = FakeHook.post

    async def posted(hook: FakeHook, **fields: Any) -> int:
        seen.append(sessions.game_messages.kept[-1].followups)  # stored when it goes
        return await post(hook, **fields)

    FakeHook.post = posted  # type: ignore[method-assign]
    try:
        await anchoring.send(ch, content="ping")
        await anchoring.send(ch, content="ping")
    finally:
        FakeHook.post = post  # type: ignore[method-assign]
    assert seen == [1, 2]


async def test_after_a_restart_a_hand_token_whose_count_was_lost_sends_no_followup(world):
    """Hand tokens' follow-up counts live in memory only: restored, each may already have
    sent five, so only the anchor (its count stored) and later clicks send follow-ups."""
    anchoring, ch, hands, sessions = world
    sessions.game_messages.kept.append(AnchorToken(7, "start", None, NOW + 800, followups=3))
    hands.live = [("hand", NOW + 840)]  # read back with the open hands
    await anchoring.restore({7})
    for _ in range(2):
        assert await anchoring.send(ch, content="ping") is not None
    assert await anchoring.send(ch, content="ping") is None  # the anchor's five are sent
    assert [call[0] for call in hands.calls] == ["start", "start"]
