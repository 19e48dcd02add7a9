"""/metrics and /healthz on METRICS_PORT (bot/health.py): served by the real bot, fetched over
HTTP as Prometheus and a load balancer would, and the figures move when a game is played."""

from __future__ import annotations

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.config import ConfigError, load

# The SimCord fixtures: the real bot on a fresh database, a guild, a channel and players.
from tests.e2e.conftest import channel, close_bots, db_path, guild, players, simcord_bot
from tests.e2e.support.helpers import play_to_end, start_game

__all__ = ["channel", "close_bots", "db_path", "guild", "players", "simcord_bot"]

ENV = {"DISCORD_TOKEN": "x"}


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/metrics") as r:
        assert r.status == 200
        assert r.headers["Content-Type"].startswith("text/plain")
        text = await r.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def health(port: int) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/healthz") as r:
        return r.status, await r.json()


def figure(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.mark.bot_options(metrics_port=0)
async def test_metrics_and_health_answer_and_move_after_a_game(
    simcord_env, simcord_bot, channel, players
):
    port = simcord_bot.health.port
    assert port  # port 0: any free one, then told
    before = await scrape(port)
    assert figure(before, "steal_rest_budget_per_second") == 50.0  # one process, every shard

    table = await start_game(channel, players[:2])
    during = await scrape(port)
    assert figure(during, "steal_live_games", shard="0") == 1
    status, body = await health(port)
    assert status == 200
    assert body == {"ok": True, "gateway": True, "database": True, "shard_locks": True,
                    "shards": [0]}  # fmt: skip

    moves = await play_to_end(table, players[:2])
    after = await scrape(port)
    assert figure(after, "steal_live_games", shard="0") == 0
    played = figure(after, "steal_moves_total", by="player") - figure(
        before, "steal_moves_total", by="player"
    )
    assert played == moves
    for name in ("steal_click_seconds_count", "steal_render_seconds_count",
                 "steal_table_staleness_seconds_count"):  # fmt: skip
        assert figure(after, name) > figure(before, name), name


@pytest.mark.bot_options(metrics_port=0)
async def test_health_says_503_and_why_when_the_gateway_is_down(simcord_env, simcord_bot):
    port = simcord_bot.health.port
    simcord_bot.health.connected = lambda: False  # every shard's gateway lost
    status, body = await health(port)
    assert status == 503
    assert body["ok"] is False and body["gateway"] is False and body["database"] is True


@pytest.mark.bot_options(metrics_port=0)
async def test_health_says_503_when_the_database_does_not_answer(simcord_env, simcord_bot):
    port = simcord_bot.health.port

    async def broken() -> int:
        raise OSError("connection refused")

    simcord_bot.storage.schema_version = broken
    status, body = await health(port)
    assert status == 503 and body["database"] is False and body["gateway"] is True


@pytest.mark.bot_options(metrics_port=0)
async def test_metrics_and_health_listen_on_this_machine_only_by_default(simcord_env, simcord_bot):
    # No authentication guards them, so by default nobody else on the network may reach them.
    hosts = {address[0] for address in simcord_bot.health.runner.addresses}
    assert hosts == {"127.0.0.1"}
    status, _ = await health(simcord_bot.health.port)
    assert status == 200


@pytest.mark.bot_options(metrics_port=0, metrics_host="0.0.0.0")
async def test_metrics_host_widens_where_they_listen(simcord_env, simcord_bot):
    hosts = {address[0] for address in simcord_bot.health.runner.addresses}
    assert hosts == {"0.0.0.0"}  # every interface, as METRICS_HOST=0.0.0.0 asks
    status, _ = await health(simcord_bot.health.port)
    assert status == 200


def test_metrics_host_comes_from_the_environment():
    assert load(ENV, dotenv=None).metrics_host == "127.0.0.1"
    assert load({**ENV, "METRICS_HOST": " 0.0.0.0 "}, dotenv=None).metrics_host == "0.0.0.0"
    assert load({**ENV, "METRICS_HOST": "::"}, dotenv=None).metrics_host == "::"
    with pytest.raises(ConfigError, match="METRICS_HOST"):
        load({**ENV, "METRICS_HOST": "every interface"}, dotenv=None)


def test_metrics_port_and_global_rate_come_from_the_environment():
    assert load(ENV, dotenv=None).metrics_port is None  # opt-in: not served unless asked
    config = load({**ENV, "METRICS_PORT": "9108", "DISCORD_GLOBAL_RATE": "1200"}, dotenv=None)
    assert config.metrics_port == 9108 and config.global_rate == 1200.0
    assert load(ENV, dotenv=None).global_rate == 50.0
    for bad in ({"METRICS_PORT": "70000"}, {"DISCORD_GLOBAL_RATE": "fast"}):
        with pytest.raises(ConfigError):
            load({**ENV, **bad}, dotenv=None)


def test_each_process_takes_its_shards_share_of_the_budget():
    from bot.client import StealBot
    from bot.shards import Shards

    bot = StealBot("unused.db", shards=Shards(4, (2, 3)), global_rate=50)
    assert bot.governor.limit == 25.0
    assert bot.http.governor is bot.governor
