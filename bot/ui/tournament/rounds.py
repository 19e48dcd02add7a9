"""A round's tables, and a round whose threads the channel refuses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.domain.tournament import BYE_POINTS, RoundPlan, TournamentInfo
from bot.i18n import t, tn

from .. import ids
from ..names import shown
from ..render import BLUE, GREY, Item, Message, card_view, command, text
from ..widgets import button, row
from .words import ROUND_NAME_CHARS, SIGNUP_SHOWN, TEXT_BUDGET, cut, entrant_name, tournament_name


def round_title(lang: str, info: TournamentInfo, plan: RoundPlan) -> str:
    if info.format == "knockout":
        if len(plan.tables) == 1 and not plan.byes:
            return t(lang, "tour.round.final")
        return t(lang, "tour.round.title_knockout", round=plan.number)
    return t(lang, "tour.round.title", round=plan.number, rounds=info.rounds)


def round_view(
    info: TournamentInfo,
    plan: RoundPlan,
    threads: Sequence[int | None],
    names: Mapping[str, str],
    lang: str,
) -> Message:
    """A round's tables: each with a link to its thread (`threads[i]` is table i + 1's, None
    while it opens) and its players, then the byes and who is out since the last round (left,
    or in round 1 did not check in). Tables are listed while the text has room
    (64 tables of 4 do not fit 4,000 characters); the rest are counted, and every player
    finds theirs in the thread they are added to."""
    head = text(
        f"### {round_title(lang, info, plan)}",
        "-# " + t(lang, "tour.round.of", name=tournament_name(info)),
    )
    items: list[Item] = [head]
    lines: list[str] = []
    used = len(head.content) + 200  # the byes and footer lines' share
    shown_tables = 0
    for i, seats in enumerate(plan.tables):
        thread = threads[i] if i < len(threads) else None
        where = f"<#{thread}>" if thread else t(lang, "tour.round.no_thread")
        people = ", ".join(
            shown(cut(entrant_name(lang, e, names), ROUND_NAME_CHARS)) for e in seats
        )
        line = t(lang, "tour.round.table", number=i + 1, thread=where, players=people)
        if used + len(line) + 1 > TEXT_BUDGET - 400:
            break
        lines.append(line)
        used += len(line) + 1
        shown_tables += 1
    if lines:
        items.append(text(*lines))
    rest = len(plan.tables) - shown_tables
    tail: list[str] = []
    if rest:
        tail.append(tn(lang, "tour.round.more_tables", rest))
    if plan.byes:
        listed = [shown(cut(entrant_name(lang, e, names), ROUND_NAME_CHARS))
                  for e in plan.byes[:SIGNUP_SHOWN]]  # fmt: skip
        if len(plan.byes) > SIGNUP_SHOWN:
            listed.append(tn(lang, "tour.signup.more", len(plan.byes) - SIGNUP_SHOWN))
        key = "tour.round.byes_knockout" if info.format == "knockout" else "tour.round.byes"
        tail.append(t(lang, key, names=", ".join(listed), points=BYE_POINTS))
    for key, out in (("tour.round.left", plan.left), ("tour.round.no_check_in", plan.absent)):
        if out:
            listed = [shown(cut(entrant_name(lang, e, names), ROUND_NAME_CHARS))
                      for e in out[:SIGNUP_SHOWN]]  # fmt: skip
            if len(out) > SIGNUP_SHOWN:
                listed.append(tn(lang, "tour.signup.more", len(out) - SIGNUP_SHOWN))
            tail.append(t(lang, key, names=", ".join(listed)))
    tail.append("-# " + t(lang, "tour.round.footer"))
    items.append(text(*tail))
    return Message(view=card_view(BLUE, *items))


def blocked_view(info: TournamentInfo, round: int, reason: str, lang: str) -> Message:
    """A round whose tables' threads the channel refuses: what a manager fixes, and Try
    again (managers: the cog checks who presses it). `reason`: "gone" or "denied"."""
    key = "tour.blocked.gone" if reason == "gone" else "tour.blocked.denied"
    fix = t(lang, key, cancel=command(lang, "tournament cancel"))
    return Message(view=card_view(GREY,
        text(f"### {t(lang, 'tour.blocked.title', name=tournament_name(info), round=round)}",
             fix, "-# " + t(lang, "tour.blocked.footer")),
        row(button(ids.tour("resume", info.id), t(lang, "tour.button.resume"),
                   discord.ButtonStyle.primary)),
    ))  # fmt: skip
