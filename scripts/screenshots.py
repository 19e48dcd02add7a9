"""Play a scripted game in the local playground and screenshot it with headless Chromium.

    .venv/bin/python scripts/screenshots.py [--chromium /usr/bin/chromium] [--out docs/screenshots]
        [--language es]

Writes lobby.png, table.png, hand.png, hint-phone.png (360 px wide), end.png, table-phone.png
(the table at 360 px), table-light.png (Discord's light theme) and table-italian.png (a
Rubamazzo game: the Italian deck, in Italian). Needs Chromium; tests never run this.

SimCord's preview is dark only. The light shot loads the same page through a small local
proxy that adds a stylesheet overriding the preview's colour variables (--discord-bg,
--discord-surface, --discord-text, ... of simcord/preview/static/preview.css) with Discord's
light palette (LIGHT below): the page and the bot's messages are otherwise the same.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402
from aiohttp import ClientSession, web  # noqa: E402

from bot.client import StealBot  # noqa: E402
from bot.playground import GUILD_ID, build_world  # noqa: E402

SEED = 20261129  # the same deal every run, so the pictures only change when the bot does
TURN = re.compile(r"^[^:\n]*: \*\*(.+?)\*\*", re.MULTILINE)  # "Turn: **ann**", any language
WIDTH, HEIGHT = 1000, 1300
PHONE = 360  # px: a small phone's width


# Discord's light theme, as the preview's colour variables (preview.css names them).
LIGHT = """
:root {
  color-scheme: light; background: #ffffff; color: #313338;
  --discord-bg: #ffffff; --discord-surface: #f2f3f5; --discord-elevated: #e3e5e8;
  --discord-control: #e3e5e8; --discord-hover: #ebedef; --discord-text: #313338;
  --discord-muted: #5c5e66; --discord-subtle: #4e5058; --discord-border: #d4d7dc;
  --component-surface: #f2f3f5; --component-border: #e1e2e4; --modal-surface: #ffffff;
  --modal-separator: #e1e2e4; --control-border: #d4d7dc; --chip-surface: #e3e5e8;
  --list-surface: #f2f3f5; --option-hover: #e3e5e8; --subtle-surface: #6d6f78;
  --subtle-surface-text: #ffffff; --entity-text: #2e3035; --entity-dim: #5c5e66;
  --input-surface: #ebedef; --input-placeholder: #5c5e66; --modal-trigger-border: #d4d7dc;
  --choice-border: #8d8f96; --button-alt: #6d6f78; --button-alt-hover: #5c5e66;
  --button-alt-active: #4e5058; --code-surface: #f2f3f5; --code-border: #e3e5e8;
  --code-text: #2e3338; --embed-field-name: #060607; --link-text: #006ce7;
  --link-accent: #006ce7; --scrollbar-thumb: #c4c9ce; --disclaimer-bg: #faf0e6;
  --disclaimer-text: #313338;
}
[data-workbench] { --workbench-bg: #f2f3f5; --workbench-control: #e3e5e8;
  --workbench-hover: #d4d7dc; --workbench-border: #0000001a; }
.preview-toolbar { background: #e3e5e8; }
.message-content { color: #313338; }
.message-row[aria-current="page"] { background: #d4d7dc; }
.mention { color: #505cdc; background: rgba(88, 101, 242, .15); }
.viewer-control select { color: #313338; background: #ffffff; }
"""


def walk(message) -> list[dict]:
    """Every component of a message, nested ones (a V2 layout's) included, as JSON."""
    out: list[dict] = []

    def visit(items) -> None:
        for item in items:
            c = item if isinstance(item, dict) else item.to_dict()
            out.append(c)
            visit(c.get("components") or [])
            if isinstance(c.get("accessory"), dict):
                visit([c["accessory"]])

    visit(message.components)
    return out


def enabled(message) -> list[dict]:
    """The enabled buttons of a message (discord.Message or SimCord ResponseMessage)."""
    return [c for c in walk(message) if c.get("type") == 2 and not c.get("disabled")]


def words(message) -> str:
    """What a V2 message says: its text displays; else its content."""
    shown = [c["content"] for c in walk(message) if c.get("type") == 10]
    return "\n".join(shown) if shown else (message.content or "")


def click_id(message, op: str) -> str:
    """A lobby or table button's custom_id by what it does (labels depend on the language)."""
    return next(b["custom_id"] for b in enabled(message) if f":{op}:" in b["custom_id"])


def whose_turn(table, members):
    match = TURN.search(words(table))
    return next((m for m in members if m.name == match.group(1)), None) if match else None


def is_over(table) -> bool:
    return any(":record:" in b.get("custom_id", "") for b in enabled(table))


async def play_one(table, members, hands) -> None:
    """The player to act clicks their hand's first move (one click a move)."""
    player = whose_turn(table, members)
    hand = hands.get(player.id)
    if hand is None or not enabled(hand):  # none yet, or it moved to a newer message
        hand = hands[player.id] = (
            await player.click(table, custom_id=click_id(table, "hand"))
        ).response
    move = next(b for b in enabled(hand) if ":move:" in b["custom_id"])
    await player.click(hand, custom_id=move["custom_id"])


async def shoot(chromium: str, url: str, out: Path, profile: Path, width: int = WIDTH) -> None:
    proc = await asyncio.create_subprocess_exec(
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        f"--window-size={width},{HEIGHT}",
        "--virtual-time-budget=8000",
        f"--screenshot={out}",
        url,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if await proc.wait() != 0 or not out.exists():
        raise SystemExit(f"chromium failed to write {out}")
    print("wrote", out.relative_to(ROOT) if out.is_relative_to(ROOT) else out)


@contextlib.asynccontextmanager
async def light(url: str):
    """The preview page at `url` through a local proxy that adds the LIGHT stylesheet to it;
    yields the proxied page's address. The preview accepts only its own Host and Origin, and
    its content security policy only same-origin stylesheets: the proxy sends the preview's
    Host and Origin on, and serves the stylesheet itself."""
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    async with ClientSession(auto_decompress=True) as client:

        async def forward(request: web.Request) -> web.StreamResponse:
            if request.path == "/light.css":
                return web.Response(text=LIGHT, content_type="text/css")
            headers = {k: v for k, v in request.headers.items() if k.lower() != "host"}
            headers["Host"] = parts.netloc
            if "Origin" in headers:
                headers["Origin"] = origin
            body = await request.read()
            async with client.request(
                request.method, origin + request.path_qs, headers=headers, data=body
            ) as answer:
                data = await answer.read()
                kept = {k: v for k, v in answer.headers.items()
                        if k.lower() not in ("content-length", "content-encoding",
                                             "transfer-encoding", "connection")}  # fmt: skip
                if answer.content_type == "text/html":
                    link = '<link rel="stylesheet" href="/light.css">'
                    data = data.decode().replace("</head>", link + "</head>", 1).encode()
                return web.Response(status=answer.status, body=data, headers=kept)

        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", forward)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        try:
            yield url.replace(origin, f"http://127.0.0.1:{port}", 1)
        finally:
            await runner.cleanup()


async def main(chromium: str, out: Path, language: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())
    bot = StealBot(
        tmp / "playground.db",
        sync=True,
        turn_seconds=None,
        lobby_seconds=None,
        seed_source=lambda: SEED,
    )
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, members = build_world(env)
            ann, bob, cat = members
            if language != "en":  # public messages in that language
                await bot.storage.settings.set(GUILD_ID, "language", language)

            async def shot(name: str, width: int = WIDTH, *, theme: str = "dark") -> None:
                # A fresh preview each time: the page opens at the newest message, as ann.
                async with env.preview(
                    channel,
                    viewers=members,
                    layout="channel",
                    display="fixed",
                    width=width,
                    height=HEIGHT,
                    port=0,
                ) as preview:
                    target = out / f"{name}.png"
                    if theme == "light":
                        async with light(preview.url) as url:
                            await shoot(chromium, url, target, tmp / "chrome", width)
                    else:
                        await shoot(chromium, preview.url, target, tmp / "chrome", width)

            lobby = (await ann.slash(channel, "steal new")).response
            await bob.click(lobby, custom_id=click_id(lobby, "join"))
            await cat.click(lobby, custom_id=click_id(lobby, "join"))
            await shot("lobby")
            await ann.click(lobby, custom_id=click_id(lobby, "start"))
            table = lobby
            hands: dict = {}
            # A round and a bit, so the table shows bundles and a last move, on ann's turn.
            moves = 0
            while moves < 4 or whose_turn(table, members) is not ann:
                await play_one(table, members, hands)
                moves += 1
            await shot("table")
            await shot("table-phone", PHONE)  # the table at a phone's width
            await shot("table-light", theme="light")
            hands[ann.id] = (await ann.click(table, custom_id=click_id(table, "hand"))).response
            await shot("hand")
            await ann.click(hands[ann.id], custom_id=click_id(hands[ann.id], "hint"))
            await shot("hint-phone", PHONE)  # the hint's answer, at a phone's width
            moves = 0
            while not is_over(table):
                await play_one(table, members, hands)
                moves += 1
                if moves > 400:
                    raise SystemExit("the game did not end")
            await shot("end")

            # A Rubamazzo game, in Italian: the Italian deck's suits and ranks.
            await bot.storage.settings.set(GUILD_ID, "language", "it")
            lobby = (await ann.slash(channel, "steal new", rules="rubamazzo")).response
            await bob.click(lobby, custom_id=click_id(lobby, "join"))
            await cat.click(lobby, custom_id=click_id(lobby, "join"))
            await ann.click(lobby, custom_id=click_id(lobby, "start"))
            table, hands = lobby, {}
            for _ in range(5):
                await play_one(table, members, hands)
            await shot("table-italian")
    finally:
        if bot.storage is not None:
            await bot.storage.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--language", default="en", choices=("en", "es", "fr", "it"))
    args = parser.parse_args()
    asyncio.run(main(args.chromium, args.out.resolve(), args.language))
