"""A person who asked to be forgotten keeps their place in finished games' records under
`former:<seat>` ("former:2": seat 2, from 1; 0: the host of a lobby they had left; in a
tournament's entrants, a number of its own), shown as
"former player" in the reader's language (docs/privacy.md). Never a user id (digits) or an
AI's ("ai:..."). Its own module: storage writes it, and imports nothing of the rules."""

from __future__ import annotations

import re

_FORMER = re.compile(r"former:([0-9]{1,4})")


def former(seat: int) -> str:
    return f"former:{seat}"


def is_former(seat_id: str) -> bool:
    return _FORMER.fullmatch(seat_id) is not None
