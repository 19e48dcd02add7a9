"""How tall each of the bot's messages is on a phone: the local playground's preview page in
headless Chromium at 360 px wide, each message's rendered height in CSS pixels.

    .venv/bin/python -m scripts.heights [--chromium /usr/bin/chromium] [--width 360]
        [--languages en es fr it] [--themes dark light] [--markdown]

Measures the lobby, the table, the hand (on your turn, and while you wait), the whole turn (the
table, the turn ping and the hand on your turn, added up), the end screen, the
leaderboard, stats, a season's end and a past season's board, each rules page, the replay
viewer and the settings panel, in each language and theme. A phone shows about 540-580 px of
messages; the targets are in docs/development.md.
Chromium is driven over its DevTools protocol (aiohttp's websocket client, no other package).
Needs Chromium; tests never run this.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import aiohttp

from bot.playground import GUILD_ID
from bot.ui import ids

from ._playground import (
    LOCALES,
    click_id,
    history,
    is_over,
    members_speak,
    open_hand,
    parts,
    play_one,
    playground,
    scratch,
    storage_of,
    whose_turn,
)
from ._shots import theme

Pictures = list[tuple[int, int]]  # each picture's (natural width, shown width)

# Every message on the page: its id and rendered height, once its images have loaded.
MEASURE = """
(() => {
  const items = [...document.querySelectorAll('[data-message-id]')];
  const images = [...document.images];
  if (!items.length || images.some((i) => !i.complete || !i.naturalWidth)) return null;
  const shown = (i) => [i.naturalWidth, Math.round(i.getBoundingClientRect().width)];
  return items.map((e) => [e.dataset.messageId, Math.round(e.getBoundingClientRect().height),
    [...e.querySelectorAll('img')].map(shown)]);
})()
"""


class Browser:
    """One headless Chromium, driven over the DevTools protocol: open a page, read heights."""

    def __init__(self, chromium: str, profile: Path, width: int) -> None:
        self.chromium, self.profile, self.width = chromium, profile, width
        self.proc: subprocess.Popen[bytes] | None = None
        self.http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.n = 0

    async def __aenter__(self) -> Browser:
        self.proc = subprocess.Popen(
            [self.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
             f"--window-size={self.width},2400", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        port_file = self.profile / "DevToolsActivePort"
        for _ in range(200):
            if port_file.exists() and port_file.read_text().strip():
                break
            await asyncio.sleep(0.05)
        port = port_file.read_text().split()[0]
        self.http = aiohttp.ClientSession()
        async with self.http.put(f"http://127.0.0.1:{port}/json/new?about:blank") as r:
            target = await r.json()
        self.ws = await self.http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
        await self.call(
            "Emulation.setDeviceMetricsOverride",
            width=self.width, height=2400, deviceScaleFactor=1, mobile=False,
        )  # fmt: skip
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.http is not None:
            await self.http.close()
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait()

    async def call(self, method: str, **params: object) -> dict[str, Any]:
        assert self.ws is not None
        self.n += 1
        await self.ws.send_str(json.dumps({"id": self.n, "method": method, "params": params}))
        while True:
            answer = json.loads((await self.ws.receive()).data)
            if answer.get("id") == self.n:
                result: dict[str, Any] = answer.get("result", {})
                return result

    async def heights(self, url: str) -> dict[str, tuple[int, Pictures]]:
        """Each message's height on the page at `url`, and its pictures' (natural width, shown
        width), by message id."""
        await self.call("Page.navigate", url=url)
        last: list[Any] | None = None
        for _ in range(200):  # settled: the same heights twice running, images loaded
            await asyncio.sleep(0.15)
            got = await self.call("Runtime.evaluate", expression=MEASURE, returnByValue=True)
            now = got.get("result", {}).get("value")
            if now and now == last:
                return {mid: (h, pictures) for mid, h, pictures in now}
            last = now
        raise SystemExit(f"the page never settled: {url}")


def buttons(message: Any) -> list[dict[str, Any]]:
    return [c for c in parts(message) if c.get("type") == 2 and c.get("custom_id")]


Figures = dict[tuple[str, str], int]  # (message, theme) -> height


async def measure_language(args: argparse.Namespace, tmp: Path, lang: str) -> Figures:
    """{(message, theme): height} for one language's playground."""
    chromium, themes, width = args.chromium, args.themes, args.width
    out: Figures = {}
    members_speak(LOCALES[lang])
    async with playground(tmp / f"{lang}.db") as (bot, env, channel, members):
        ann, bob, cat = members
        storage = storage_of(bot)
        await storage.settings.set(GUILD_ID, "language", lang)
        async with Browser(chromium, tmp / f"chrome-{lang}", width) as browser:

            async def measure(
                name: str,
                message: Any,
                pictured: bool = False,
                with_: Iterable[tuple[str, Sequence[Any]]] = (),
            ) -> None:
                """`pictured`: wait for the message's picture (drawn in a thread).
                `with_`: (name, messages) whose heights add up to another figure."""
                for _ in range(100):
                    if not pictured or any(c.get("type") == 12 for c in parts(message)):
                        break
                    await asyncio.sleep(0.1)
                for shade in themes:
                    with theme(shade == "light"):
                        async with env.preview(
                            channel, viewers=members, layout="channel", display="fixed",
                            width=width, height=2400, port=0,
                        ) as preview:  # fmt: skip
                            seen = await browser.heights(preview.url)
                    if str(message.id) not in seen:
                        raise SystemExit(f"{name}: message {message.id} not on the page")
                    out[name, shade], pictures = seen[str(message.id)]
                    for total, parts_ in with_:
                        out[total, shade] = sum(seen[str(m.id)][0] for m in parts_)
                    if args.verbose:
                        print(
                            f"{lang} {shade} {name}: {out[name, shade]} px;"
                            f" pictures (natural, shown width): {pictures}",
                            flush=True,
                        )

            lobby = (await ann.slash(channel, "steal new")).response
            await bob.click(lobby, custom_id=click_id(lobby, "join"))
            await cat.click(lobby, custom_id=click_id(lobby, "join"))
            await measure("lobby", lobby)
            await ann.click(lobby, custom_id=click_id(lobby, "start"))
            table, hands = lobby, dict[int, Any]()
            waiting = None
            moves = 0
            while moves < 4 or whose_turn(table, members) is not ann:
                if waiting is None and whose_turn(table, members) is not ann:
                    waiting = await open_hand(table, ann)
                    await measure("hand (waiting)", waiting)
                    hands.pop(ann.id, None)
                await play_one(table, members, hands)
                moves += 1
            await measure("table", table, pictured=True)
            hand = await open_hand(table, ann)
            pings = [m for m in channel.history() if f"<@{ann.id}>" in (m.content or "")]
            turn = [table, *pings[-1:], hand]  # what the channel shows on her turn
            await measure("hand (your turn)", hand, with_=[("turn: table + ping + hand", turn)])
            hands[ann.id] = hand
            for _ in range(400):
                if is_over(table):
                    break
                await play_one(table, members, hands)
            await measure("end screen", table, pictured=True)

            await history(storage, channel, members, ("dora", "eli", "fay"), 12)
            await measure("leaderboard", (await ann.slash(channel, "steal leaderboard")).response)
            await measure("stats", (await ann.slash(channel, "steal stats")).response)
            assert bot.app is not None
            await bot.app.sessions.seasons.end(GUILD_ID, 1)  # as /steal-admin season-new
            await env.advance_time(1)  # its announcement is posted
            said = channel.history()[-1]  # the newest message
            await measure("season's end", said)
            past = (await ann.slash(channel, "steal leaderboard", season=1)).response
            await measure("leaderboard (season 1)", past)
            rules = (await ann.slash(channel, "steal rules")).response
            for tab in ids.RULES_TABS:
                button = next(b for b in buttons(rules) if b["custom_id"].endswith(f":{tab}"))
                if not button.get("disabled"):  # the page shown is the disabled tab
                    await ann.click(rules, custom_id=button["custom_id"])
                await measure(f"rules: {tab}", rules)
            viewer = (await ann.slash(channel, "steal replay")).response
            await measure("replay", viewer)
            panel = (await ann.slash(channel, "steal-admin settings")).response
            await measure("settings panel", panel)
    return out


