"""What the session reports to the instruments it is given (bot/metrics.py `Instruments`):
an AI seat's thinking is timed, a person's seat is not."""

from __future__ import annotations

from bot.metrics import Quiet

from .conftest import CHANNEL, GUILD, RULES, wait_for


class Recorder(Quiet):
    def __init__(self) -> None:
        self.thoughts: list[float] = []

    def on_think(self, seconds: float) -> None:
        self.thoughts.append(seconds)


async def test_an_ai_seats_thinking_is_reported_once_a_move(make, clock):
    recorded = Recorder()
    s = make(
        bot_delay=2,
        turn_seconds=None,
        seed_source=lambda: 12344,
        instruments=recorded,
        clock=clock.now,
    )
    await s.open_lobby(GUILD, CHANNEL, "a", RULES, 2, bots=["easy"])
    table = await s.start(CHANNEL, "a")
    assert table.turn == 1  # with this seed the bot opens
    await clock.advance(2)  # its bot delay
    await wait_for(lambda: table.version >= 1)
    assert len(recorded.thoughts) == 1 and recorded.thoughts[0] >= 0.0
