"""Screenshots of the global ladder (`/steal leaderboard scope:global`) and `/steal profile`
in the local playground, in French, at a phone's width (360 px), in Discord's dark and light
themes.

    .venv/bin/python -m scripts.ladder_shots [--chromium /usr/bin/chromium] [--out DIR]

Writes ladder-fr-phone.png and ladder-fr-phone-light.png (ann has shown her name, the others
are "un joueur"), and profile-fr-phone.png (her private answer, then her stats with her global
rank). The light theme: scripts/_shots.py. Needs Chromium; tests never run this.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from ._playground import history, members_speak, playground, scratch, storage_of
from ._shots import arguments, shooter

PHONE, HEIGHT = 360, 1000


async def main(chromium: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with scratch() as tmp:
        async with playground(tmp / "playground.db", greet=True) as (bot, env, channel, members):
            ann, bob = members[:2]
            storage = storage_of(bot)
            await history(storage, channel, members, ("dora", "eli", "fay", "gus"), 24)
            sessions = bot.sessions
            assert sessions is not None
            await sessions.records.set_setting(channel.guild.id, "language", "fr")
            members_speak("fr")
            shot = shooter(env, channel, members, chromium, out, tmp / "chrome")
            await ann.slash(channel, "steal profile", global_name="show")
            await bob.slash(channel, "steal leaderboard", scope="global")
            await shot("ladder-fr-phone", PHONE, HEIGHT)
            await shot("ladder-fr-phone-light", PHONE, HEIGHT, light=True)
            await env.advance_time(11)  # past the cooldowns
            await ann.slash(channel, "steal stats")
            await shot("profile-fr-phone", PHONE, HEIGHT + 300)


if __name__ == "__main__":
    args = arguments(__doc__)
    asyncio.run(main(args.chromium, args.out))
