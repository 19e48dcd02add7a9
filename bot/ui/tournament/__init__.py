"""A tournament's screens: the sign-up, a round's tables, the standings (a picture), the
champion, the server's tournaments, and the errors only tournaments have.

Pure functions of the tournament's values (bot.domain.tournament) and the names the bot knows
(entrant id -> display name): no API calls. Each returns a Message whose view is a Components
V2 layout (`Message.files()` gives the discord.Files of its picture). Names people chose are
escaped (bot/ui/names.py); every word is in the catalogs (tour.* keys, tournament_ui.po).
Within Discord's limits with 256 entrants: the sign-up lists the first SIGNUP_SHOWN names,
the standings picture the top STANDINGS_SHOWN rows and the reader's own, a round as many
tables as its text has room for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import discord
from babel.numbers import format_decimal

from bot.domain.former import is_former
from bot.domain.server_settings import duration
from bot.domain.tournament import (
    BYE_POINTS,
    RoundPlan,
    Row,
    TournamentInfo,
    ai_level,
    is_ai_entrant,
    swiss_rounds_advised,
)
from bot.i18n import t, tn

from . import cards_art as art
from . import ids
from .names import plain, shown
from .picture.emoji import drawable
from .picture.standings import Line, StandingsScene, render_standings
from .render import BLUE, GREY, Item, Message, card_view, command, picture, text, timestamp
from .text import next_steps
from .widgets import button, row

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


# ----- names and numbers


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


def _cut(name: str, chars: int) -> str:
    return name if len(name) <= chars else name[: chars - 1].rstrip() + "…"


def tournament_name(info: TournamentInfo) -> str:
    """The tournament's name for message text: escaped and cut to NAME_CHARS."""
    return shown(_cut(plain(info.name), NAME_CHARS)) or "…"


def number(lang: str, value: float) -> str:
    """Points and tiebreaks as `lang` writes them: 12, 4.5 (4,5 in es, fr, it), 1 decimal."""
    text = format_decimal(round(value, 1), format="#,##0.#", locale=lang)
    # Narrow no-break spaces (French thousands) are not in the font: a plain space reads the same.
    return text.replace("\u202f", " ").replace("\xa0", " ")


def _when(moment: datetime) -> str:
    return timestamp(moment.timestamp())


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


def _rules_words(lang: str, info: TournamentInfo) -> str:
    preset = t(lang, f"preset.{info.preset}.name")
    timer = duration(info.turn_seconds, lang) if info.turn_seconds else t(lang, "tour.timer_off")
    return t(lang, "tour.rules_line", preset=preset, timer=timer)


def _status_words(lang: str, info: TournamentInfo) -> str:
    if info.status == "running" and info.paused:
        why = "gone" if info.paused == "gone" else "denied"
        return t(lang, f"tour.status.paused_{why}", round=info.round)
    if info.status == "running":
        if info.format == "knockout":
            return t(lang, "tour.status.running_knockout", round=info.round)
        return t(lang, "tour.status.running", round=info.round, rounds=info.rounds)
    return t(lang, f"tour.status.{info.status}")


# ----- sign-up


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
    details = [format_words(lang, info), _rules_words(lang, info)]
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
        items.append(text(f"-# {_status_words(lang, info)}"))
        return Message(view=card_view(GREY, *items))
    when: list[str] = []
    if info.signup_ends is not None:
        key = "tour.signup.closes" if info.signup_ends > now else "tour.signup.closed"
        when.append(t(lang, key, when=_when(info.signup_ends)))
    if info.starts_at is not None:
        when.append(t(lang, "tour.signup.starts", when=_when(info.starts_at)))
    if info.signup_ends is None and info.starts_at is None:
        when.append(t(lang, "tour.signup.by_hand"))
    items.append(text("-# " + " · ".join(when)))
    check_label = t(lang, "tour.button.check_in")
    if info.check_in and info.check_in_opens is not None:
        items.append(text(t(lang, "tour.signup.check_in_opens", when=_when(info.check_in_opens))))
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


