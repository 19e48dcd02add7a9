"""What Discord refuses, checked before Discord does: its documented limits on application
commands and on message components, as plain checks over the payloads the bot sends. Each
check returns the problems it found (empty: Discord would take it). SimCord does not enforce
these, so a payload that breaks one would pass every other test and fail on real Discord.

Sources (Discord's developer documentation):
- "Application Commands" (docs/interactions/application-commands): names, descriptions,
  options, choices, integer and number bounds, and the 4000 characters of a command.
- "Component Reference" (docs/components/reference): custom_id, buttons, selects, action
  rows, Components V2 counts and text, media galleries.
- "Messages" (docs/resources/message) and "Embed Limits": content and embeds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

# ----- Application Commands

# "CHAT_INPUT command names and command option names must match ^[-_'\p{L}\p{N}...]{1,32}$"
# and be lower case where the script has case. Python's \w stands in for \p{L}\p{N}.
NAME = re.compile(r"^[-_'\w]{1,32}$")
DESCRIPTION = (1, 100)  # command and option descriptions: 1-100 characters
MAX_OPTIONS = 25  # options (or subcommands) of a command
MAX_CHOICES = 25  # choices of an option
CHOICE_NAME = (1, 100)  # a choice's name, 1-100 characters
CHOICE_STRING_VALUE = 100  # a STRING option's choice value, up to 100 characters
# INTEGER options: "Any integer between -2^53 and 2^53"; NUMBER: "Any double between -2^53 and
# 2^53". min_value / max_value and choice values must lie in that range.
SAFE_INTEGER = 2**53 - 1  # 9,007,199,254,740,991
STRING_LENGTH = (0, 6000)  # min_length 0-6000, max_length 1-6000
# "the combined sum of characters" of a command (name, description, and those of its options,
# choices and subcommands, the longest localization of each) must not exceed 4000.
COMMAND_CHARACTERS = 4000
SUBCOMMAND, GROUP, STRING, INTEGER, NUMBER = 1, 2, 3, 4, 10

# ----- Component Reference, Messages

CUSTOM_ID = (1, 100)  # "a string of 1 to 100 characters", unique per message
BUTTON_LABEL = 80
ROW_CHILDREN = 5  # "up to 5 buttons, or a single select component"
MAX_ROWS = 5  # action rows of a message without Components V2
SELECT_OPTIONS = (1, 25)
SELECT_OPTION_TEXT = 100  # an option's label, value and description
SELECT_PLACEHOLDER = 150
V2_FLAG = 1 << 15  # IS_COMPONENTS_V2
V2_COMPONENTS = 40  # every component of a message, nested ones included
V2_TEXT = 4000  # the characters of every text display of a message, together
SECTION_TEXTS = (1, 3)
GALLERY_ITEMS = (1, 10)
CONTENT = 2000  # a message's content
EMBEDS = 10
EMBED = {"title": 256, "description": 4096, "footer": 2048, "author": 256}
EMBED_FIELDS, FIELD_NAME, FIELD_VALUE, EMBED_TOTAL = 25, 256, 1024, 6000

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    9, 10, 11, 12, 13, 14, 17,
)  # fmt: skip
SELECTS = {3, 5, 6, 7, 8}  # string, user, role, mentionable, channel


def _texts(payload: dict[str, Any], field: str) -> dict[str, str]:
    """The default text and every localization of `field`: locale -> text."""
    return {"default": payload[field], **(payload.get(f"{field}_localizations") or {})}


def _longest(payload: dict[str, Any], field: str) -> int:
    return max(len(text) for text in _texts(payload, field).values())


def command_problems(command: dict[str, Any]) -> list[str]:
    """Everything Discord would refuse in one top-level command's payload (as discord.py
    sends it, localizations included)."""
    path = "/" + command["name"]
    out = _named(command, path)
    characters = _characters(command)
    if characters > COMMAND_CHARACTERS:
        out.append(f"{path}: {characters} characters, over {COMMAND_CHARACTERS}")
    return out


def _named(payload: dict[str, Any], path: str) -> list[str]:
    out = []
    for locale, name in _texts(payload, "name").items():
        if not NAME.fullmatch(name) or name != name.lower():
            out.append(f"{path} [{locale}]: bad name {name!r}")
    for locale, text in _texts(payload, "description").items():
        if not DESCRIPTION[0] <= len(text) <= DESCRIPTION[1]:
            out.append(f"{path} [{locale}]: description of {len(text)} characters")
    options = payload.get("options") or []
    if len(options) > MAX_OPTIONS:
        out.append(f"{path}: {len(options)} options, over {MAX_OPTIONS}")
    locales = {loc for o in options for loc in _texts(o, "name")} | {"default"}
    for locale in sorted(locales):
        names = [_texts(o, "name").get(locale, o["name"]) for o in options]
        if len(names) != len(set(names)):
            out.append(f"{path} [{locale}]: options share a name: {names}")
    required = [o.get("required", False) for o in options if o["type"] not in (SUBCOMMAND, GROUP)]
    if required != sorted(required, reverse=True):
        out.append(f"{path}: a required option comes after an optional one")
    for option in options:
        where = f"{path} {option['name']}"
        out += _named(option, where) + _bounds(option, where)
    return out


def _bounds(option: dict[str, Any], path: str) -> list[str]:
    out = []
    kind = option["type"]
    if kind in (INTEGER, NUMBER):
        for field in ("min_value", "max_value"):
            value = option.get(field)
            if value is not None and not -SAFE_INTEGER <= value <= SAFE_INTEGER:
                out.append(f"{path}: {field} {value} is outside ±2^53")
    if kind == STRING:
        for field in ("min_length", "max_length"):
            value = option.get(field)
            if value is not None and not STRING_LENGTH[0] <= value <= STRING_LENGTH[1]:
                out.append(f"{path}: {field} {value} is outside 0-6000")
    choices = option.get("choices") or []
    if len(choices) > MAX_CHOICES:
        out.append(f"{path}: {len(choices)} choices, over {MAX_CHOICES}")
    for choice in choices:
        for locale, name in _texts(choice, "name").items():
            if not CHOICE_NAME[0] <= len(name) <= CHOICE_NAME[1]:
                out.append(f"{path} choice {choice['name']!r} [{locale}]: {len(name)} chars")
        value = choice["value"]
        if kind == STRING and len(value) > CHOICE_STRING_VALUE:
            out.append(f"{path} choice {choice['name']!r}: value of {len(value)} characters")
        if kind in (INTEGER, NUMBER) and not -SAFE_INTEGER <= value <= SAFE_INTEGER:
            out.append(f"{path} choice {choice['name']!r}: value {value} is outside ±2^53")
    return out


def _characters(payload: dict[str, Any]) -> int:
    """A command's characters as Discord counts them: names, descriptions and choice names
    and values, each at its longest localization, through every option."""
    total = _longest(payload, "name") + _longest(payload, "description")
    for choice in payload.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice["value"]))
    return total + sum(_characters(o) for o in payload.get("options") or [])


# ----- messages


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, nested ones included (rows' children, sections' accessories,
    containers' children)."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        if component.get("accessory"):
            yield from walk([component["accessory"]])


def message_problems(message: dict[str, Any]) -> list[str]:
    """Everything Discord would refuse in a message payload (a send, an edit, or the data of
    an interaction's response)."""
    out: list[str] = []
    content = message.get("content") or ""
    components = message.get("components") or []
    v2 = bool((message.get("flags") or 0) & V2_FLAG)
    if len(content) > CONTENT:
        out.append(f"content of {len(content)} characters, over {CONTENT}")
    out += _embed_problems(message.get("embeds") or [])
    everything = list(walk(components))
    if v2:
        if content or message.get("embeds"):
            out.append("a Components V2 message with content or embeds")
        if len(everything) > V2_COMPONENTS:
            out.append(f"{len(everything)} components, over {V2_COMPONENTS}")
        text = sum(len(c.get("content") or "") for c in everything if c["type"] == TEXT_DISPLAY)
        if text > V2_TEXT:
            out.append(f"{text} characters of text displays, over {V2_TEXT}")
    else:
        if any(c["type"] != ACTION_ROW for c in components):
            out.append("a top-level component other than an action row, without V2")
        if len(components) > MAX_ROWS:
            out.append(f"{len(components)} action rows, over {MAX_ROWS}")
    ids = [c["custom_id"] for c in everything if c.get("custom_id") is not None]
    if len(ids) != len(set(ids)):
        out.append(f"custom_ids repeat: {sorted(i for i in ids if ids.count(i) > 1)}")
    for component in everything:
        out += _component_problems(component)
    return out


def _component_problems(c: dict[str, Any]) -> list[str]:
    out = []
    kind = c["type"]
    custom_id = c.get("custom_id")
    if custom_id is not None and not CUSTOM_ID[0] <= len(custom_id) <= CUSTOM_ID[1]:
        out.append(f"custom_id of {len(custom_id)} characters: {custom_id!r}")
    if kind == ACTION_ROW:
        children = c.get("components") or []
        selects = [x for x in children if x["type"] in SELECTS]
        if not 1 <= len(children) <= ROW_CHILDREN:
            out.append(f"an action row of {len(children)} components")
        if selects and len(children) > 1:
            out.append("an action row with a select and something else")
    elif kind == BUTTON:
        if len(c.get("label") or "") > BUTTON_LABEL:
            out.append(f"a button label of {len(c['label'])} characters: {c['label']!r}")
        if c.get("style") == 5:  # link: a url, no custom_id
            if not c.get("url") or custom_id is not None:
                out.append("a link button needs a url and no custom_id")
        elif c.get("style") != 6 and custom_id is None:  # 6: premium (a sku)
            out.append(f"a button without a custom_id: {c.get('label')!r}")
    elif kind in SELECTS:
        if custom_id is None:
            out.append("a select without a custom_id")
        if len(c.get("placeholder") or "") > SELECT_PLACEHOLDER:
            out.append(f"a placeholder of {len(c['placeholder'])} characters")
        low, high = SELECT_OPTIONS
        if kind == STRING_SELECT:
            options = c.get("options") or []
            if not low <= len(options) <= high:
                out.append(f"a select of {len(options)} options")
            for option in options:
                for field in ("label", "value", "description"):
                    text = option.get(field) or ""
                    if len(text) > SELECT_OPTION_TEXT:
                        out.append(f"a select option's {field} of {len(text)} characters")
            high = min(high, len(options))
        lo, hi = c.get("min_values", 1), c.get("max_values", 1)
        if not (0 <= lo <= hi <= SELECT_OPTIONS[1] and hi <= max(high, 1)):
            out.append(f"a select's min_values {lo} / max_values {hi}")
    elif kind == SECTION:
        texts = c.get("components") or []
        if not SECTION_TEXTS[0] <= len(texts) <= SECTION_TEXTS[1]:
            out.append(f"a section of {len(texts)} text displays")
        if not c.get("accessory"):
            out.append("a section without an accessory")
    elif kind == MEDIA_GALLERY:
        items = c.get("items") or []
        if not GALLERY_ITEMS[0] <= len(items) <= GALLERY_ITEMS[1]:
            out.append(f"a media gallery of {len(items)} items")
    return out


def _embed_problems(embeds: list[dict[str, Any]]) -> list[str]:
    out = []
    if len(embeds) > EMBEDS:
        out.append(f"{len(embeds)} embeds, over {EMBEDS}")
    total = 0
    for embed in embeds:
        texts = {
            "title": embed.get("title") or "",
            "description": embed.get("description") or "",
            "footer": (embed.get("footer") or {}).get("text") or "",
            "author": (embed.get("author") or {}).get("name") or "",
        }
        for field, text in texts.items():
            if len(text) > EMBED[field]:
                out.append(f"an embed {field} of {len(text)} characters")
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            out.append(f"an embed of {len(fields)} fields")
        for f in fields:
            if len(f["name"]) > FIELD_NAME or len(f["value"]) > FIELD_VALUE:
                out.append(f"an embed field of {len(f['name'])} / {len(f['value'])} characters")
        total += sum(map(len, texts.values())) + sum(
            len(f["name"]) + len(f["value"]) for f in fields
        )
    if total > EMBED_TOTAL:
        out.append(f"embeds of {total} characters, over {EMBED_TOTAL}")
    return out


def sent_messages(requests: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every message payload in SimCord's request log: channel sends and edits, interaction
    responses (a message or an update) and their follow-ups and edits."""
    found = []
    for r in requests:
        body = r.json
        if not isinstance(body, dict) or r.method not in ("POST", "PATCH"):
            continue
        where = f"{r.method} {r.path}"
        if r.path.endswith("/callback"):
            if body.get("type") in (4, 7) and isinstance(body.get("data"), dict):
                found.append((where, body["data"]))
        elif "/messages" in r.path or r.path.startswith("/webhooks/"):
            found.append((where, body))
    return found
