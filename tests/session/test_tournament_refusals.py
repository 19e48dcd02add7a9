"""Tournament rules decided by the session, on both backends: a refusal says its reason (the
cogs only render it), managers' actions are the session's to refuse, AI entrants follow the
server's AI setting, and the desk is handed to Sessions when it is made."""

from __future__ import annotations

import pytest

from bot.domain.server_settings import defaults, make_settings
from bot.session import NotHost, SessionError, Sessions
from bot.session import events as ev
from bot.session.tournament import MANAGED, Refusal, Refused, allowed
from bot.storage import Storage

from .conftest import GUILD, with_options
from .tournament_world import CHANNEL, HOST, PEOPLE, World


@pytest.fixture
async def storage(database: str):
    s = await Storage.open(database, setting_defaults=defaults(make_settings()))
    yield s
    await s.close()


@pytest.fixture
async def world(storage):
    w = World(storage)
    yield w
    await w.s.close()


async def test_a_refusal_says_which_rule(world):
    ops = world.s.tournaments
    cup = await world.new()
    await ops.join(cup.id, PEOPLE[0], GUILD)
    with pytest.raises(Refused) as twice:
        await ops.join(cup.id, PEOPLE[0], GUILD)
    assert twice.value.reason is Refusal.ALREADY_JOINED
    assert twice.value.key == "tour.error.already_joined"  # what the cogs render
    with pytest.raises(Refused) as few:
        await ops.start(cup.id)
    assert few.value.reason is Refusal.TOO_FEW
    with pytest.raises(Refused) as elsewhere:
        await ops.get(cup.id, GUILD + 1)
    assert elsewhere.value.reason is Refusal.NOT_FOUND
    with pytest.raises(Refused) as busy:
        await world.new()  # a second open tournament in the same channel
    assert busy.value.reason is Refusal.ALREADY_OPEN


def test_a_managers_action_is_refused_to_anyone_else():
    for action in sorted(MANAGED):
        allowed(action, manager=True)
        with pytest.raises(NotHost) as refused:
            allowed(action, manager=False)
        assert refused.value.key == "tour.error.managers_only"
    assert {"create", "start", "cancel", "remove", "fill", "resume"} == MANAGED


async def test_no_ai_entrants_where_the_server_turned_ai_off(world, storage):
    """Before, the cog checked the setting and the session filled the tables regardless."""
    ops = world.s.tournaments
    cup = await world.new()
    await storage.settings.set(GUILD, "ai_allowed", False)
    with pytest.raises(SessionError) as off:
        await ops.fill_with_ai(cup.id, GUILD, 3, "easy")
    assert off.value.key == "reply.no_ai"
    assert await storage.tournaments.entrants(cup.id) == []
    await storage.settings.set(GUILD, "ai_allowed", True)
    assert await ops.fill_with_ai(cup.id, GUILD, 3, "easy") == 3


class Desk:
    """The adapter's desk, faked: it makes threads and hears what the tournament says."""

    def __init__(self) -> None:
        self.threads: list[tuple[int, int]] = []
        self.said: list[str] = []

    async def thread(self, row, round: int, table_no: int, entrants) -> int:
        self.threads.append((round, table_no))
        return 7000 + len(self.threads)

    async def announce(self, event: ev.TournamentEvent) -> None:
        self.said.append(type(event).__name__)


async def test_the_desk_is_handed_to_sessions_when_they_are_made(storage):
    desk = Desk()
    made_for: list[Sessions] = []

    def make(sessions: Sessions) -> Desk:
        made_for.append(sessions)
        return desk

    s = Sessions(
        storage, tournament_desk=make,
        options=with_options({"bot_delay": 0.0, "turn_seconds": None}),
    )  # fmt: skip
    try:
        assert made_for == [s]
        ops = s.tournaments
        cup = await ops.create(GUILD, CHANNEL, HOST, "Spring Cup", table_size=2)
        await ops.fill_with_ai(cup.id, GUILD, 4, "easy")
        await ops.start(cup.id)
        await ops.settle()
        assert desk.threads == [(1, 1), (1, 2)]
        assert "RoundStarted" in desk.said
    finally:
        await s.close()
