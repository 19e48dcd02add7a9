"""The sign-up message: the tournament, who signed up, and its buttons."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import discord

from bot.domain.tournament import TournamentInfo
from bot.i18n import t, tn

from .. import ids
from ..render import BLUE, GREY, Item, Message, card_view, text
from ..widgets import button, row
from .words import (
    SIGNUP_SHOWN,
    entrant_shown,
    format_words,
    moment,
    rules_words,
    status_words,
    tournament_name,
)


def signup_view(
    info: TournamentInfo, names: Mapping[str, str], lang: str, now: datetime
) -> Message:
    """The sign-up message: what the tournament is, when it closes or starts, who is in
    (the first SIGNUP_SHOWN names, then "+N more"), with Join, Leave and Start now (for
    managers: the cog checks who presses it) while the sign-up is open; with check-in, when
    it opens (or that it is open, and how many checked in) and a Check in button. Once it has
    started, finished or been cancelled, the same card says so, without buttons."""
    host = entrant_shown(lang, str(info.host_id), names)
    head = text(
        f"### {t(lang, 'tour.signup.title', name=tournament_name(info))}",
        "-# " + t(lang, "tour.signup.hosted", host=host),
    )
    details = [format_words(lang, info), rules_words(lang, info)]
    details.append(t(lang, "tour.counted" if info.counted else "tour.not_counted"))
    count = len(info.entrants)
    listed = [entrant_shown(lang, e.id, names) for e in info.entrants[:SIGNUP_SHOWN]]
    if count > SIGNUP_SHOWN:
        listed.append(tn(lang, "tour.signup.more", count - SIGNUP_SHOWN))
    join_label = t(lang, "tour.button.join")
    players = " · ".join(listed) if listed else t(lang, "tour.signup.nobody", join=join_label)
    items: list[Item] = [
        head,
        text(*details),
        text(f"**{tn(lang, 'tour.signup.players', count)}**", players),
    ]
    if info.status != "signup":
        items.append(text(f"-# {status_words(lang, info)}"))
        return Message(view=card_view(GREY, *items))
    when: list[str] = []
    if info.signup_ends is not None:
        key = "tour.signup.closes" if info.signup_ends > now else "tour.signup.closed"
        when.append(t(lang, key, when=moment(info.signup_ends)))
    if info.starts_at is not None:
        when.append(t(lang, "tour.signup.starts", when=moment(info.starts_at)))
    if info.signup_ends is None and info.starts_at is None:
        when.append(t(lang, "tour.signup.by_hand"))
    items.append(text("-# " + " · ".join(when)))
    check_label = t(lang, "tour.button.check_in")
    if info.check_in and info.check_in_opens is not None:
        items.append(text(t(lang, "tour.signup.check_in_opens", when=moment(info.check_in_opens))))
    elif info.check_in:
        items.append(text(t(lang, "tour.signup.check_in_open", button=check_label,
                            checked=info.checked, n=count)))  # fmt: skip
    g = info.id
    buttons = [
        button(ids.tour("join", g), join_label, discord.ButtonStyle.success),
        button(ids.tour("leave", g), t(lang, "tour.button.leave")),
    ]
    if info.check_in:  # usable once check-in opens (a click before then says when)
        buttons.append(button(ids.tour("checkin", g), check_label, discord.ButtonStyle.success))
    buttons.append(
        button(
            ids.tour("start", g),
            t(lang, "tour.button.start"),
            discord.ButtonStyle.primary,
            disabled=count < 2,
        )
    )
    items.append(row(*buttons))
    if count < 2:
        items.append(text(f"-# {t(lang, 'tour.signup.start_alone')}"))
    return Message(view=card_view(BLUE, *items))