# ----- a round


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
            shown(_cut(entrant_name(lang, e, names), ROUND_NAME_CHARS)) for e in seats
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
        listed = [shown(_cut(entrant_name(lang, e, names), ROUND_NAME_CHARS))
                  for e in plan.byes[:SIGNUP_SHOWN]]  # fmt: skip
        if len(plan.byes) > SIGNUP_SHOWN:
            listed.append(tn(lang, "tour.signup.more", len(plan.byes) - SIGNUP_SHOWN))
        key = "tour.round.byes_knockout" if info.format == "knockout" else "tour.round.byes"
        tail.append(t(lang, key, names=", ".join(listed), points=BYE_POINTS))
    for key, out in (("tour.round.left", plan.left), ("tour.round.no_check_in", plan.absent)):
        if out:
            listed = [shown(_cut(entrant_name(lang, e, names), ROUND_NAME_CHARS))
                      for e in out[:SIGNUP_SHOWN]]  # fmt: skip
            if len(out) > SIGNUP_SHOWN:
                listed.append(tn(lang, "tour.signup.more", len(out) - SIGNUP_SHOWN))
            tail.append(t(lang, key, names=", ".join(listed)))
    tail.append("-# " + t(lang, "tour.round.footer"))
    items.append(text(*tail))
    return Message(view=card_view(BLUE, *items))


# ----- standings


def standings_title(lang: str, info: TournamentInfo, rows: Sequence[Row], final: bool) -> str:
    if final:
        return t(lang, "tour.standings.final")
    played = max((r.played + r.byes for r in rows), default=0)
    if info.format == "knockout":
        return t(lang, "tour.standings.after_knockout", round=played)
    return t(lang, "tour.standings.after", round=played, rounds=info.rounds)


def shown_rows(rows: Sequence[Row], viewer: str | None) -> list[tuple[Row, bool]]:
    """The rows the picture shows: the top STANDINGS_SHOWN, and the viewer's own if it is
    further down; each with whether rows were left out just above it."""
    out = [(r, False) for r in rows[:STANDINGS_SHOWN]]
    if viewer is not None:
        mine = next((r for r in rows[STANDINGS_SHOWN:] if r.entrant == viewer), None)
        if mine is not None:
            out.append((mine, True))
    return out


def standings_scene(
    info: TournamentInfo,
    rows: Sequence[Row],
    names: Mapping[str, str],
    lang: str,
    final: bool = False,
    viewer: str | None = None,
) -> StandingsScene:
    lines = tuple(
        Line(
            rank=r.rank,
            name=drawable(entrant_name(lang, r.entrant, names)) or "?",
            said=entrant_name(lang, r.entrant, names),
            points=number(lang, r.points),
            opponents=number(lang, r.opponents),
            cards=number(lang, r.cards),
            medal=final,
            you=r.entrant == viewer,
            dropped=r.dropped,
            after_gap=gap,
        )
        for r, gap in shown_rows(rows, viewer)
    )
    labels = (
        t(lang, "tour.standings.col.points"),
        t(lang, "tour.standings.col.opponents"),
        t(lang, "tour.standings.col.cards"),
    )
    title = art.drawable(standings_title(lang, info, rows, final))
    return StandingsScene(title, labels, lines, t(lang, "tour.standings.left"))


def alt_text(lang: str, scene: StandingsScene, title: str) -> str:
    """Every row the picture shows, in words (names shortened so that all fit in Discord's
    1,024 characters): the picture's description."""
    head = t(lang, "tour.alt.head", title=title)

    def rows(chars: int) -> list[str]:
        return [
            t(lang, "tour.alt.row", rank=line.rank, name=_cut(line.said or line.name, chars),
              points=line.points, opponents=line.opponents, cards=line.cards)
            + (f" ({scene.left_word})" if line.dropped else "")
            for line in scene.lines
        ]  # fmt: skip

    chars = 32
    body = rows(chars)
    while chars > 4 and len(head) + sum(len(b) + 2 for b in body) > ALT_LIMIT:
        chars -= 2
        body = rows(chars)
    return (head + " " + "; ".join(body))[:ALT_LIMIT]


