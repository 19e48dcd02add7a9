"""The playground for its tests: a running `python -m bot.playground`, and its page's protocol
(a page as a viewer, its actions, its messages' components)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
URL = re.compile(r"(http://127\.0\.0\.1:\d+)/#(\S+)")


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    return env


@contextlib.contextmanager
def playground(cwd: Path, database: Path | None, command: list[str] | None = None):
    """A running playground on a free port; stopped (Ctrl-C, then kill) on the way out.
    Without `database`, it uses what its environment says ($DATABASE_URL)."""
    command = command or [sys.executable, "-m", "bot.playground", "--port", "0", "--no-browser"]
    if database is not None:
        command = [*command, "--database", str(database)]
    errors = (cwd / "stderr.txt").open("w")
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=errors,
        text=True,
        env=environment(),
        cwd=cwd,
    )
    lines: list[str] = []
    found: list[re.Match] = []

    def read() -> None:
        for line in proc.stdout:
            lines.append(line)
            if not found and (match := URL.search(line)):
                found.append(match)

    threading.Thread(target=read, daemon=True).start()
    try:
        for _ in range(1200):  # 120 s at most: start-up takes seconds, more on a busy machine
            if found or proc.poll() is not None:
                break
            threading.Event().wait(0.1)
        assert found, f"no URL printed: {''.join(lines)} {(cwd / 'stderr.txt').read_text()}"
        yield proc, found[0].group(1), found[0].group(2), lines
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        proc.stdout.close()
        errors.close()


def call(method: str, url: str, headers: dict[str, str], body: object = None) -> tuple[int, str]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read().decode()


def open_page(base: str, capability: str, viewer_id: str | None = None) -> tuple[dict, dict]:
    """What the page does first: open a page context (as a viewer) with the URL's capability."""
    auth = {"X-Simcord-Capability": capability}
    _, text = call(
        "POST", base + "/api/pages", auth, {} if viewer_id is None else {"viewer_id": viewer_id}
    )
    page = json.loads(text)
    return page, {**auth, "X-Simcord-Context": page["context"]["id"]}


def walk(message: dict) -> list[dict]:
    """A message's components, nested ones (a V2 layout's) included, in order."""
    out: list[dict] = []

    def visit(items: list[dict]) -> None:
        for c in items:
            out.append(c)
            visit(c.get("components") or [])
            if isinstance(c.get("accessory"), dict):
                visit([c["accessory"]])

    visit(message.get("components") or [])
    return out


def labels_of(message: dict) -> list[str]:
    return [c["label"] for c in walk(message) if c.get("type") == 2 and c.get("label")]


def shown_text(message: dict) -> str:
    """What a V2 message says in words: its text displays."""
    return "\n".join(c["content"] for c in walk(message) if c.get("type") == 10)


class Page:
    """One browser page of the playground, as a viewer, acting through the page's protocol."""

    def __init__(self, base: str, capability: str, viewer_id: str) -> None:
        self.base = base
        self.snapshot, self.headers = open_page(base, capability, viewer_id)
        self.sequence = 0

    def refresh(self) -> dict:
        """The page's messages. A page is republished when it acts, so read from the last one."""
        _, text = call("GET", self.base + "/api/state", self.headers)
        self.snapshot = json.loads(text)
        return self.snapshot["messages"]

    def act(self, body: dict, settled: tuple[str, ...] = ("settled",)) -> dict:
        """Post an action as the page does. The playground republishes the page whenever the
        bot changes something, so a page read just before may be a revision behind: SimCord
        then refuses the action as stale, unseen, and the page (like a person) tries again."""
        for _ in range(20):
            self.refresh()
            self.sequence += 1
            envelope = {
                "protocol_version": 3,
                "sequence": self.sequence,
                "request_id": uuid.uuid4().hex,
                "generation": self.snapshot["context"]["generation"],
                "bot_generation": self.snapshot["botGeneration"],
                "published_revision": self.snapshot["publishedRevision"],
            }
            _, text = call("POST", self.base + "/api/action", self.headers, {**envelope, **body})
            result = json.loads(text)
            if result.get("expectedSequence") is not None:
                self.sequence = result["expectedSequence"]
            codes = [d["code"] for d in result["diagnostics"]]
            if not (result["rejected"] and codes == ["stale-revision"]):
                break
        assert not result["rejected"] and result["settlement"] in settled, result
        return result

    def command(self, invocation: str, settled: tuple[str, ...] = ("settled",), **options) -> None:
        _, text = call("GET", self.base + "/api/commands", self.headers)
        entry = next(e for e in json.loads(text)["entries"] if e["invocation"] == invocation)
        self.act(
            {
                "kind": "run_command",
                "command_id": entry["commandId"],
                "path": entry["path"],
                "schema_fingerprint": entry["schemaFingerprint"],
                "options": {name: str(value) for name, value in options.items()},
            },
            settled,
        )

    def click(self, message: dict, label: str | None = None) -> dict:
        """Click a button by label, or the first enabled one."""
        enabled = [b for b in walk(message) if b.get("type") == 2 and not b.get("disabled")]
        button = enabled[0] if label is None else next(b for b in enabled if b["label"] == label)
        return self.act(
            {"kind": "click", "target_id": message["id"], "control_key": button["control_key"]}
        )
