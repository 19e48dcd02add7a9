"""Why the session refuses a tournament action: a typed reason whose value is the catalog key
the cogs render (bot.ui.text.error_text), so the rules stay here and the cogs only say them."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from ..errors import NotHost, SessionError


class Refusal(StrEnum):
    NOT_FOUND = "tour.error.not_found"
    ALREADY_OPEN = "tour.error.already_open"  # one open tournament a channel
    SIGNUP_CLOSED = "tour.error.signup_closed"
    FULL = "tour.error.full"
    ALREADY_JOINED = "tour.error.already_joined"
    NOT_JOINED = "tour.error.not_joined"
    NO_CHECK_IN = "tour.error.no_check_in"
    CHECK_IN_LATER = "tour.error.check_in_later"
    CHECKED_IN_ALREADY = "tour.error.checked_in_already"
    TOO_FEW = "tour.error.too_few"
    OVER = "tour.error.over"
    MANAGERS_ONLY = "tour.error.managers_only"
    NO_AI = "reply.no_ai"  # the server turned AI off: no AI entrants
    NO_NAME = "tourop.error.no_name"
    FORMAT = "tourop.error.format"
    TABLE_SIZE = "tourop.error.table_size"
    ROUNDS = "tourop.error.rounds"
    PAST = "tourop.error.past"
    START_BEFORE_SIGNUP = "tourop.error.start_before_signup"
    FILL = "tourop.error.fill"


class Refused(SessionError):
    """A tournament action the rules do not allow: `reason` says which rule."""

    def __init__(self, reason: Refusal, **values: Any) -> None:
        self.reason = reason
        super().__init__(reason.value, **values)


# What a manager does; the cogs ask `allowed` before they do it.
Action = Literal["create", "start", "cancel", "remove", "fill", "resume"]
MANAGED: frozenset[Action] = frozenset({"create", "start", "cancel", "remove", "fill", "resume"})


def allowed(action: Action, *, manager: bool) -> None:
    """Managers make, start, cancel and fill a tournament, remove an entrant and resume a
    paused round: anyone else is refused (NotHost, as a game's host-only actions are)."""
    if action in MANAGED and not manager:
        raise NotHost(Refusal.MANAGERS_ONLY)
