"""A server with "Use External Apps" off, at SimCord's HTTP seam.

Discord makes the answers of an app the server did not add ephemeral when the server turned
that permission off: the message is seen by the person who acted alone, and the interaction
callback's response says `response_message_ephemeral: true`. SimCord does not model the
permission, so this does what Discord does, and nothing more: the message callbacks (4, and
5, a defer) of interactions from the chosen servers get the ephemeral flag before SimCord's
own callback route stores them. Everything after (the stored message, the callback's answer,
follow-ups and edits) is SimCord's."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from simcord.backend.models import EPHEMERAL_FLAG
from simcord.http import router

CALLBACK = ["interactions", "{interaction_id}", "{token}", "callback"]
MESSAGE_CALLBACKS = (4, 5)  # CHANNEL_MESSAGE_WITH_SOURCE, DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE


@contextmanager
def external_apps_off(*guild_ids: int) -> Iterator[None]:
    """Within: the servers `guild_ids` force this app's new messages ephemeral."""
    routes = router._ROUTES["POST"]
    (index,) = [i for i, (template, _) in enumerate(routes) if template == CALLBACK]
    real = routes[index][1]

    def forced(ctx: Any) -> Any:
        record = ctx.backend.interactions.get(ctx.int_arg("interaction_id"))
        body = ctx.body()
        ours = record is not None and record.guild_id in guild_ids
        if ours and body.get("type") in MESSAGE_CALLBACKS:
            data = body.setdefault("data", {})
            data["flags"] = int(data.get("flags") or 0) | EPHEMERAL_FLAG
        return real(ctx)

    routes[index] = (CALLBACK, forced)
    try:
        yield
    finally:
        routes[index] = (CALLBACK, real)
