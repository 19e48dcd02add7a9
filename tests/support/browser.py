"""Headless Chromium for tests, driven over its DevTools protocol with aiohttp's websocket
client (no other package): open a page, run a script in it, wait for the page to change.

Chromium comes from Debian (`make chromium` installs it; CI runs as root and does).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def chromium() -> str:
    """The browser's path; a clear failure (never a skip) where it is missing."""
    assert Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM}: run `make chromium` (as root)"
    return CHROMIUM


class Browser:
    """One headless Chromium with one page; `profile` is a fresh directory of its own."""

    def __init__(self, profile: Path, width: int = 1000, height: int = 1400) -> None:
        self.profile, self.width, self.height = profile, width, height
        self.proc: subprocess.Popen[bytes] | None = None
        self.http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.n = 0

    async def __aenter__(self) -> Browser:
        self.profile.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
             f"--window-size={self.width},{self.height}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        port_file = self.profile / "DevToolsActivePort"
        for _ in range(1200):  # Chromium writes its port once it listens: 60 s at most
            if port_file.exists() and port_file.read_text().strip():
                break
            assert self.proc.poll() is None, "Chromium stopped at start"
            await asyncio.sleep(0.05)
        port = port_file.read_text().split()[0]
        self.http = aiohttp.ClientSession()
        async with self.http.put(f"http://127.0.0.1:{port}/json/new?about:blank") as r:
            target = await r.json()
        self.ws = await self.http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.http is not None:
            await self.http.close()
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(30)

    async def call(self, method: str, **params: object) -> dict[str, Any]:
        assert self.ws is not None
        self.n += 1
        await self.ws.send_str(json.dumps({"id": self.n, "method": method, "params": params}))
        while True:
            answer = json.loads((await self.ws.receive()).data)
            if answer.get("id") == self.n:
                assert "error" not in answer, answer
                return answer.get("result", {})

    async def open(self, url: str) -> None:
        await self.call("Page.navigate", url=url)

    async def run(self, script: str) -> Any:
        """The value of a script (an expression) run in the page."""
        got = await self.call(
            "Runtime.evaluate", expression=script, returnByValue=True, awaitPromise=True
        )
        assert "exceptionDetails" not in got, got["exceptionDetails"]
        return got.get("result", {}).get("value")

    async def until(self, script: str, wanted: Callable[[Any], bool], seconds: float = 60.0) -> Any:
        """The script's value once `wanted` holds for it, looked at every 50 ms: a bounded
        wait for the page to change, generous for a busy machine."""
        deadline = asyncio.get_running_loop().time() + seconds
        while True:
            value = await self.run(script)
            if wanted(value):
                return value
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"the page did not change in {seconds} s; it shows {value!r}")
            await asyncio.sleep(0.05)

    async def screenshot(self, out: Path) -> None:
        import base64

        shot = await self.call("Page.captureScreenshot", format="png")
        out.write_bytes(base64.b64decode(shot["data"]))
