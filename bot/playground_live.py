"""The playground's page follows the bot on its own, and can show the channel's threads.

SimCord's page (simcord/preview/static) reads its server's published snapshot every 500 ms,
but the server republishes only after an action of the page's own (a click, a command, its
Refresh button). `Live.follow` republishes whenever the bot has changed the channel shown: it
watches SimCord's transcript of the bot's requests (every message the bot posts, edits or
deletes, ephemeral hands included, is one) and republishes every open page, so the page shows
each change within about half a second, with no click.

The page shows one channel. Tournament tables are played in threads of it, so the page gets
a **Channel** menu (PAGE_SCRIPT): the channel and its threads, kept up to date. Picking one
shows it in every open page of the playground.

The bot's timers fire on the wall clock; `Live.unstick` keeps them firing when the bot's work
after one overran SimCord's settle limit.

Each publish draws every message anew, and SimCord builds a markdown parser for every text it
draws; `reuse_markdown_parsers` keeps them.

SimCord 3.2 has no public hook for any of these, so this leans on a few of its private names
(`_publish`, `_server`, `_pages`, ...), pinned by constraints.txt;
tests/test_playground_live.py drives the page in Chromium and fails if they change.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

log = logging.getLogger(__name__)

# How often the transcript is checked: a tenth of the page's own poll (500 ms).
EVERY = 0.1
SCRIPT = "/playground.js"
CHANNELS = "/playground/channels"
PARSERS = 256  # markdown parsers kept: one per field kind and set of names mentioned


def reuse_markdown_parsers() -> bool:
    """Keep SimCord's markdown parsers instead of building one per text drawn.

    A publish draws every message of every open page, and for each text SimCord builds a
    markdown-it parser with linkify (about 1 ms): in a played game a third of the
    playground's CPU time. A parser depends only on its field's policy and the names the
    text may mention (its context), and parses statelessly, so one is kept per pair.
    False where SimCord no longer has the function (nothing is changed then)."""
    from simcord.preview import _markdown

    build = getattr(_markdown, "_markdown_parser", None)
    if build is None:
        return False
    if getattr(build, "kept", False):
        return True
    kept: dict[tuple[str, str], Any] = {}

    def parser(policy: Any, context: Any) -> Any:
        key = (json.dumps(policy, sort_keys=True), json.dumps(context, sort_keys=True, default=str))
        found = kept.get(key)
        if found is None:
            if len(kept) >= PARSERS:
                kept.clear()
            found = kept[key] = build(policy, context)
        return found

    parser.kept = True  # type: ignore[attr-defined]
    _markdown._markdown_parser = parser
    return True


def written(entries: list[Any]) -> list[str]:
    """The paths of the bot's writes among these transcript entries (requests but reads; the
    gateway events are their echoes, or a page's own actions, which publish themselves)."""
    return [
        route.split(" ", 1)[1]
        for kind, route, _ in entries
        if kind == "HTTP" and not route.startswith("GET ")
    ]


