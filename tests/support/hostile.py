"""Hostile names and the checks that none of them acts on a screen (tests/ui and
tests/e2e both read them)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from hypothesis import strategies as st

SEATS = ("111111111111111111", "222222222222222222", "ai:medium:1", "333333333333333333")
HUMANS = [s for s in SEATS if not s.startswith("ai:")]
HOSTILE = [
    "[Free Nitro](https://evil.example)",
    "[x](<https://evil.example>)",
    "@everyone",
    "@here",
    "<@123456789012345678>",
    "<@&123456789012345678>",
    "<#123456789012345678>",
    "# evil",
    "## evil",
    "-# evil",
    "> evil",
    "1. evil",
    "**bold**",
    "__under__",
    "~~gone~~",
    "||spoiler||",
    "`code`",
    "\u200b",
    "\u200d",
    "\u2060",
    "\u202e",
    "\u2066",
    "\u200f",
    "\n# evil\n",
    "\\",
    "[",
    "](https://evil.example)",
]
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff]")
MASKED = re.compile(r"(?<!\\)\[[^\[\]]*(?<!\\)\]\(")  # [text]( not escaped
# Lines a name could start: a heading, subtext, quote or list made of the name's text.
LINE = re.compile(r"^(#{1,3} |-# |> |\d+\. )evil", re.MULTILINE)

names = st.lists(st.sampled_from(HOSTILE) | st.text(max_size=6), min_size=1, max_size=5).map(
    "".join
)
every_name = st.fixed_dictionaries({s: names for s in HUMANS})


def bot_text(text: str, seats: Iterable[str] = HUMANS) -> str:
    """The text without what the bot itself writes: the mention of a player (with no name to
    show, or pinged on their turn), links to a table."""
    for seat in seats:
        text = text.replace(f"<@{seat}>", "")
    return re.sub(r"\]\(https://discord\.com/channels/[0-9/]+\)", "]", text)


def check_text(text: str, seats: Iterable[str] = HUMANS) -> None:
    """Message text (markdown read): nothing a name holds acts, or hides. `seats`: the
    players the bot may mention itself."""
    assert not BIDI.search(text), text
    for m in INVISIBLE.finditer(text):  # only the zero-width space that breaks a mention
        assert text[m.start() - 1 : m.end()] == "@\u200b", text
    assert "@everyone" not in text and "@here" not in text, text
    assert not re.search(r"(?<!\\)<[@#][!&]?\d", bot_text(text, seats)), text
    assert not MASKED.search(bot_text(text, seats)), text
    assert not LINE.search(text), text


def check_label(text: str) -> None:
    """Labels (no markdown): nothing invisible or direction-changing, on one line."""
    check_alt(text)
    assert "\n" not in text


def check_alt(text: str) -> None:
    """Alt text (no markdown; its lines are the bot's own): nothing invisible or
    direction-changing."""
    assert not BIDI.search(text) and not INVISIBLE.search(text), text
