"""Names people chose (display names, nicknames), made safe to show: the ui's one boundary
for user-supplied names. `plain` for where Discord reads no markdown (button and menu labels,
pictures, alt text); `shown` for message text, where a name must read as typed and never act
as markdown, a masked link, a heading or a mention."""

from __future__ import annotations

import functools
import re
import unicodedata

# Unicode categories dropped from a name: controls (newlines, so no line of its own and no
# heading), format characters (zero-width spaces and joiners, the bidi overrides and
# isolates that can turn the text after them around), separators, surrogates, private use.
DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
# Backslashed wherever they are: Discord's inline markdown, links' brackets, and the angle
# brackets of mentions, channels, emoji and timestamps.
INLINE = re.compile(r"([\\*_~|`\[\]<>])")
# Only at the start: a heading, a quote, a list or subtext (`-# `), or a numbered list.
LEADING = re.compile(r"^([#>\-+]|\d+\.)")
MENTION = re.compile(r"@(?=\S)")  # @everyone, @here, @name: a zero-width space after the @


@functools.lru_cache(maxsize=4096)  # a character at a time: a move's hand and log name several
def plain(name: str) -> str:
    """The name without invisible and direction-changing characters, its spaces collapsed."""
    kept = (" " if c.isspace() else c for c in name if c.isspace() or not dropped(c))
    return " ".join("".join(kept).split())


def dropped(c: str) -> bool:
    return unicodedata.category(c) in DROPPED


@functools.lru_cache(maxsize=4096)  # three regex passes, for the same few names every move
def shown(name: str) -> str:
    """The name for message text: `plain`, with markdown and mentions escaped."""
    text = INLINE.sub(r"\\\1", plain(name))
    text = LEADING.sub(r"\\\1", text)
    return MENTION.sub("@\u200b", text)
