"""The REST governor (bot/adapter/governor.py): one budget for the bot's requests, shared by
its processes, most urgent first. On virtual time (bench/virtual_time.py): the same loop, the
same timers, only the clock jumps instead of waiting."""

from __future__ import annotations

import asyncio
import bisect
from typing import Any

import discord
from discord.http import HTTPClient, Route

from bench.virtual_time import VirtualLoop
from bot import metrics
from bot.adapter import governor as rest
from bot.adapter.governor import Governor, Priority


def virtual(main: Any) -> Any:
    with asyncio.Runner(loop_factory=VirtualLoop) as runner:
        return runner.run(main)


def most_in_a_second(times: list[float]) -> int:
    times = sorted(times)
    return max(bisect.bisect_left(times, t + 1.0) - i for i, t in enumerate(times))


async def flood(governor: Governor, requests: int, granted: list[float]) -> None:
    async def one() -> None:
        await governor.acquire(Priority.TABLE)
        granted.append(asyncio.get_running_loop().time())

    await asyncio.gather(*(one() for _ in range(requests)))


def test_two_processes_sharing_one_budget_stay_within_it_together():
    async def main() -> tuple[list[float], list[float]]:
        # SHARD_COUNT=4: one process runs shards 0,1, the other 2,3 (docs/operations.md).
        first = Governor(rest.share(50, 2, 4))
        second = Governor(rest.share(50, 2, 4))
        a: list[float] = []
        b: list[float] = []
        # Both flooded at once: 1,000 requests each, far beyond what 10 seconds allow.
        await asyncio.gather(flood(first, 1000, a), flood(second, 1000, b))
        return a, b

    a, b = virtual(main())
    both = a + b
    assert most_in_a_second(both) <= 50  # Discord's global limit, never exceeded together
    assert most_in_a_second(a) <= 25 and most_in_a_second(b) <= 25  # each its half
    # And the budget is used, not wasted: 2,000 requests take about 2,000 / 45 s (the burst
    # aside, each refills at 22.5 a second).
    span = max(both) - min(both)
    assert 40 < span < 46


def test_a_raised_global_rate_raises_the_budget():
    async def main() -> list[float]:
        granted: list[float] = []
        await flood(Governor(rest.share(500, 1, 1)), 3000, granted)
        return granted

    granted = virtual(main())
    assert 450 <= most_in_a_second(granted) <= 500


def test_what_a_game_owes_goes_first_then_pings_then_tables():
    async def main() -> list[str]:
        governor = Governor(10)
        order: list[str] = []

        async def one(level: Priority, name: str) -> None:
            await governor.acquire(level)
            order.append(name)

        # The burst is spent: everything after it waits, and is granted by priority.
        await asyncio.gather(*(one(Priority.TABLE, "burst") for _ in range(1)))
        tasks = [asyncio.create_task(one(Priority.TABLE, f"table {i}")) for i in range(3)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(one(Priority.PING, "ping")))
        tasks.append(asyncio.create_task(one(Priority.OWED, "end screen")))
        await asyncio.sleep(0)
        await asyncio.gather(*tasks)
        return order

    assert virtual(main()) == ["burst", "end screen", "ping", "table 0", "table 1", "table 2"]


def test_a_busy_server_cannot_starve_quiet_ones():
    """Within a priority, the budget goes round the servers whose requests wait: a quiet
    server's table edit waits one turn of the servers, not behind every edit of a busy one."""

    async def main() -> list[str]:
        governor = Governor(10)
        order: list[str] = []

        async def one(server: int | None, name: str) -> None:
            with rest.serving(server):
                await governor.acquire(Priority.TABLE)
            order.append(name)

        await one(1, "burst")  # the burst is spent: everything after it waits
        tasks = [asyncio.create_task(one(1, f"busy {i}")) for i in range(50)]
        await asyncio.sleep(0)
        tasks += [asyncio.create_task(one(server, f"quiet {server}")) for server in (2, 3)]
        tasks.append(asyncio.create_task(one(None, "untagged")))  # a server of its own
        await asyncio.sleep(0)
        await asyncio.gather(*tasks)
        return order

    order = virtual(main())
    assert order[:8] == ["burst", "busy 0", "quiet 2", "quiet 3", "untagged", "busy 1",
                         "busy 2", "busy 3"]  # fmt: skip
    assert order[8:] == [f"busy {i}" for i in range(4, 50)]  # each server's in its order


