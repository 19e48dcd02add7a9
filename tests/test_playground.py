"""The local playground: `python -m bot.playground` serves the real bot's channel over HTTP."""

from __future__ import annotations

import contextlib
import itertools
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

import pytest

from bot import config
from bot.domain.options import Options

ROOT = Path(__file__).resolve().parent.parent
URL = re.compile(r"(http://127\.0\.0\.1:\d+)/#(\S+)")
# The AI seats' pace in the game played in Chromium (`--bot-delay`): two thirds of the
# people's 1.5 s, still twice the page's 0.5 s poll, so the page shows each AI move on its own.
PACE = 1.0


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


def action(base: str, page: dict, headers: dict[str, str], body: dict) -> dict:
    """Post one action (the page's first) in the preview protocol's envelope; it must settle."""
    envelope = {
        "protocol_version": 3,
        "sequence": 1,
        "request_id": uuid.uuid4().hex,
        "generation": page["context"]["generation"],
        "bot_generation": page["botGeneration"],
        "published_revision": page["publishedRevision"],
    }
    _, text = call("POST", base + "/api/action", headers, {**envelope, **body})
    result = json.loads(text)
    assert not result["rejected"] and result["settlement"] == "settled", result
    return result


def run_command(base: str, page: dict, headers: dict[str, str], invocation: str) -> dict:
    """What the page does for a slash command: read the catalog, then post a run_command."""
    _, text = call("GET", base + "/api/commands", headers)
    entry = next(e for e in json.loads(text)["entries"] if e["invocation"] == invocation)
    body = {
        "kind": "run_command",
        "command_id": entry["commandId"],
        "path": entry["path"],
        "schema_fingerprint": entry["schemaFingerprint"],
        "options": {},
    }
    return action(base, page, headers, body)


def messages(base: str, headers: dict[str, str]) -> list[str]:
    """The channel's messages after the bot's welcome, oldest first."""
    _, text = call("GET", base + "/api/state", headers)
    shown = sorted(json.loads(text)["messages"].values(), key=lambda m: int(m["id"]))
    assert "Type `/steal new`" in shown[0]["content"]  # the welcome comes first
    return [json.dumps(m) for m in shown[1:]]


@pytest.mark.slow  # a playground subprocess
def test_playground_serves_the_channel_and_slash_steal_new_opens_a_lobby(tmp_path):
    database = tmp_path / "data" / "playground.db"
    database.parent.mkdir()
    (database.parent / "steal.db.commands-synced").write_text("real bot's marker")
    with playground(tmp_path, database) as (proc, base, capability, lines):
        banner = "".join(lines)
        assert "local playground" in banner and ".env" in banner

        status, html = call("GET", base + "/", {})
        assert status == 200 and "<html" in html.lower()

        page, headers = open_page(base, capability)
        assert [viewer["name"] for viewer in page["viewers"]] == ["ann", "bob", "cat"]
        assert page["channel"]["name"] == "steal-the-bundle"
        run_command(base, page, headers, "steal new")
        [lobby] = messages(base, headers)
        assert "Players (1/4)" in lobby and "(host)" in lobby and '"Join"' in lobby

        # bob, one of the members the page can switch to, joins with the lobby's Join button.
        # The playground may republish bob's page as he opens it (the lobby is new): his
        # click then goes again, as the page's does (Page.act).
        bob = Page(base, capability, page["viewers"][1]["id"])
        message = max(bob.refresh().values(), key=lambda m: int(m["id"]))
        result = bob.click(message, "Join")
        assert result["outcomes"] == [{"kind": "source_edit", "messageId": message["id"]}]
        [lobby] = messages(base, bob.headers)
        assert "Players (2/4)" in lobby

        # Ctrl-C stops it cleanly.
        proc.send_signal(signal.SIGINT)
        assert proc.wait(15) == 0
    assert "Playground stopped." in "".join(lines)
    # Start-up says nothing about voice or intents (docs/development.md says why).
    logged = (tmp_path / "stderr.txt").read_text()
    assert not any(word in logged for word in ("PyNaCl", "davey", "intent")), logged
    # Syncing to the simulated Discord leaves the real bot's sync marker alone.
    assert (database.parent / "steal.db.commands-synced").read_text() == "real bot's marker"
    assert database.exists() and database.stat().st_size > 0


