"""The server's tournaments, and the refusals only tournaments have."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.domain.tournament import TournamentInfo
from bot.i18n import t, tn

from ..render import BLUE, Message, card_view, command, text
from ..text import next_steps
from .words import LIST_SHOWN, entrant_shown, status_words, tournament_name


def tournaments_list_view(
    infos: Sequence[TournamentInfo], names: Mapping[str, str], lang: str
) -> Message:
    """The server's tournaments, newest first as given: the first LIST_SHOWN, each with its
    format, players and status; "+N older" after them. None yet: how to make one."""
    title = f"### {t(lang, 'tour.list.title')}"
    if not infos:
        new = command(lang, "tournament new")
        return Message(view=card_view(BLUE, text(title, t(lang, "tour.list.empty", new=new))))
    lines = [
        t(lang, "tour.list.row", name=tournament_name(i), format=t(lang, f"tour.format.{i.format}"),
          players=tn(lang, "tour.list.players", len(i.entrants)), status=status_words(lang, i),
          host=entrant_shown(lang, str(i.host_id), names))
        for i in infos[:LIST_SHOWN]
    ]  # fmt: skip
    if len(infos) > LIST_SHOWN:
        lines.append(tn(lang, "tour.list.more", len(infos) - LIST_SHOWN))
    hint = t(lang, "tour.list.hint", standings=command(lang, "tournament standings"))
    return Message(view=card_view(BLUE, text(title), text(*lines), text(f"-# {hint}")))


def tournament_error(key: str, lang: str, **values: object) -> Message:
    """A refusal only tournaments have (`key`: a tour.error.* message), ephemeral text that
    names the next step. Session errors with these keys read the same through
    bot.ui.text.error_text."""
    return Message(content=t(lang, key, **{**next_steps(lang), **values}))


ERRORS = (
    "tour.error.not_found",
    "tour.error.already_joined",
    "tour.error.not_joined",
    "tour.error.signup_closed",
    "tour.error.managers_only",
    "tour.error.too_few",
    "tour.error.over",
    "tour.error.full",
    "tour.error.already_open",
    "tour.error.in_game",
)
