import asyncio
import re
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import pytest

from bot.domain.options import Options
from bot.engine import preset
from bot.session import Sessions
from bot.session.events import Closed, Event
from bot.storage import Storage
from tests.storage.outage import Outage
from tests.support.clock import VirtualClock, until

GUILD, CHANNEL = 1, 10
RULES = preset("standard")


@pytest.fixture
async def storage(tmp_path: Path):
    s = await Storage.open(tmp_path / "s.db")
    yield s
    await s.close()


def kind_of(event: Event) -> str:
    """An event's kind as a word: its class's (GameOver: game_over), a closing's reason."""
    if isinstance(event, Closed):
        return event.reason
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(event).__name__).lower()


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, int, Event]] = []

    async def __call__(self, event: Event) -> None:
        self.calls.append((kind_of(event), event.game_id, event))

    def kinds(self) -> list[str]:
        return [c[0] for c in self.calls]


@pytest.fixture
def notes() -> Recorder:
    return Recorder()


def with_options(kwargs: dict) -> Options:
    """The Options fields among `kwargs`, taken out of it, as one Options value."""
    names = {f.name for f in fields(Options)}
    return Options(**{k: kwargs.pop(k) for k in list(kwargs) if k in names})


@pytest.fixture
async def make(storage, notes):
    """make(**options) -> Sessions on the test storage; all are closed at the end."""
    made: list[Sessions] = []

    def factory(**options) -> Sessions:
        options.setdefault("turn_seconds", None)
        options.setdefault("notify", notes)
        options.setdefault("seed_source", lambda: 12345)
        s = Sessions(storage, options=with_options(options), **options)
        made.append(s)
        return s

    yield factory
    for s in made:
        await s.close()


@pytest.fixture
async def clock():
    """The running loop on virtual time, still until `clock.advance` (tests/support/clock.py);
    hand `clock=clock.now` to `make` so the sessions' deadlines are on it too."""
    virtual = VirtualClock(asyncio.get_running_loop())
    virtual.install()
    yield virtual
    virtual.uninstall()


async def wait_for(cond: Callable[[], bool], timeout: float = 10.0) -> None:
    """Until `cond()` holds: what a move or timer set off, on the database's thread."""
    await until(cond, timeout)


async def table_for(sessions: Sessions, players=("a", "b")):
    """A started game in CHANNEL with these players, hosted by the first."""
    await sessions.open_lobby(GUILD, CHANNEL, players[0], RULES)
    for p in players[1:]:
        await sessions.join(CHANNEL, p)
    return await sessions.start(CHANNEL, players[0])


async def play_turn(sessions: Sessions, game_id: int):
    """The player to act plays their first legal move."""
    table = sessions.table(game_id)
    user = table.seats[table.turn]
    hand = await sessions.hand(game_id, user)
    return await sessions.play(game_id, user, hand.legal[0], hand.version)


@pytest.fixture
async def outage(storage):
    """The test's storage failing for real during chosen calls (tests/storage/outage.py)."""
    return await Outage(storage).install()
