"""What a member reads on a message, whatever its form: content, embeds, or a Components V2
layout's text displays and buttons. Shared by the tests/e2e/*/test_screens_*.py tests."""

from __future__ import annotations

from typing import Any

from simcord.components import walk_components


def parts(message) -> list[dict[str, Any]]:
    """Every component of a message (nested V2 children included), as dicts."""
    rows = [r if isinstance(r, dict) else r.to_dict() for r in message.components]
    return list(walk_components(rows))


def texts(message) -> list[str]:
    """The message's words: its content, embeds, text displays and button labels."""
    out = [message.content or ""]
    for embed in message.embeds:
        out += [embed.title or "", embed.description or ""]
        out += [f"{f.name}\n{f.value}" for f in embed.fields]
        out.append(embed.footer.text or "")
    for part in parts(message):
        if part.get("type") == 10:  # a text display
            out.append(part["content"])
        if part.get("type") == 2 and part.get("label"):
            out.append(part["label"])
    return [text for text in out if text]


def text(message) -> str:
    return "\n".join(texts(message))


def buttons(message) -> list[dict[str, Any]]:
    return [p for p in parts(message) if p.get("type") == 2]


def link_buttons(message) -> list[dict[str, Any]]:
    return [b for b in buttons(message) if b.get("style") == 5]


def images(message) -> list[str]:
    """The file names of the pictures a layout's media galleries and thumbnails show (SimCord
    turns attachment://name into the attachment's URL)."""
    found = []
    for part in parts(message):
        if part.get("type") == 12:
            found += [item["media"]["url"] for item in part.get("items", [])]
        if part.get("type") == 11:
            found.append(part["media"]["url"])
    return [url.rsplit("/", 1)[-1] for url in found]


def go_to(message) -> str | None:
    """The url of a message's "Go to the table" link button, if it has one."""
    found = [b["url"] for b in link_buttons(message) if b.get("label") == "Go to the table"]
    return found[0] if found else None


def raised(env) -> list[str]:
    """The session errors slash commands raised and answered (SimCord records them); reading
    them acknowledges them."""
    return [type(getattr(e, "original", e)).__name__ for e in env.errors]


def descriptions(message) -> list[str]:
    """The descriptions (alt texts) of a layout's media gallery items."""
    return [
        item["description"]
        for part in parts(message)
        if part.get("type") == 12
        for item in part.get("items", [])
        if item.get("description")
    ]


def figures(message) -> dict[str, str]:
    """The figures /steal stats gives: label -> value, from its card's description ("Games:
    7 · Wins: 3 · ...", after the player's name and " — ") and its words under the card ("Steals:
    **4**")."""
    import re

    found = {}
    lines = [d.split(" — ", 1)[1] for d in descriptions(message)]
    for line in lines + text(message).splitlines():
        for item in line.split(" · "):
            m = re.fullmatch(r"(.+?)\s?: (\*\*)?(.+?)(\*\*)?", item)
            if m:
                found[m.group(1)] = m.group(3)
    return found


async def lobby_rules(member, channel) -> dict[str, str]:
    """The rules of the channel's lobby as its one rules line leads to them (/steal rules,
    then its Full rules page): {its title ("Standard rules"): its words}."""
    shown = (await member.slash(channel, "steal rules")).response
    await member.click(shown, label="Full rules")
    words = text(shown)
    return {words.splitlines()[0].removeprefix("## 📖 ").strip(): words}