def _line(lang: str, r: Row, names: Mapping[str, str], medal: bool) -> str:
    mark = MEDALS[r.rank] if medal and r.rank in MEDALS else f"{r.rank}."
    return t(lang, "tour.standings.line", rank=mark, name=entrant_shown(lang, r.entrant, names),
             points=number(lang, r.points))  # fmt: skip


def standings_view(
    info: TournamentInfo,
    rows: Sequence[Row],
    names: Mapping[str, str],
    lang: str,
    final: bool = False,
    *,
    viewer: str | None = None,
) -> Message:
    """The standings: a picture of the top STANDINGS_SHOWN rows (medals for the top three
    when `final`) and `viewer`'s own row if it is further down, its alt text with every row
    it shows, and a short summary in words: the top three, the viewer's place, the order."""
    scene = standings_scene(info, rows, names, lang, final, viewer)
    title = standings_title(lang, info, rows, final)
    # The title is the picture's own (and its alt text's): the text names the tournament.
    summary = [f"### {t(lang, 'tour.standings.heading', name=tournament_name(info))}"]
    top = [_line(lang, r, names, final) for r in rows[:3]]
    mine = next((r for r in rows if r.entrant == viewer), None)
    extra: list[str] = []
    if mine is not None:
        extra.append(
            t(lang, "tour.standings.you", rank=mine.rank, points=number(lang, mine.points))
        )
    if len(rows) > STANDINGS_SHOWN:
        extra.append(tn(lang, "tour.standings.top", len(rows), shown=STANDINGS_SHOWN))
    extra.append(t(lang, "tour.standings.order"))
    items: list[Item] = [text(*summary)]
    if scene.lines:
        items.append(picture(STANDINGS_PNG, alt_text(lang, scene, art.drawable(title) or title)))
    items.append(text(*top, *(f"-# {x}" for x in extra)))
    images = ((STANDINGS_PNG, render_standings(scene)),) if scene.lines else ()
    return Message(view=card_view(GOLDEN if final else BLUE, *items), images=images)


# ----- the champion


def champion_view(
    info: TournamentInfo, rows: Sequence[Row], names: Mapping[str, str], lang: str
) -> Message:
    """The champion announced: the top of the standings still in, and the podium 🥇🥈🥉.
    No champion (everyone left): said so."""
    staying = [r for r in rows if not r.dropped]
    name = tournament_name(info)
    if not staying:
        return Message(view=card_view(GREY, text(
            f"### {t(lang, 'tour.champion.none_title', name=name)}",
            t(lang, "tour.champion.none"),
        )))  # fmt: skip
    winner = staying[0]
    podium = [
        t(lang, "tour.champion.podium", medal=MEDALS[i + 1],
          name=entrant_shown(lang, r.entrant, names), points=number(lang, r.points))
        for i, r in enumerate(staying[:3])
    ]  # fmt: skip
    champ = entrant_shown(lang, winner.entrant, names)
    footer = tn(lang, "tour.champion.footer", len(info.entrants), format=format_words(lang, info))
    return Message(view=card_view(GOLDEN,
        text(f"## {t(lang, 'tour.champion.title', name=champ)}",
             t(lang, "tour.champion.of", tournament=name)),
        text(*podium),
        text(f"-# {footer}"),
    ))  # fmt: skip


# ----- the server's tournaments


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
          players=tn(lang, "tour.list.players", len(i.entrants)), status=_status_words(lang, i),
          host=entrant_shown(lang, str(i.host_id), names))
        for i in infos[:LIST_SHOWN]
    ]  # fmt: skip
    if len(infos) > LIST_SHOWN:
        lines.append(tn(lang, "tour.list.more", len(infos) - LIST_SHOWN))
    hint = t(lang, "tour.list.hint", standings=command(lang, "tournament standings"))
    return Message(view=card_view(BLUE, text(title), text(*lines), text(f"-# {hint}")))


# ----- errors


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
