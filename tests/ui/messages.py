"""Reading a rendered Components V2 Message (bot.ui.render.Message) in unit tests, as the
SimCord tests read a sent one (tests/e2e/support/helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import discord
from simcord.components import validate_components

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


V2 = 1 << 15  # the IS_COMPONENTS_V2 message flag


def within_limits(message: Message) -> None:
    assert message.v2
    assert components(message) <= 40, components(message)
    assert characters(message) <= 4000, characters(message)
    assert all(len(text) <= 4000 for text in texts(message))
    validate_components(message.view.to_components(), flags=V2)  # type: ignore[union-attr]


def parts(message: Message) -> Iterator[tuple[str, bool | None]]:
    """(text, is markdown; None for alt text) of everything a message shows."""
    if message.content:
        yield message.content, True
    for embed in [message.embed] if message.embed else []:
        yield from ((x, True) for x in (embed.title, embed.description) if x)
        for field in embed.fields:
            yield str(field.name), True
            yield str(field.value), True
        if embed.footer.text:
            yield embed.footer.text, True
    view = message.view
    if view is None:
        return
    items = view.walk_children() if isinstance(view, discord.ui.LayoutView) else view.children
    for item in items:
        if isinstance(item, discord.ui.TextDisplay):
            yield item.content, True
        elif isinstance(item, discord.ui.Button):
            yield item.label or "", False
        elif isinstance(item, discord.ui.Select):
            yield item.placeholder or "", False
            for option in item.options:
                yield option.label, False
        elif isinstance(item, discord.ui.MediaGallery):
            for media in item.items:
                yield media.description or "", None