def table(figures: dict[str, Figures], themes: Sequence[str], markdown: bool) -> str:
    langs = list(figures)
    names = list(dict.fromkeys(name for f in figures.values() for name, _ in f))
    heads = [f"{lang} {shade}" for lang in langs for shade in themes]
    rows = [[name] + [str(figures[lang].get((name, s), "")) for lang in langs for s in themes]
            for name in names]  # fmt: skip
    if markdown:
        lines = ["| message | " + " | ".join(heads) + " |", "| --- |" + " ---: |" * len(heads)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])
    wide = max(len(n) for n in [*names, "message"])
    lines = ["message".ljust(wide) + "".join(h.rjust(10) for h in heads)]
    return "\n".join(lines + [r[0].ljust(wide) + "".join(c.rjust(10) for c in r[1:]) for r in rows])


async def main(args: argparse.Namespace) -> None:
    with scratch() as tmp:
        figures = {}
        for lang in args.languages:
            figures[lang] = await measure_language(args, tmp, lang)
        print(f"Rendered height (CSS px) of each message at {args.width} px wide:")
        print(table(figures, args.themes, args.markdown))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--width", type=int, default=360)
    parser.add_argument("--languages", nargs="+", default=list(LOCALES), choices=list(LOCALES))
    parser.add_argument("--themes", nargs="+", default=["dark", "light"], choices=["dark", "light"])
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    parser.add_argument("--verbose", action="store_true", help="each figure as it is measured")
    asyncio.run(main(parser.parse_args()))
