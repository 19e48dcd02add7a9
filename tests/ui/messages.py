"""Reading a rendered Components V2 Message (bot.ui.render.Message) in unit tests, as the
SimCord tests read a sent one (tests/discord/helpers.py)."""

from __future__ import annotations

import discord

from bot.ui.render import Message


def items(message: Message) -> list[discord.ui.Item]:
    """Every component of the layout, nested ones included, in order."""
    assert isinstance(message.view, discord.ui.LayoutView), message
    return list(message.view.walk_children())


def texts(message: Message) -> list[str]:
    return [i.content for i in items(message) if isinstance(i, discord.ui.TextDisplay)]


def labels(message: Message) -> list[str]:
    return [i.label or "" for i in items(message) if isinstance(i, discord.ui.Button)]


def title(message: Message) -> str:
    return texts(message)[0].splitlines()[0].lstrip("#").strip()


def description(message: Message) -> str:
    return "\n".join(texts(message)[0].splitlines()[1:])


def fields(message: Message) -> dict[str, str]:
    """Each text display that starts with a bold line: name -> the lines under it."""
    out = {}
    for shown in texts(message):
        first, _, rest = shown.partition("\n")
        if first.startswith("**") and first.endswith("**"):
            out[first[2:-2]] = "\n".join(line.removeprefix("-# ") for line in rest.splitlines())
    return out


def components(message: Message) -> int:
    """What Discord counts against its 40 components a message: every component."""
    return len(items(message))


def characters(message: Message) -> int:
    """What Discord counts against its 4,000 characters a message: all text displays."""
    return sum(len(t) for t in texts(message))