class Live:
    """One running preview, kept current (`follow`), with its channel switchable (`show`)."""

    def __init__(self, env: Any, channel: Any) -> None:
        self.env, self.home = env, channel
        self.preview: Any = None
        self.seen = len(env.backend.transcript)

    def attach(self, preview: Any) -> None:
        """Before the preview is entered: its server also serves the page's script and the
        channel menu's data, behind the preview's own checks (host, capability)."""
        self.preview = preview
        reuse_markdown_parsers()
        server = preview._server
        server._STATIC_FILES = {**server._STATIC_FILES, SCRIPT: SCRIPT, CHANNELS: CHANNELS}
        static = server._static  # the bound original

        async def serve(request: Any) -> Any:
            from aiohttp import web

            if request.path == CHANNELS:
                if not server._authorized(request):
                    raise web.HTTPUnauthorized()
                wanted = request.query.get("show")
                if wanted is not None:
                    for _ in range(100):  # a page's action under way ends first (10 s at most)
                        if preview._active_action is None:
                            break
                        await asyncio.sleep(0.1)
                    if not self.show(wanted):
                        raise web.HTTPNotFound()
                return web.json_response(self.channels(), headers=server._SECURITY_HEADERS)
            if request.path == SCRIPT:
                if request.headers.get("Host", "") not in server._allowed_hosts():
                    raise web.HTTPForbidden()
                return web.Response(
                    text=PAGE_SCRIPT,
                    content_type="application/javascript",
                    headers=server._SECURITY_HEADERS,
                )
            response = await static(request)
            if request.path == "/":
                tag = f'<script type="module" src="{SCRIPT}"></script>'
                response.text = response.text.replace("</head>", f"    {tag}\n  </head>")
            return response

        server._static = serve

        # The page tells the server its viewport size as an action, which SimCord refuses when
        # the page is a revision behind, and then lays out the page for no size at all (a
        # phone's page overflows). Republishing often makes that likely, and the size does
        # not depend on what the page showed, so it is taken at the current revision.
        act = preview._action

        async def action(context_id: Any, body: Any) -> Any:
            page = preview._pages.get(context_id)
            viewport = isinstance(body, dict) and body.get("kind") == "configure_presentation"
            if viewport and page is not None:
                body = {**body, "published_revision": page.revision}
            return await act(context_id, body)

        preview._action = action

    # ----- following the bot

    def channel_of(self, path: str) -> int | None:
        """The channel a write changed: from its path, or its interaction's (a response, an
        ephemeral hand's edit). None if it cannot tell."""
        backend = self.env.backend
        parts = path.strip("/").split("/")
        try:
            if parts[0] == "channels":
                return int(parts[1])
            if parts[0] == "interactions":
                return int(backend.interactions[int(parts[1])].channel_id)
            if parts[0] == "webhooks":
                return int(backend.interactions[backend.interaction_tokens[parts[2]]].channel_id)
        except (IndexError, KeyError, ValueError):
            pass
        return None

    def pending(self) -> bool:
        """Whether the bot changed the channel the page shows since the last call (or made a
        change it cannot place). Changes elsewhere (the tables in other threads) are not
        republished: each republish makes an action the page sent just before it stale."""
        transcript = self.env.backend.transcript
        paths = written(transcript[self.seen :])
        self.seen = len(transcript)
        shown = self.preview.channel.id if self.preview is not None else self.home.id
        return any(self.channel_of(path) in (shown, None) for path in paths)

    def republish(self) -> bool:
        """Publish every open page anew, as the page's Refresh button does, but without
        waiting for the bot to settle. Not during an action of a page: it publishes when it
        ends (and a publish in its middle would date the receipt it is writing)."""
        preview = self.preview
        if preview is None or preview._closed or preview._active_action is not None:
            return False
        preview._advance_presentation_time()
        preview._publish_message_pages(reason="refresh")
        return True

    def unstick(self) -> bool:
        """Let the clock move again after the bot overran SimCord's settle limit.

        The bot's timers (an AI seat's pause, turn, lobby and tournament deadlines) fire on
        the wall clock: SimCord then moves its clock to the timer and waits for the bot to
        settle, SETTLE seconds at most. When the bot takes longer (pictures drawn for several
        tables, a busy machine), SimCord keeps the timeout to hand to the next page action
        and, until then, fires no timer at all: a table with no person clicking (a tournament
        table of AI entrants, a player away) would stop for good. The bot's work goes on
        regardless, so the timeout is dropped here and the clock moves on."""
        task = self.env._real_advance_task
        if task is None or not task.done() or task.cancelled() or task.exception() is None:
            return False
        log.debug("the bot took longer than SimCord's settle limit: %s", task.exception())
        self.env._real_advance_task = None
        return True

    async def follow(self, every: float = EVERY) -> None:
        """Until cancelled: republish whenever the bot has changed something, and keep the
        clock moving (`unstick`)."""
        due = False
        while True:
            await asyncio.sleep(every)
            self.unstick()
            due = self.pending() or due
            if due:
                try:
                    due = not self.republish()
                except Exception:  # a page that cannot be drawn must not stop the others
                    log.exception("the playground could not republish its pages")
                    due = False

    # ----- the channel menu

    def channels(self) -> dict[str, Any]:
        """The channel and its threads, newest thread last; which one the page shows."""
        shown = self.preview.channel.id if self.preview is not None else self.home.id
        rows = [{"id": str(self.home.id), "name": f"#{self.home.name}"}]
        rows += [
            {"id": str(thread.id), "name": f"🧵 {thread.name}"}
            for thread in sorted(self.home.threads, key=lambda t: t.id)
        ]
        return {"shown": str(shown), "channels": rows}

    def show(self, channel_id: str) -> bool:
        """Show the channel (or thread) in every open page, at its newest message; False if
        it is neither the playground's channel nor one of its threads."""
        found = [c for c in (self.home, *self.home.threads) if str(c.id) == channel_id]
        preview = self.preview
        if not found or preview is None or preview._closed or preview._active_action is not None:
            return False
        [channel] = found
        if channel.id == preview.channel.id:
            return True
        preview.channel = channel
        for page in tuple(preview._pages.values()):
            # What SimCord does when the page's viewer changes, for the channel instead.
            preview._clear_page_assets(page)
            page.channel_id = channel.id
            page.generation += 1
            preview._reset_queries(page)
            page.target_id = preview._initial_target(page.viewer, channel.id)
            page.window_end_id = page.target_id if page.layout == "channel" else None
            page.modal = page.modal_handle = None
            page.status = "current"
            preview._publish(page, reason="navigation")
        return True


# The page's Channel menu, beside SimCord's "Viewing as". It asks the playground's server
# (above) for the channel and its threads every 2 s, and shows the one picked. The page's
# capability is the URL's fragment, as SimCord's own script reads it.
PAGE_SCRIPT = """\
const capability = location.hash.startsWith("#") ? location.hash.slice(1) : "";
const label = document.createElement("label");
label.className = "viewer-control";
label.textContent = "Channel ";
const menu = document.createElement("select");
menu.id = "playground-channel";
menu.setAttribute("aria-label", "Channel");
label.append(menu);
document.querySelector(".viewer-control")?.after(label);
let busy = false;
async function channels(show) {
  const query = show ? "?show=" + encodeURIComponent(show) : "";
  const response = await fetch("@CHANNELS@" + query, {
    headers: { "X-Simcord-Capability": capability }, cache: "no-store",
  });
  if (!response.ok) return;
  const { shown, channels } = await response.json();
  const ids = channels.map((c) => c.id + c.name).join();
  if (menu.dataset.ids !== ids) {
    menu.replaceChildren(...channels.map((c) => new Option(c.name, c.id)));
    menu.dataset.ids = ids;
  }
  if (document.activeElement !== menu || show) menu.value = shown;
  label.hidden = channels.length < 2;
}
async function update(show) {
  if (busy) return;
  busy = true;
  try { await channels(show); } catch (_) { /* the page says when its server is gone */ }
  finally { busy = false; }
}
menu.addEventListener("change", () => update(menu.value));
update();
setInterval(update, 2000);
""".replace("@CHANNELS@", CHANNELS)
