"""The standings (a picture, with the reader's own row) and the champion."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.domain.tournament import Row, TournamentInfo
from bot.i18n import t, tn

from ..picture import fonts
from ..picture.emoji import drawable
from ..picture.standings import Line, StandingsScene, render_standings
from ..render import BLUE, GREY, Item, Message, card_view, picture, text
from .words import (
    ALT_LIMIT,
    GOLDEN,
    MEDALS,
    STANDINGS_PNG,
    STANDINGS_SHOWN,
    cut,
    entrant_name,
    entrant_shown,
    format_words,
    number,
    tournament_name,
)


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
    title = fonts.drawable(standings_title(lang, info, rows, final))
    return StandingsScene(title, labels, lines, t(lang, "tour.standings.left"))


def alt_text(lang: str, scene: StandingsScene, title: str) -> str:
    """Every row the picture shows, in words (names shortened so that all fit in Discord's
    1,024 characters): the picture's description."""
    head = t(lang, "tour.alt.head", title=title)

    def rows(chars: int) -> list[str]:
        return [
            t(lang, "tour.alt.row", rank=line.rank, name=cut(line.said or line.name, chars),
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
        items.append(picture(STANDINGS_PNG, alt_text(lang, scene, fonts.drawable(title) or title)))
    items.append(text(*top, *(f"-# {x}" for x in extra)))
    images = ((STANDINGS_PNG, render_standings(scene)),) if scene.lines else ()
    return Message(view=card_view(GOLDEN if final else BLUE, *items), images=images)


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
