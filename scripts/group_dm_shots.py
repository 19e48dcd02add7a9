"""Screenshots of a game in a group DM, through the group-DM test layer
(tests/e2e/support/group_dm.py) on the local playground, with headless Chromium: the bot is no
member there, so every message is an interaction's answer or follow-up.

    .venv/bin/python -m scripts.group_dm_shots [--chromium /usr/bin/chromium] [--out DIR]

Writes, in English and in Spanish (`-en`, `-es`), each at a phone's width (360 px) in Discord's
dark theme and in its light one (`-light`):
- group-dm-lobby: the lobby, two friends joined (neither installed the app);
- group-dm-turn: the table some moves in, the turn ping (a follow-up that mentions the player);
- group-dm-moved: just after the table was reposted as a follow-up: the old one, above, is a
  stub that links to it;
- group-dm-paused: no click for 15 minutes: the game paused and its table says so;
- group-dm-resumed: the first click on it: the game goes on and says so.
And group-dm-table.png, group-dm-paused.png: the desktop width, English, dark.
SimCord's preview shows a DM to its owner: the group DM is shown to its first member as their
DM. Needs Chromium; tests never run this.
"""

from __future__ import annotations

import asyncio
import importlib
from pathlib import Path
from typing import Any

import pytest
from simcord.builders import ChannelHandle

from bot.i18n import t

from ._playground import LOCALES, members_speak, playground, scratch
from ._shots import arguments, capture

WIDTH, PHONE, HEIGHT = 1000, 360, 1500
# The group-DM layer and its play helpers are the tests' (untyped; mypy does not check tests):
# loaded by name, as a script uses them.
LAYER = importlib.import_module("tests.e2e.support.group_dm")
PLAY = importlib.import_module("tests.e2e.support.gdm_play")
HELP = importlib.import_module("tests.e2e.support.helpers")


class Shots:
    def __init__(self, env: Any, gdm: Any, viewer: Any, chromium: str, out: Path, tmp: Path):
        self.env, self.gdm, self.viewer = env, gdm, viewer
        self.chromium, self.out, self.tmp = chromium, out, tmp

    async def one(self, name: str, width: int, *, light: bool = False) -> None:
        env, gdm = self.env, self.gdm
        channel = ChannelHandle(env, None, env.backend.get_channel(gdm.channel_id))
        env.backend.dm_channels[self.viewer.id] = gdm.channel_id  # the preview's DM rule
        await capture(env, channel, [self.viewer], self.chromium, self.out / f"{name}.png",
                      self.tmp / "profile", width, HEIGHT, light=light)  # fmt: skip

    async def phone(self, name: str, lang: str) -> None:
        await self.one(f"{name}-{lang}", PHONE)
        await self.one(f"{name}-{lang}-light", PHONE, light=True)


async def game(lang: str, chromium: str, out: Path, tmp: Path) -> None:
    members_speak(LOCALES[lang])  # before the layer, which wraps the payloads it makes
    patches = pytest.MonkeyPatch()
    try:
        async with playground(tmp / f"gdm-{lang}.db") as (_, env, _, _):
            people = [env.create_user(n) for n in ("ann", "bob", "cat")]
            gdm = LAYER.TokenPlace.group_dm(env, patches, people, installer=people[0])
            shots = Shots(env, gdm, people[0], chromium, out, tmp)
            lobby = (await gdm.slash(people[0], "steal new")).response
            for person in people[1:]:
                await gdm.click(person, lobby, label=t(lang, "lobby.button.join"))
            await shots.phone("group-dm-lobby", lang)
            await gdm.click(people[0], lobby, label=t(lang, "lobby.button.start"))
            hands: dict[int, Any] = {}
            for _ in range(3):
                await PLAY.play_one(gdm, people, hands)
                await env.advance_time(20)
            await env.advance_time(40)  # the player to act sits idle: pinged
            await shots.phone("group-dm-turn", lang)
            first = PLAY.table_of(gdm, people[0]).id
            moves = 0
            while PLAY.table_of(gdm, people[0]).id == first:  # a move every minute: reposted
                await PLAY.play_one(gdm, people, hands)
                await env.advance_time(60)
                moves += 1
                if moves > 30:
                    raise SystemExit("the table was never reposted")
            await shots.phone("group-dm-moved", lang)
            if lang == "en":
                await shots.one("group-dm-table", WIDTH)
            await env.advance_time(15 * 60)
            await shots.phone("group-dm-paused", lang)
            if lang == "en":
                await shots.one("group-dm-paused", WIDTH)
            shown = PLAY.table_of(gdm, people[0])
            mine = next(b["custom_id"] for b in HELP.buttons(shown)
                        if ":table:hand:" in b["custom_id"])  # fmt: skip
            await gdm.click(HELP.whose_turn(shown, people), shown, custom_id=mine)
            await shots.phone("group-dm-resumed", lang)
            if gdm.refused or gdm.bot_token_calls():
                raise SystemExit("the bot token was used in the group DM")
    finally:
        patches.undo()


async def main(chromium: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with scratch() as tmp:
        for lang in ("en", "es"):
            await game(lang, chromium, out, tmp)


if __name__ == "__main__":
    args = arguments(__doc__)
    asyncio.run(main(args.chromium, args.out))