@pytest.mark.slow  # a playground subprocess
def test_with_database_url_set_to_postgresql_the_playground_plays_there(tmp_path, monkeypatch):
    from bot.storage import Storage
    from tests.support.backends import drop_schema, new_schema_url, require_postgres, run

    require_postgres()
    url, schema = new_schema_url()
    monkeypatch.setenv("DATABASE_URL", url)  # as a host sets it; no --database given
    try:
        command = [sys.executable, "-m", "bot.playground", "--port", "0", "--no-browser"]
        with playground(tmp_path, None, command) as (proc, base, capability, lines):
            assert "postgresql" in "".join(lines)  # the banner names the database
            page, headers = open_page(base, capability)
            run_command(base, page, headers, "steal new")
            [lobby] = messages(base, headers)
            assert "Players (1/4)" in lobby
            proc.send_signal(signal.SIGINT)
            assert proc.wait(15) == 0

        async def stored() -> list:
            storage = await Storage.open(url)
            try:
                return await storage.games.live()
            finally:
                await storage.close()

        [row] = run(stored())  # the lobby was saved on PostgreSQL
        assert row.status == "lobby" and not list(tmp_path.glob("**/*.db"))  # no SQLite file
    finally:
        drop_schema(schema)


@pytest.mark.slow  # a playground subprocess
def test_stored_games_still_belong_to_the_playground_after_a_restart(tmp_path):
    database = tmp_path / "playground.db"
    with playground(tmp_path, database) as (_, base, capability, _lines):
        page, headers = open_page(base, capability)
        run_command(base, page, headers, "steal new")
    # Same guild, channel and member ids: the stored lobby is this channel's lobby again.
    with playground(tmp_path, database) as (_, base, capability, _lines):
        page, headers = open_page(base, capability)
        run_command(base, page, headers, "steal new")
        [reply] = messages(base, headers)
        assert "already running in this channel" in reply


def test_make_run_chooses_the_bot_only_with_a_token(tmp_path, monkeypatch):
    """`make run` asks `python -m bot.config --has-token`: its exit code once, then the
    function it runs, in this process (a subprocess costs seconds of imports)."""
    command = [sys.executable, "-m", "bot.config", "--has-token"]
    env = {**environment(), "DISCORD_TOKEN": "abc"}
    assert subprocess.run(command, env=env, cwd=tmp_path, timeout=60).returncode == 0

    monkeypatch.chdir(tmp_path)

    def has_token(dotenv: str) -> bool:
        monkeypatch.delenv("DISCORD_TOKEN", raising=False)  # .env fills in only what is unset
        (tmp_path / ".env").write_text(dotenv)
        return config.has_token()

    assert not has_token("")  # no token anywhere: make run starts the playground
    assert not has_token("DISCORD_TOKEN=\n")
    assert has_token("DISCORD_TOKEN=abc\n")
    assert not has_token("# nothing\n")


