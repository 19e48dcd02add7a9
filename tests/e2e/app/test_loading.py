"""Start-up runs every module of the project once: the bot, started as `python -m bot` builds
it, on SimCord, in a fresh interpreter that counts each module body Python executes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# Counts module bodies through the interpreter's audit hook: importlib runs each one with
# exec(), which raises an "exec" event with the module's code object.
SCRIPT = r"""
import asyncio, json, sys
root, database = sys.argv[1], sys.argv[2]
runs = {}

def count(event, args):
    if event == "exec" and getattr(args[0], "co_name", None) == "<module>":
        path = args[0].co_filename
        if path.startswith(root) and "/.venv/" not in path:
            runs[path] = runs.get(path, 0) + 1

sys.addaudithook(count)

import simcord
from bot.__main__ import make_bot
from bot.config import load

async def main():
    bot = make_bot(load({"DISCORD_TOKEN": "not-used", "DATABASE_PATH": database}), sync=True)
    async with simcord.run(bot) as env:
        channel = env.create_guild().create_text_channel("games")
        ann = channel.guild.add_member(env.create_user("ann"))
        lobby = (await ann.slash(channel, "steal new")).response
        joined = await ann.click(lobby, label="Leave")
        from cogs.admin import Admin
        from cogs.steal import Steal
        cogs = {
            "Steal": isinstance(bot.get_cog("Steal"), Steal),
            "Admin": isinstance(bot.get_cog("Admin"), Admin),
        }
        shown = str(joined.response.content or joined.response.components)
    await bot.app.close()
    print(json.dumps({"runs": runs, "cogs": cogs, "shown": shown}))

asyncio.run(main())
"""


def test_start_up_runs_each_module_once_and_the_loaded_cogs_are_the_imported_classes(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT), str(tmp_path / "bot.db")],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    runs = {Path(p).relative_to(ROOT).as_posix(): n for p, n in found["runs"].items()}
    counted = ("cogs/steal/_commands.py", "bot/adapter/presenter/__init__.py")
    assert all(path in runs for path in counted)  # it counted
    assert {p: n for p, n in runs.items() if n > 1} == {}
    assert found["cogs"] == {"Steal": True, "Admin": True}
    assert "lobby" in found["shown"].lower()  # the Leave click was answered by its handler
