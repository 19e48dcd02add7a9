"""The local playground: `python -m bot.playground` serves the real bot's channel over HTTP
(start-up, storage, `make run`, a whole game played through the page's protocol)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import uuid

import pytest

from bot import config
from bot.domain.options import Options
from tests.support.playground import Page, call, environment, open_page, playground, shown_text


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


@pytest.mark.slow  # a playground subprocess
def test_a_whole_game_is_played_in_the_page(tmp_path):
    with playground(tmp_path, tmp_path / "playground.db") as (_, base, capability, _lines):
        first, _ = open_page(base, capability)
        pages = {v["name"]: Page(base, capability, v["id"]) for v in first["viewers"]}
        ann, bob = pages["ann"], pages["bob"]
        ann.command("steal new", rules="casita")  # 40 cards: fewer moves, the same page
        table_id = max(ann.refresh().values(), key=lambda m: int(m["id"]))["id"]
        bob.click(bob.refresh()[str(table_id)], "Join")
        # Start is enabled once Bob sits: read from Bob's page, the one republished last.
        ann.click(bob.refresh()[str(table_id)], "Start")
        last, moves, opened = ann, 0, set()
        while True:
            table = last.refresh()[str(table_id)]
            words = shown_text(table)
            if words.splitlines()[0].endswith("game over"):
                break
            name = re.search(r"Turn: \*\*(.+?)\*\*", words).group(1)
            player = pages[name]
            if name not in opened:  # once, as a person does: the hand then follows the game
                player.click(table, "My hand")
                opened.add(name)
            for _ in range(200):  # the page shows the hand's edit within about 0.5 s
                hand = max(
                    (m for m in player.refresh().values() if "🃏 Your hand" in shown_text(m)),
                    key=lambda m: int(m["id"]),
                )
                if "Your turn" in shown_text(hand):
                    break
                time.sleep(0.05)
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
