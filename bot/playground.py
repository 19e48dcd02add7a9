"""`python -m bot.playground`: the real bot on a simulated Discord (SimCord), in your browser.

No token needed. The bot runs unmodified; SimCord's preview serves #steal-the-bundle as a web
page on 127.0.0.1, with three members (ann, bob, cat) whose view the page can switch to. The
page follows the bot by itself (AI moves, the table, hands, the end screen), its Channel menu
shows the channel's threads (tournament tables), and the bot's timers run on the wall clock:
bot/playground_live.py says how.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import webbrowser
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.domain.options import Options
from bot.playground_live import Live

if TYPE_CHECKING:
    import simcord

    from bot.client import StealBot

# SimCord's clock is virtual and starts at a fixed instant, so ids created in the same order get
# the same values every run; the guild id is pinned too. Stored games and the leaderboard in
# data/playground.db therefore still match the simulated guild, channel and members after a
# restart.
GUILD_ID = 1_300_000_000_000_000_000
CHANNEL = "steal-the-bundle"
# Real names: the bot writes "It's ann's turn", "**ann** wins"; a member named "you" read as
# "It's you's turn". Ids come from the order of creation, not the names, so games stored by
# earlier versions still belong to the same members.
MEMBERS = ("ann", "bob", "cat")

# SimCord answers a click (the page says "Completing action…", its buttons greyed) once the
# bot has no work left that is due within SETTLE seconds. An AI opponent waits BOT_DELAY before
# it plays, so people can follow: longer than SETTLE, a click ends with the player's own move,
# and each AI seat's move then comes on its own, on the wall clock, and the page shows it by
# itself (Live.follow; with a wait under SETTLE, the click waited for every AI seat).
# `--bot-delay` sets another pace (the tests play faster); SETTLE follows it (`settle_for`).
SETTLE = 1.2
BOT_DELAY = 1.5
# No turn timer by default, so someone trying the page alone is not hurried (ann can set one
# in /steal-admin settings); lobbies close after the server settings' default 10 minutes.
# Timers run on the wall clock. No gap between table edits: it keeps Discord's per-channel
# rate limit, which a local page does not have, so the table follows every move at once.
OPTIONS = Options(turn_seconds=None, lobby_seconds=None, edit_gap=0.0, bot_delay=BOT_DELAY)


def settle_for(bot_delay: float) -> float:
    """SimCord's settle limit for an AI pace: SETTLE, or less when the AI seats wait less, so a
    click still ends before the first AI seat plays (the same 4:5 as the default pace)."""
    return min(SETTLE, bot_delay * SETTLE / BOT_DELAY)


# Start-up warnings that say nothing about the playground, dropped from its log: discord.py
# says voice needs PyNaCl and davey (the bot has no voice, on Discord either), and SimCord's
# import-time self-check makes a throwaway client with no intents, which discord.py says may
# lack the Guilds intent (the bot itself asks for the default intents, Guilds included).
QUIET = (
    "PyNaCl is not installed",
    "davey is not installed",
    "Guilds intent seems to be disabled",
)


def quiet(record: logging.LogRecord) -> bool:
    return not record.getMessage().startswith(QUIET)


BANNER = """\
Steal the Bundle: local playground
  The real bot is running against a simulated Discord on this computer (no token needed).
  Open {url}
  Type /steal new in the channel; switch the viewer to bob or cat to play their seats.
  The page follows the bot by itself; its Channel menu shows the threads (tournament tables).
  ann is a server admin here: try /steal-admin settings.
  Games are saved in {database}.
  To connect to Discord instead, put DISCORD_TOKEN=... in .env (see README.md).
  Press Ctrl-C to stop.
"""


@contextlib.asynccontextmanager
async def simulated(bot: StealBot, settle: float = SETTLE) -> AsyncIterator[simcord.Env]:
    """The bot on SimCord, paced for people: see SETTLE. Start-up keeps SimCord's own
    (longer) limit: it migrates the database and syncs the commands."""
    import simcord

    async with simcord.run(bot, check_errors=False) as env:
        env.settle_timeout = settle
        yield env


def build_world(env: simcord.Env) -> tuple[Any, list[Any]]:
    """The simulated server: a guild with #steal-the-bundle and three members, always built in
    the same order (so with the same ids)."""
    import discord

    guild = env.create_guild("Playground", id=GUILD_ID)
    channel = guild.create_text_channel(CHANNEL)
    members = [guild.add_member(env.create_user(name)) for name in MEMBERS]
    # ann may try /steal-admin: a role with Manage Server, made after the members so their
    # ids stay what earlier versions stored.
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    env.backend.add_member_role(guild.id, members[0].id, admins.id)
    return channel, members


async def welcome(bot: StealBot, channel_id: int) -> None:
    """The bot's one-line welcome, so the page does not open on an empty channel."""
    from bot.i18n import DEFAULT, t

    await bot.wait_until_ready()
    channel = bot.get_partial_messageable(channel_id, guild_id=GUILD_ID)
    await channel.send(t(DEFAULT, "playground.welcome", new="`/steal new`"))


def seconds(text: str) -> float:
    value = float(text)
    if not 0 < value <= 60:
        raise argparse.ArgumentTypeError("between 0 and 60 seconds")
    return value


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot.playground", description=__doc__)
    parser.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (0: any free)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument(
        "--database",
        default=os.environ.get("DATABASE_URL", "").strip() or "data/playground.db",
        help="a SQLite file or a database URL (default: $DATABASE_URL, else data/playground.db)",
    )
    parser.add_argument(
        "--bot-delay",
        type=seconds,
        default=BOT_DELAY,
        help=f"seconds an AI opponent waits before it plays (default: {BOT_DELAY})",
    )
    return parser.parse_args(argv)


async def serve(args: argparse.Namespace, stop: asyncio.Event | None = None) -> int:
    from bot.client import StealBot
    from bot.storage import parse as parse_database

    bot = StealBot(args.database, options=replace(OPTIONS, bot_delay=args.bot_delay), sync=True)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        async with simulated(bot, settle_for(args.bot_delay)) as env:
            channel, members = build_world(env)
            await welcome(bot, channel.id)
            live = Live(env, channel)
            preview = env.preview(channel, viewers=members, layout="channel", port=args.port)
            live.attach(preview)
            async with preview:
                following = asyncio.ensure_future(live.follow())
                shown = str(parse_database(args.database))  # never the password
                print(BANNER.format(url=preview.url, database=shown), flush=True)
                if not args.no_browser:
                    with contextlib.suppress(Exception):
                        webbrowser.open(preview.url)
                closed = asyncio.ensure_future(preview.wait_closed())
                stopped = asyncio.ensure_future(stop.wait())
                await asyncio.wait({closed, stopped}, return_when=asyncio.FIRST_COMPLETED)
                for task in (closed, stopped, following):
                    task.cancel()
    finally:
        if bot.app is not None:
            await bot.app.close()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
    print("Playground stopped.", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    for name in ("discord.client", "discord.state"):
        logging.getLogger(name).addFilter(quiet)
    try:
        return asyncio.run(serve(args))
    except KeyboardInterrupt:
        return 0
    except Exception as exc:  # e.g. the port is taken
        print(f"The playground could not start: {exc}", file=sys.stderr)
        if "port" in str(exc):
            print("Is another playground running? Try --port 0 (any free port).", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
