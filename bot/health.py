"""The opt-in HTTP server on METRICS_HOST:METRICS_PORT: `/metrics` (Prometheus, the figures of
bot/metrics.py) and `/healthz` (is this process able to play: gateway, database, shards).
docs/operations.md#metrics-and-health says what each figure means and what to alert on."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot import metrics
from bot.app import App
from bot.shards import Shards
from bot.storage import Storage

log = logging.getLogger(__name__)
DATABASE_TIMEOUT = 2.0  # seconds: a database slower than this to answer counts as down


class Health:
    """Serves one process's figures. `connected`: whether every shard's gateway is up."""

    def __init__(self, app: App, shards: Shards, connected: Callable[[], bool]) -> None:
        self.app, self.shards, self.connected = app, shards, connected
        self.runner: web.AppRunner | None = None
        self.port: int | None = None

    async def start(self, port: int, host: str = "127.0.0.1") -> int:
        """Listen on `host`:`port` (0: any free one); returns the port. Nothing here asks who
        is calling, so the default is this machine only (METRICS_HOST widens it)."""
        server = web.Application()
        server.router.add_get("/metrics", self.metrics)
        server.router.add_get("/healthz", self.healthz)
        self.runner = web.AppRunner(server, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port)
        await site.start()
        addresses = self.runner.addresses  # the bound port, when asked for any (0)
        self.port = int(addresses[0][1]) if addresses else port
        log.info("metrics and health on %s port %s", host, self.port)
        return self.port

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    def count_live(self) -> None:
        """Games and lobbies per shard, as the session layer holds them now."""
        games = dict.fromkeys(self.shards.ids, 0)
        lobbies = dict.fromkeys(self.shards.ids, 0)
        sessions = self.app.sessions
        for table in sessions.tables.values():
            if table.built is None or not table.built.over:  # one not read yet is live
                shard = self.shards.shard_of(table.guild_id)
                games[shard] = games.get(shard, 0) + 1
        for lobby in sessions.lobbies.values():
            shard = self.shards.shard_of(lobby.guild_id)
            lobbies[shard] = lobbies.get(shard, 0) + 1
        for shard, n in games.items():
            metrics.LIVE_GAMES.labels(str(shard)).set(n)
        for shard, n in lobbies.items():
            metrics.LOBBIES.labels(str(shard)).set(n)

    async def metrics(self, request: web.Request) -> web.Response:
        self.count_live()
        body = generate_latest(metrics.REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def healthz(self, request: web.Request) -> web.Response:
        gateway = self.connected()
        database = await answers(self.app.storage)
        lock = self.app.shard_lock
        # On SQLite the process's file lock is the operating system's for as long as it runs.
        shards = lock is None or not lock.connection.is_closed()
        ok = gateway and database and shards
        body = {"ok": ok, "gateway": gateway, "database": database, "shard_locks": shards,
                "shards": list(self.shards.ids)}  # fmt: skip
        return web.json_response(body, status=200 if ok else 503)


async def answers(storage: Storage) -> bool:
    try:
        await asyncio.wait_for(storage.schema_version(), DATABASE_TIMEOUT)
    except Exception:
        log.warning("health: the database does not answer", exc_info=True)
        return False
    return True