def test_python_m_bot_never_falls_back_to_the_playground(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        capture_output=True,
        text=True,
        env=environment(),
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 2 and "playground" not in done.stdout


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


@pytest.mark.slow  # a playground subprocess
def test_a_whole_game_is_played_in_the_page(tmp_path):
    with playground(tmp_path, tmp_path / "playground.db") as (_, base, capability, _lines):
        first, _ = open_page(base, capability)
        pages = {v["name"]: Page(base, capability, v["id"]) for v in first["viewers"]}
        ann, bob = pages["ann"], pages["bob"]
        ann.command("steal new")
        table_id = max(ann.refresh().values(), key=lambda m: int(m["id"]))["id"]
        bob.click(bob.refresh()[str(table_id)], "Join")
        # Start is enabled once Bob sits: read from Bob's page, the one republished last.
        ann.click(bob.refresh()[str(table_id)], "Start")
        last, moves = ann, 0
        while True:
            table = last.refresh()[str(table_id)]
            words = shown_text(table)
            if words.splitlines()[0].endswith("game over"):
                break
            name = re.search(r"Turn: \*\*(.+?)\*\*", words).group(1)
            player = pages[name]
            player.click(table, "My hand")
            hand = max(
                (m for m in player.refresh().values() if "🃏 Your hand" in shown_text(m)),
                key=lambda m: int(m["id"]),
            )
            player.click(hand)  # its first move: one click
            last, moves = player, moves + 1
            assert moves < 200, "the game did not end"
        assert "🏆" in words and moves >= 20


async def test_ann_is_a_server_admin_in_the_playground(tmp_path):
    import simcord
    from simcord.components import walk_components

    from bot.client import StealBot
    from bot.playground import build_world

    bot = StealBot(
        tmp_path / "p.db", options=Options(turn_seconds=None, lobby_seconds=None), sync=True
    )
    try:
        async with simcord.run(bot) as env:
            channel, (ann, bob, _) = build_world(env)
            shown = await ann.slash(channel, "steal-admin settings")
            texts = [c.get("content", "") for c in walk_components(shown.response.components)]
            assert shown.ephemeral and texts[1].startswith("## Steal the Bundle: settings")
            assert "steal-admin" not in " ".join(bob.available_commands(channel))
    finally:
        await bot.storage.close()


async def test_each_ai_move_in_the_playground_shows_on_its_own(tmp_path):
    """A click answers with the player's own move; then each AI seat's move lands on its own,
    about BOT_DELAY apart, so the page shows whose turn it is in between."""
    import asyncio
    import time

    from bot.client import StealBot
    from bot.playground import BOT_DELAY, OPTIONS, SETTLE, build_world, simulated
    from tests.e2e.support.helpers import TURN, moves_of, open_hand, table_text

    def turn(table) -> str:
        return TURN.search(table_text(table)).group(1)

    async def turn_becomes(table, wanted, seconds: float) -> None:
        end = time.monotonic() + seconds
        while wanted(turn(table)) is False and time.monotonic() < end:
            await asyncio.sleep(0.05)

    bot = StealBot(tmp_path / "p.db", options=OPTIONS, sync=True)
    try:
        async with simulated(bot) as env:
            channel, (ann, _, _) = build_world(env)
            table = (await ann.slash(channel, "steal new", bots=2)).response
            await ann.click(table, label="Start")
            await turn_becomes(table, lambda who: who == "ann", 4 * BOT_DELAY)
            assert turn(table) == "ann"
            hand = await open_hand(table, ann)
            move = next(b for b in moves_of(hand) if not b.get("disabled"))

            started = time.monotonic()
            await ann.click(hand, custom_id=move["custom_id"])
            answered = time.monotonic() - started

            first = turn(table)
            assert answered < SETTLE and "bot" in first, (answered, first)  # an AI's turn now
            await turn_becomes(table, lambda who: who != first, 2 * BOT_DELAY)
            second = turn(table)
            assert "bot" in second and second != first  # the second AI's turn, on its own
            await turn_becomes(table, lambda who: who == "ann", 2 * BOT_DELAY)
            assert turn(table) == "ann"
    finally:
        if bot.app is not None:
            await bot.app.close()


# What the page in Chromium shows: whose turn the table says ("🔵 Turn: **ann**"), whether the
# game is over, and which buttons it would let ann click.
SHOWN = """(() => {
  const table = document.querySelector('article.channel-message[data-message-id="%s"]');
  const text = table ? table.innerText : "";
  const lines = [...(table ? table.querySelectorAll("p") : [])];
  const line = lines.find((p) => /Turn:/.test(p.textContent));
  const turn = line?.querySelector("strong")?.textContent;
  const enabled = [...document.querySelectorAll("button.component-button[data-control-key]")]
    .filter((b) => !b.disabled && b.getAttribute("aria-disabled") !== "true")
    .map((b) => b.dataset.controlKey);
  return {turn: turn ? turn.trim() : null,
          over: /game over|🏆/.test(text), enabled,
          status: document.querySelector("#action-status")?.innerText || ""};
})()"""
# Every state the page went through, recorded in the page as it changes (a MutationObserver),
# not sampled by the test: a state the page showed for a moment is seen even when this
# process, busy, looks only seconds later.
RECORD = """(() => {
  window.__seen = [];
  const now = () => {
    const table = document.querySelector(
      `article.channel-message[data-message-id="${window.__table}"]`);
    const line = [...(table ? table.querySelectorAll("p") : [])]
      .find((p) => /Turn:/.test(p.textContent));
    const turn = line?.querySelector("strong")?.textContent;
    return {turn: turn ? turn.trim() : null,
            over: /game over|🏆/.test(table ? table.textContent : ""),
            status: document.querySelector("#action-status")?.textContent || ""};
  };
  new MutationObserver(() => {
    const state = now(), last = window.__seen[window.__seen.length - 1];
    if (!last || ["turn", "over", "status"].some((k) => last[k] !== state[k]))
      window.__seen.push(state);
  }).observe(document, {subtree: true, childList: true, characterData: true});
})()"""
CLICK = """document.querySelector('button[data-control-key="%s"]').click()"""
# A person picking a channel in the playground's Channel menu.
PICK = """(() => {
  const menu = document.querySelector("#playground-channel");
  menu.value = "%s";
  menu.dispatchEvent(new Event("change"));
})()"""


def control(page: Page, wanted: str) -> str | None:
    """The control key of ann's newest enabled button whose custom id holds `wanted`
    (":move:" for her hand's moves, ":table:hand:" for My hand): custom ids are not in the
    page's DOM, so they are read through the preview's protocol, as ann."""
    messages = sorted(page.refresh().values(), key=lambda m: int(m["id"]), reverse=True)
    for message in messages:
        for button in walk(message):
            if wanted in (button.get("custom_id") or "") and not button.get("disabled"):
                return button["control_key"]
    return None


@pytest.mark.slow  # a playground subprocess and Chromium
def test_ai_moves_show_in_the_page_on_their_own(tmp_path):
    """A game against two AI seats in headless Chromium: ann's page shows every AI move, the
    hand becoming hers again and the end screen without a click of any kind (no Refresh)."""
    import asyncio

    from tests.support.browser import Browser

    async def play(base: str, capability: str) -> tuple[int, int, list[list[str]]]:
        ann = Page(base, capability, open_page(base, capability)[0]["viewers"][0]["id"])
        async with Browser(tmp_path / "chromium") as page:
            await page.open(f"{base}/#{capability}")
            # A busy machine may answer after the settle limit (0.8 s at this pace): the bot
            # goes on, and the lobby shows when it is posted. A 40-card deck: 12 moves of
            # ann's where the 52-card one takes 16, and the same page to follow.
            ann.command("steal new", ("settled", "timeout"), bots=2, rules="casita")
            for _ in range(600):
                lobbies = [m for m in ann.refresh().values() if "Start" in labels_of(m)]
                if lobbies:
                    break
                await asyncio.sleep(0.1)
            table_id = max(lobbies, key=lambda m: int(m["id"]))["id"]
            shown = SHOWN % table_id
            await page.until("document.readyState", lambda ready: ready == "complete")
            await page.run(f"window.__table = {json.dumps(table_id)}")
            await page.run(RECORD)
            clicks, moves, rounds = 0, 0, []

            def after_ann(seen: list[dict]) -> list[dict]:
                """The states after ann's own move showed (her turn, still, at first)."""
                return list(itertools.dropwhile(lambda s: s["turn"] == "ann", seen))

            def ai_turns_then_ann(seen: list[dict]) -> bool:
                """Her move, then the game's end, or another's turn and then hers again."""
                rest = after_ann(seen)
                return any(s["over"] for s in rest) or any(s["turn"] == "ann" for s in rest)

            async def click(key: str) -> int:
                """Click as a person does: once the button shows, and the page is not busy
                with an action of its own (it drops a click meanwhile, as SimCord's does).
                Returns where the page's record stood at the click."""
                nonlocal clicks
                idle = await page.until(
                    shown, lambda s: key in s["enabled"] and not s["status"].endswith("…")
                )
                start = await page.run("window.__seen.length")
                await page.run(CLICK % key)
                clicks += 1
                # The page took the click: its status changed, if only for a moment.
                await page.until(
                    f"window.__seen.slice({start}).map((s) => s.status)",
                    lambda statuses: any(s != idle["status"] for s in statuses),
                    10,
                )
                return start

            start = next(b for b in walk(ann.refresh()[table_id]) if b.get("label") == "Start")
            await click(start["control_key"])
            await page.until(shown, lambda s: s["turn"] is not None)
            while True:
                # Nothing is clicked until the page, on its own, shows ann's turn or the end.
                state = await page.until(shown, lambda s: s["over"] or s["turn"] == "ann")
                if state["over"]:
                    return clicks, moves, rounds
                move = control(ann, ":move:")
                if move is None:  # no hand yet: My hand, once
                    await click(control(ann, ":table:hand:"))
                    for _ in range(600):
                        if (move := control(ann, ":move:")) is not None:
                            break
                        await asyncio.sleep(0.1)
                at = await click(move)
                moves += 1
                # What the page showed, change by change, until ann's turn came back.
                seen = await page.until(f"window.__seen.slice({at})", ai_turns_then_ann)
                turns: list[str] = []
                for state in after_ann(seen):
                    if state["over"] or state["turn"] == "ann":
                        break
                    if state["turn"] and state["turn"] not in turns:
                        turns.append(state["turn"])
                rounds.append(turns)
                assert moves < 60, "the game did not end"

    command = [sys.executable, "-m", "bot.playground", "--port", "0", "--no-browser"]
    command += ["--bot-delay", str(PACE)]
    with playground(tmp_path, tmp_path / "playground.db", command) as (_, base, capability, _l):
        clicks, moves, rounds = asyncio.run(play(base, capability))
    # One click a move, plus Start and My hand, where twice as many were needed when each AI
    # move waited for Refresh.
    assert moves >= 5 and clicks == moves + 2, (clicks, moves)
    # Between two of ann's moves the page showed both AI seats' turns (the second one's only
    # by itself), in most rounds at least: a very busy machine may merge two changes.
    both = [turns for turns in rounds if len(turns) == 2]
    assert len(both) * 2 >= len(rounds), rounds
    assert {name for turns in rounds for name in turns} == {"🤖 Medium bot", "🤖 Medium bot 2"}


async def test_ai_seats_play_on_when_the_bot_overran_simcords_settle_limit(tmp_path):
    """SimCord fires the bot's timers on the wall clock and then waits for the bot to settle;
    when the bot takes longer (a busy machine, several tables' pictures), SimCord keeps the
    timeout for the next page action and fires no timer until then. The playground drops it,
    so AI seats (and turn, lobby and tournament deadlines) go on with nobody clicking."""
    import asyncio
    import time

    import simcord

    from bot.client import StealBot
    from bot.playground import OPTIONS, SETTLE, build_world
    from bot.playground_live import Live
    from tests.e2e.support.helpers import TURN, moves_of, open_hand, table_text

    def turn(table) -> str:
        return TURN.search(table_text(table)).group(1)

    async def turn_becomes(table, wanted: str, seconds: float = 60) -> None:
        end = time.monotonic() + seconds  # a bounded wait for the wall-clock timers
        while turn(table) != wanted and time.monotonic() < end:
            await asyncio.sleep(0.05)

    bot = StealBot(tmp_path / "p.db", options=OPTIONS, sync=True)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, (ann, _, _) = build_world(env)
            table = (await ann.slash(channel, "steal new", bots=2)).response
            await ann.click(table, label="Start")
            await turn_becomes(table, "ann")
            hand = await open_hand(table, ann)
            move = next(b for b in moves_of(hand) if not b.get("disabled"))
            env.settle_timeout = SETTLE  # the click ends with ann's own move, as in the page
            await ann.click(hand, custom_id=move["custom_id"])
            assert turn(table) != "ann"
            env.settle_timeout = 0.01  # every timer's work now overruns the limit
            following = asyncio.ensure_future(Live(env, channel).follow())
            try:
                await turn_becomes(table, "ann")
                assert turn(table) == "ann"  # both AI seats played, nobody clicked
            finally:
                following.cancel()
                env.settle_timeout = 5.0
                env._real_advance_task = None  # so the bot shuts down cleanly
    finally:
        if bot.app is not None:
            await bot.app.close()


async def test_the_page_shows_a_tournament_table_in_its_thread(tmp_path):
    """Tournament tables are played in threads: the page's Channel menu lists the channel and
    its threads, and picking one shows it, with its table, to every page."""
    import aiohttp
    import simcord

    from bot.client import StealBot
    from bot.playground import OPTIONS, build_world
    from bot.playground_live import CHANNELS, Live
    from tests.support.browser import Browser

    bot = StealBot(tmp_path / "p.db", options=OPTIONS, sync=True)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, (ann, bob, _) = build_world(env)
            live = Live(env, channel)
            preview = env.preview(channel, viewers=[ann, bob], layout="channel", port=0)
            live.attach(preview)
            async with preview, aiohttp.ClientSession() as http:
                base, capability = preview.url.split("/#")
                auth = {"X-Simcord-Capability": capability}

                async def menu(status: int = 200, **query: str) -> dict:
                    async with http.get(base + CHANNELS, params=query, headers=auth) as r:
                        assert r.status == status
                        return await r.json() if status == 200 else {}

                assert (await menu())["channels"] == [
                    {"id": str(channel.id), "name": "#steal-the-bundle"}
                ]
                async with http.get(base + "/") as r:  # the page loads the menu's script
                    assert '<script type="module" src="/playground.js">' in await r.text()

                await ann.slash(channel, "steal tournament new", name="Cup", table_size=2)
                for member in (ann, bob):
                    await member.slash(channel, "steal tournament join")
                await ann.slash(channel, "steal tournament start")
                # The tables' threads are made after the answer: wait for the bot to be idle
                # (a busy machine makes their pictures slowly).
                await env.settle(timeout=60)
                listed = await menu()
                assert [c["name"] for c in listed["channels"]] == [
                    "#steal-the-bundle",
                    "🧵 Cup · R1 T1",
                ]
                thread = listed["channels"][1]["id"]
                # In Chromium: the menu lists the thread; picking it shows the thread.
                async with Browser(tmp_path / "chromium") as browser:
                    await browser.open(preview.url)
                    options = "[...document.querySelectorAll('#playground-channel option')]"
                    await browser.until(f"{options}.length", lambda n: n == 2)
                    await browser.run(PICK % thread)
                    name = "document.querySelector('#channel-name')?.textContent"
                    await browser.until(name, lambda shown: shown == "Cup · R1 T1")
                assert (await menu())["shown"] == thread

                async with http.post(base + "/api/pages", json={}, headers=auth) as r:
                    page = await r.json()
                assert page["channel"]["name"] == "Cup · R1 T1"
                shown = [shown_text(m) for m in page["messages"].values()]
                assert any("Turn: **" in words for words in shown), shown  # the table

                # Only with the page's capability, and only this channel and its threads.
                await menu(404, show=str(channel.id + 1))
                async with http.get(base + CHANNELS) as r:
                    assert r.status == 401
    finally:
        if bot.app is not None:
            await bot.app.close()
