"""Every Discord REST request the bot makes, counted as aiohttp finishes it (discord.py's
`http_trace`): by kind (global: bound by the global rate limit; interaction: not) and route,
and every 429 logged with its route and scope. It sees discord.py's own retries too, and the
interaction responses, which go through discord.py's webhook adapter, not its HTTPClient."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import aiohttp

from bot import metrics

log = logging.getLogger(__name__)
INVALID = (401, 403, 429)  # what Discord's invalid request limit counts (10,000 per 10 minutes)


def kind_of(path: str, application_id: int | None) -> str:
    """`interaction` for the interaction endpoints, `global` for the rest."""
    path = path.split("/api/v", 1)[-1].split("/", 1)[-1]  # without /api/v10
    if path.startswith("interactions/"):
        return "interaction"
    if path.startswith("webhooks/") and application_id is not None:
        parts = path.split("/")
        if len(parts) > 2 and parts[1] == str(application_id):
            return "interaction"
    return "global"


def record(method: str, path: str, status: int, headers: Any, application_id: int | None) -> None:
    route = metrics.route_of(method, path)
    metrics.REQUESTS.labels(kind_of(path, application_id), route).inc()
    if status == 429:
        scope = headers.get("X-RateLimit-Scope") or (
            "global" if headers.get("X-RateLimit-Global") else "unknown"
        )
        metrics.RATE_LIMITED.labels(route, scope).inc()
        log.warning("Discord answered 429 to %s (scope %s)", route, scope)
        if scope == "shared":  # a resource's limit: not counted against the bot
            return
    if status in INVALID:
        metrics.INVALID.labels(str(status)).inc()


def trace(application_id: Callable[[], int | None] = lambda: None) -> aiohttp.TraceConfig:
    """The trace to hand discord.py (`http_trace=`)."""
    config = aiohttp.TraceConfig()

    async def ended(
        session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        response = params.response
        record(params.method, params.url.path, response.status, response.headers,
               application_id())  # fmt: skip

    config.on_request_end.append(ended)
    return config
