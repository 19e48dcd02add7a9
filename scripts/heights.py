"""How tall each of the bot's messages is on a phone: the local playground's preview page in
headless Chromium at 360 px wide, each message's rendered height in CSS pixels.

    .venv/bin/python scripts/heights.py [--chromium /usr/bin/chromium] [--width 360]
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
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
import simcord  # noqa: E402
import simcord.interactions  # noqa: E402
from shots import theme  # noqa: E402
from simcord.components import walk_components  # noqa: E402

from bot.client import StealBot  # noqa: E402
from bot.domain.options import Options  # noqa: E402
from bot.engine import new_game, preset, to_dict  # noqa: E402
from bot.engine.playout import play_out  # noqa: E402
from bot.playground import GUILD_ID, build_world  # noqa: E402
from bot.session import results  # noqa: E402
from bot.ui import ids  # noqa: E402
from scripts.screenshots import SEED, click_id, enabled, is_over, whose_turn  # noqa: E402

LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr", "it": "it"}
# The members' Discord language (SimCord sends en-US): hands and replies are in the reader's.
_locale = {"value": "en-US"}
_real_payload = simcord.interactions.base_payload


def _base_payload(backend, **kwargs):
    made, payload = _real_payload(backend, **kwargs)
    payload["locale"] = _locale["value"]
    return made, payload


simcord.interactions.base_payload = _base_payload

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

    async def call(self, method: str, **params: object) -> dict:
        assert self.ws is not None
        self.n += 1
        await self.ws.send_str(json.dumps({"id": self.n, "method": method, "params": params}))
        while True:
            answer = json.loads((await self.ws.receive()).data)
            if answer.get("id") == self.n:
                return answer.get("result", {})

    async def heights(self, url: str) -> dict[str, tuple[int, list]]:
        """Each message's height on the page at `url`, and its pictures' (natural width, shown
        width), by message id."""
        await self.call("Page.navigate", url=url)
        last: list | None = None
        for _ in range(200):  # settled: the same heights twice running, images loaded
            await asyncio.sleep(0.15)
            got = await self.call("Runtime.evaluate", expression=MEASURE, returnByValue=True)
            now = got.get("result", {}).get("value")
            if now and now == last:
                return {mid: (h, pictures) for mid, h, pictures in now}
            last = now
        raise SystemExit(f"the page never settled: {url}")


async def finish(storage, guild_id: int, channel_id: int, seats, names, seed: int) -> None:
    game = play_out(new_game(preset("standard"), list(seats), seed=seed), random.Random(seed))
    row = await storage.games.create(guild_id, channel_id, seats[0], {}, state=to_dict(game))
    await results.finish(storage, row.id, guild_id, game, names=names)


def parts(message) -> list[dict]:
    """Every component of a message, nested ones included, as JSON."""
    return list(
        walk_components([c if isinstance(c, dict) else c.to_dict() for c in message.components])
    )


def buttons(message) -> list[dict]:
    return [c for c in parts(message) if c.get("type") == 2 and c.get("custom_id")]


async def play_one(table, members, hands) -> None:
    """The player to act clicks their hand's first move."""
    player = whose_turn(table, members)
    hand = hands.get(player.id)
    if hand is None or not any(":move:" in b["custom_id"] for b in enabled(hand)):
        hand = hands[player.id] = (
            await player.click(table, custom_id=click_id(table, "hand"))
        ).response
    move = next(b for b in enabled(hand) if ":move:" in b["custom_id"])
    await player.click(hand, custom_id=move["custom_id"])


async def measure_language(args: argparse.Namespace, tmp: Path, lang: str) -> dict:
    """{(message, theme): height} for one language's playground."""
    chromium, themes, width = args.chromium, args.themes, args.width
    out: dict[tuple[str, str], int] = {}
    _locale["value"] = LOCALES[lang]
    options = Options(turn_seconds=None, lobby_seconds=None, seed_source=lambda: SEED)
    bot = StealBot(tmp / f"{lang}.db", options=options, sync=True)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, members = build_world(env)
            ann, bob, cat = members
            await bot.storage.settings.set(GUILD_ID, "language", lang)
            async with Browser(chromium, tmp / f"chrome-{lang}", width) as browser:

                async def measure(name: str, message, pictured: bool = False, with_=()) -> None:
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
                table, hands = lobby, {}
                waiting = None
                moves = 0
                while moves < 4 or whose_turn(table, members) is not ann:
                    if waiting is None and whose_turn(table, members) is not ann:
                        waiting = (
                            await ann.click(table, custom_id=click_id(table, "hand"))
                        ).response
                        await measure("hand (waiting)", waiting)
                        hands.pop(ann.id, None)
                    await play_one(table, members, hands)
                    moves += 1
                await measure("table", table, pictured=True)
                hand = (await ann.click(table, custom_id=click_id(table, "hand"))).response
                pings = [m for m in channel.history() if f"<@{ann.id}>" in (m.content or "")]
                turn = [table, *pings[-1:], hand]  # what the channel shows on her turn
                await measure("hand (your turn)", hand, with_=[("turn: table + ping + hand", turn)])
                hands[ann.id] = hand
                for _ in range(400):
                    if is_over(table):
                        break
                    await play_one(table, members, hands)
                await measure("end screen", table, pictured=True)

                names = {str(m.id): m.name for m in members}
                names.update({str(900 + i): n for i, n in enumerate(("dora", "eli", "fay"))})
                people = list(names)
                rng = random.Random(SEED)
                for n in range(12):
                    seats = rng.sample(people[:3] if n % 3 else people, 2)
                    await finish(bot.storage, GUILD_ID, channel.id, seats, names, n)
                await measure(
                    "leaderboard", (await ann.slash(channel, "steal leaderboard")).response
                )
                await measure("stats", (await ann.slash(channel, "steal stats")).response)
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
    finally:
        if bot.storage is not None:
            await bot.storage.close()
    return out


def table(figures: dict[str, dict], themes, markdown: bool) -> str:
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
    tmp = Path(tempfile.mkdtemp())
    try:
        figures = {}
        for lang in args.languages:
            figures[lang] = await measure_language(args, tmp, lang)
        print(f"Rendered height (CSS px) of each message at {args.width} px wide:")
        print(table(figures, args.themes, args.markdown))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--width", type=int, default=360)
    parser.add_argument("--languages", nargs="+", default=list(LOCALES), choices=list(LOCALES))
    parser.add_argument("--themes", nargs="+", default=["dark", "light"], choices=["dark", "light"])
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    parser.add_argument("--verbose", action="store_true", help="each figure as it is measured")
    asyncio.run(main(parser.parse_args()))
