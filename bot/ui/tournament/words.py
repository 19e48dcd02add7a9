"""The words of a tournament's screens: names, numbers, its format and status; the limits
that keep each screen within Discord's."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import discord
from babel.numbers import format_decimal

from bot.domain.former import is_former
from bot.domain.server_settings import duration
from bot.domain.tournament import TournamentInfo, ai_level, is_ai_entrant, swiss_rounds_advised
from bot.i18n import t, tn

from ..names import plain, shown
from ..render import timestamp

SIGNUP_SHOWN = 16  # names listed on the sign-up message; "+N more" after them
STANDINGS_SHOWN = 24  # rows of the standings picture, plus the reader's own below
LIST_SHOWN = 15  # tournaments listed by /steal tournament
NAME_CHARS = 60  # a tournament's name as shown (cut with an ellipsis past it)
ROUND_NAME_CHARS = 24  # a player's name in a round's tables (cut past it)
TEXT_BUDGET = 3600  # characters a message's text may take (Discord: 4,000), kept in reserve
ALT_LIMIT = 1024  # a media item's description
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
STANDINGS_PNG = "standings.png"
GOLDEN = discord.Colour.from_rgb(255, 202, 40)


def entrant_name(lang: str, entrant: str, names: Mapping[str, str]) -> str:
    """An entrant's name, plain (for pictures, labels and alt text): a member's last known
    name, an AI entrant's label ("🤖 Medium bot 3"), a forgotten person's "former player"."""
    if is_ai_entrant(entrant):
        label = t(lang, f"name.ai.{ai_level(entrant)}")
        number = entrant.rsplit(":", 1)[1]
        return label if number == "1" else f"{label} {number}"
    if is_former(entrant):
        return t(lang, "name.former")
    return plain(names.get(entrant, "")) or t(lang, "tour.name.unknown")


def entrant_shown(lang: str, entrant: str, names: Mapping[str, str]) -> str:
    """An entrant's name for message text: escaped, never a mention (mentions of people the
    reader's client has not cached show as raw ids)."""
    return shown(entrant_name(lang, entrant, names))


def cut(name: str, chars: int) -> str:
    return name if len(name) <= chars else name[: chars - 1].rstrip() + "…"


def tournament_name(info: TournamentInfo) -> str:
    """The tournament's name for message text: escaped and cut to NAME_CHARS."""
    return shown(cut(plain(info.name), NAME_CHARS)) or "…"


def number(lang: str, value: float) -> str:
    """Points and tiebreaks as `lang` writes them: 12, 4.5 (4,5 in es, fr, it), 1 decimal."""
    text = format_decimal(round(value, 1), format="#,##0.#", locale=lang)
    # Narrow no-break spaces (French thousands) are not in the font: a plain space reads the same.
    return text.replace("\u202f", " ").replace("\xa0", " ")


def moment(at: datetime) -> str:
    return timestamp(at.timestamp())


def format_words(lang: str, info: TournamentInfo) -> str:
    """ "Swiss · 3 rounds · tables of up to 4", or the knockout's."""
    size = info.table_size
    if info.format == "knockout":
        return t(lang, "tour.format_line.knockout", size=size)
    if info.rounds >= 1:
        return tn(lang, "tour.format_line.swiss", info.rounds, size=size)
    # Made without `rounds`: its start sets them for the entrants then (stored 0 until).
    n = len(info.entrants)
    if info.status == "signup" and n >= 2:
        advised = swiss_rounds_advised(n, size)
        return tn(lang, "tour.format_line.swiss_advised", advised, size=size)
    return t(lang, "tour.format_line.swiss_at_start", size=size)


def rules_words(lang: str, info: TournamentInfo) -> str:
    preset = t(lang, f"preset.{info.preset}.name")
    timer = duration(info.turn_seconds, lang) if info.turn_seconds else t(lang, "tour.timer_off")
    return t(lang, "tour.rules_line", preset=preset, timer=timer)


def status_words(lang: str, info: TournamentInfo) -> str:
    if info.status == "running" and info.paused:
        why = "gone" if info.paused == "gone" else "denied"
        return t(lang, f"tour.status.paused_{why}", round=info.round)
    if info.status == "running":
        if info.format == "knockout":
            return t(lang, "tour.status.running_knockout", round=info.round)
        return t(lang, "tour.status.running", round=info.round, rounds=info.rounds)
    return t(lang, f"tour.status.{info.status}")