def test_a_cancelled_wait_leaves_its_servers_turn():
    async def main() -> list[str]:
        governor = Governor(10)
        order: list[str] = []

        async def one(server: int, name: str) -> None:
            with rest.serving(server):
                await governor.acquire(Priority.TABLE)
            order.append(name)

        await one(1, "burst")
        gone = asyncio.create_task(one(2, "cancelled"))
        later = [asyncio.create_task(one(s, f"server {s}")) for s in (1, 3)]
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.gather(*later)
        assert not governor.waiting()
        return order

    assert virtual(main()) == ["burst", "server 1", "server 3"]


class Wire:
    """discord.py's HTTPClient.request, as the governor sees it: who went, when."""

    def __init__(self) -> None:
        self.sent: list[tuple[float, str]] = []

    async def request(self, route: Route, **_: Any) -> dict[str, Any]:
        self.sent.append((asyncio.get_running_loop().time(), route.key))
        return {}


def test_interaction_routes_pass_at_once_and_bot_routes_wait():
    app_id = 42

    async def main() -> tuple[list[tuple[float, str]], float]:
        wire = Wire()
        governor = Governor(10)  # a burst of 1, then 9 a second
        request = governor.wrap(wire.request, lambda: app_id)
        edits = [
            request(Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                          channel_id=1, message_id=i))
            for i in range(10)
        ]  # fmt: skip
        answers = [
            request(Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                          interaction_id=1, interaction_token="t")),
            request(Route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                          webhook_id=app_id, webhook_token="t")),
        ]  # fmt: skip
        started = asyncio.get_running_loop().time()
        await asyncio.gather(*edits, *answers)
        return wire.sent, started

    sent, started = virtual(main())
    interactions = [t for t, key in sent if "interactions" in key or "webhooks" in key]
    edits = [t for t, key in sent if key.startswith("PATCH /channels")]
    assert interactions == [started, started]  # not held back by the ten edits
    assert len(edits) == 10 and edits[-1] - started > 0.9  # the edits were paced


def test_a_table_waits_for_its_turn_before_it_is_drawn():
    """What waits is the table's turn, not a drawn edit: a change made meanwhile goes in the
    same edit, which is never queued behind an older one."""

    async def main() -> list[tuple[str, int]]:
        wire = Wire()
        http: Any = type("Http", (), {})()
        governor = Governor(10)
        http.request = governor.wrap(wire.request, lambda: None)
        http.governor = governor
        client = type("Client", (), {"http": http})()
        version = {"n": 0}
        shown: list[tuple[str, int]] = []
        await governor.acquire(Priority.OTHER)  # the burst is spent: the table must wait

        async def worker() -> None:
            async with rest.turn(client, Priority.TABLE, table=7):
                drawn = version["n"]  # drawn once its turn came
                await http.request(Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                                         channel_id=1, message_id=2))  # fmt: skip
                shown.append(("edit", drawn))

        task = asyncio.create_task(worker())
        await asyncio.sleep(0.01)
        version["n"] = 3  # three moves while the table waited
        await task
        return shown

    assert virtual(main()) == [("edit", 3)]


def test_an_unspent_turn_is_given_back():
    async def main() -> float:
        governor = Governor(10)
        client: Any = type("Client", (), {})()
        client.http = type("Http", (), {"governor": governor})()
        before = governor.tokens
        async with rest.turn(client, Priority.TABLE):
            pass  # nothing sent (the game had ended meanwhile, say)
        return governor.tokens - before

    assert virtual(main()) == 0


def test_installed_on_discord_py_every_bot_request_waits_its_turn():
    """On discord.py's own HTTPClient: its request is wrapped on the instance, so everything
    the library sends with the bot's token passes the budget."""

    async def main() -> list[float]:
        http = HTTPClient(asyncio.get_running_loop())
        wire = Wire()
        http.request = wire.request  # type: ignore[method-assign]  # the network, stood in for
        rest.install(http, 5)
        assert rest.of(type("Client", (), {"http": http})()) is http.governor  # type: ignore[attr-defined]
        await asyncio.gather(*(http.delete_message(1, i) for i in range(8)))
        return [t for t, _ in wire.sent]

    sent = virtual(main())
    assert len(sent) == 8 and most_in_a_second(sent) <= 5


def test_waiting_requests_are_a_metric():
    async def main() -> tuple[float, float]:
        governor = Governor(10)
        await governor.acquire(Priority.OTHER)
        tasks = [asyncio.create_task(governor.acquire(Priority.PING)) for _ in range(4)]
        await asyncio.sleep(0)
        waiting = metrics.REGISTRY.get_sample_value("steal_rest_waiting", {"priority": "ping"})
        await asyncio.gather(*tasks)
        after = metrics.REGISTRY.get_sample_value("steal_rest_waiting", {"priority": "ping"})
        return waiting or 0.0, after or 0.0

    assert virtual(main()) == (4.0, 0.0)


def test_a_429_is_counted_with_its_route_and_scope(caplog):
    from bot.adapter import traffic

    route = "POST /channels/{id}/messages"
    before = (
        metrics.REGISTRY.get_sample_value(
            "steal_discord_429_total", {"route": route, "scope": "global"}
        )
        or 0.0
    )
    invalid = (
        metrics.REGISTRY.get_sample_value("steal_discord_invalid_requests_total", {"status": "429"})
        or 0.0
    )
    headers = {"X-RateLimit-Scope": "global", "X-RateLimit-Global": "true"}
    traffic.record("POST", "/api/v10/channels/123456789012345678/messages", 429, headers, None)
    after = metrics.REGISTRY.get_sample_value(
        "steal_discord_429_total", {"route": route, "scope": "global"}
    )
    assert after == before + 1
    assert (
        metrics.REGISTRY.get_sample_value("steal_discord_invalid_requests_total", {"status": "429"})
        == invalid + 1
    )
    assert "429" in caplog.text and route in caplog.text and "global" in caplog.text
    # A resource's own limit (scope shared) is not held against the bot.
    traffic.record("POST", "/api/v10/channels/1234567890123456/messages", 429,
                   {"X-RateLimit-Scope": "shared"}, None)  # fmt: skip
    assert (
        metrics.REGISTRY.get_sample_value("steal_discord_invalid_requests_total", {"status": "429"})
        == invalid + 1
    )


def test_the_routes_of_an_interaction_are_told_apart():
    from bot.adapter import traffic

    assert traffic.kind_of("/api/v10/interactions/1/tok/callback", 9) == "interaction"
    assert traffic.kind_of("/api/v10/webhooks/9/tok/messages/@original", 9) == "interaction"
    assert traffic.kind_of("/api/v10/webhooks/8/tok", 9) == "global"  # someone else's webhook
    assert traffic.kind_of("/api/v10/channels/1/messages", 9) == "global"
    path = "/api/v10/webhooks/123456789012345678/a.b-c/messages/@original"
    assert metrics.route_of("PATCH", path) == "PATCH /webhooks/{id}/{token}/messages/@original"
    assert discord.__version__.startswith("2.")


EXEMPT = ("/interactions/", "/webhooks/")


def test_the_presenter_tags_what_it_sends(tmp_path):
    """The presenter's worker says how urgent each call is: table edits, turn pings (and the
    old ping's deletion), and what a game owes once it ends. Seen at Discord's side, through
    discord.py and the governor, on the stand-in of bench/rate_limits.py."""
    import argparse

    from bench import rate_limits as bench
    from bot.app import build
    from bot.domain.options import Options

    async def main() -> list[tuple[str, str]]:
        loop = asyncio.get_running_loop()
        wire = bench.Discord(50)
        seen: list[tuple[str, str]] = []
        answer = wire.request

        def request(method: str, url: str, **kwargs: Any) -> Any:
            seen.append((metrics.route_of(method, url.split("/api/v10", 1)[1]),
                         rest.PRIORITY.get().name))  # fmt: skip
            return answer(method, url, **kwargs)

        wire.request = request  # type: ignore[method-assign]
        client = bench.client_on(wire, True, 50)
        options = Options(seed_source=lambda: 7, turn_seconds=None, bot_delay=0.0)
        app = await build(tmp_path / "bot.db", client, options, clock=loop.wall)
        # No click's token to send through: the table edits and pings take the bot token.
        app.presenter.worker._table_voice = lambda ch: None  # type: ignore[method-assign]
        app.presenter.worker._voice = lambda ch: None  # type: ignore[method-assign]
        args = argparse.Namespace(
            rules="standard", pace=(1.0, 1.0), seed=3, closed=1.0, long=0.0
        )  # hands closed
        players = bench.Bench(app, wire, args, 1)
        players.rng.randint = lambda a, b: 2  # two seats, both people
        game_id = await players.open_game(0)
        await players.play(game_id)  # to the end
        await bench.idle(app, 60)
        await app.close()
        return seen

    # The interaction routes (clicks' answers, webhooks) are exempt: the budget tags only the rest.
    seen = [(r, p) for r, p in virtual(main()) if not r.split(" ")[1].startswith(EXEMPT)]
    edit, post = "PATCH /channels/{id}/messages/{id}", "POST /channels/{id}/messages"
    delete = "DELETE /channels/{id}/messages/{id}"
    assert (edit, "TABLE") in seen and (post, "PING") in seen and (delete, "PING") in seen
    assert seen[-1] == (edit, "OWED") or (edit, "OWED") in seen[-3:]  # the end screen
    assert {level for _, level in seen} == {"TABLE", "PING", "OWED"}  # nothing untagged
