"""The end of a game: standings, how a tie was settled, leftovers, highlights, the match.
A public message: in the game's language. The final bundles are a picture, said in full in
its description (its alt text), or in words when there is no picture; the rest is small
print, so the end screen fits a phone's screen."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.domain import match as matches
from bot.domain.match import Match
from bot.engine import Result, Rules
from bot.i18n import t, tn
from bot.i18n.cards import label
from bot.session.models import Table
from bot.ui.highlights import Highlights

from . import ids
from .render import GREY, Message, card_view, picture, text
from .table import GOLD
from .text import Name, cards, in_text, join_names, names_of
from .widgets import button, row

MEDALS = ("🥇", "🥈", "🥉", "4.")


FINAL_PNG = "final.png"


def final(
    lang: str, t_: Table, names: Mapping[str, str], hl: Highlights, image: bytes | None = None
) -> Message:
    """The end screen as one card; `image` is the final bundles' picture (render_final)."""
    game, rules = t_.game, t_.game.rules
    result = game.result
    assert result is not None
    plain = names_of(lang, game.seats, names)  # for the alt text, read as typed
    name = in_text(plain)  # shown as typed, not applied

    standing = t_.standing  # worked out once by the session as the game ended
    assert standing is not None
    places, won = standing.places, standing.winners
    sizes = result.bundle_sizes

    m = t_.match
    if m is None:
        title = t(lang, "final.title")
    else:
        title = t(lang, "final.title_match", number=len(m.results), games=m.games)
    if not won:
        lines = [t(lang, "final.nobody")]
    elif len(won) == 1:
        lines = [t(lang, "final.winner", name=name(won[0]), cards=cards(lang, sizes[won[0]]))]
    else:
        lines = [t(lang, "final.shared", names=join_names(lang, [name(s) for s in won]))]
    lines += _tiebreak(lang, t_, result, name)
    lines += _playoff_scores(lang, t_, name)
    if result.leftovers:  # one small line, no heading: the sentence says what it is
        if result.leftovers_to is None:
            left = tn(lang, "final.leftovers_nobody", result.leftovers)
        else:
            left = tn(lang, "final.leftovers", result.leftovers, name=name(result.leftovers_to))
        lines.append(f"-# {left}")
    items: list[discord.ui.Item[Any]] = [text(f"### {title}", *lines)]
    bundles = t(lang, "final.bundles")
    order = sorted(range(len(game.seats)), key=lambda s: (places[s], -sizes[s], s))
    forfeited = " 🏳️ " + t(lang, "table.forfeited")

    def standings(named: Name) -> list[str]:
        return [
            t(lang, "final.standing", medal=MEDALS[min(places[s], 3)], name=named(s),
              cards=cards(lang, sizes[s])) + (forfeited if s in t_.forfeited else "")
            for s in order
        ]  # fmt: skip

    if image is not None:  # alt text is read as typed: the plain names
        items.append(picture(FINAL_PNG, "\n".join([f"{bundles}:", *standings(plain)])))
    else:
        items.append(text(f"**{bundles}**", *standings(name)))
    shown = _highlights(lang, hl, rules, name)
    if shown:
        items.append(text(f"**{t(lang, 'final.highlights')}**", *(f"-# {x}" for x in shown)))
    if m is not None:
        items.append(text(f"**{_match_title(lang, m)}**", _match_text(lang, m, name)))
    # One row of buttons, with room for more (up to five).
    buttons = [
        button(ids.record(t_.game_id), t(lang, "final.record"), emoji="📜"),
        button(ids.replay(t_.game_id, 0), t(lang, "replay.button"), emoji="🎬"),
    ]
    if m is None or m.over:
        buttons.insert(0, button(ids.rematch(t_.game_id), t(lang, "final.rematch"),
                                 emoji="🔁", style=discord.ButtonStyle.primary))  # fmt: skip
    items.append(row(*buttons))  # the record's answer says what it is: no line for it here
    colour = GOLD if won else GREY
    images = ((FINAL_PNG, image),) if image is not None else ()
    return Message(view=card_view(colour, *items), images=images)


def _playoff_scores(lang: str, t_: Table, name: Name) -> list[str]:
    """Each playoff's bundles: "Playoff 1: Ann 8 · Bob 8"."""
    lines = []
    for number, playoff in enumerate(t_.game.playoffs, start=1):
        if playoff.result is None:
            continue
        sizes = playoff.result.bundle_sizes
        score = " · ".join(f"{name(s)} {sizes[s]}" for s in playoff.players)
        lines.append(t(lang, "final.playoff_score", number=number, scores=score))
    return lines


def _tiebreak(lang: str, t_: Table, result: Result, name: Name) -> list[str]:
    if not result.tiebreak:
        return []
    tied = cards(lang, max(result.bundle_sizes) if result.bundle_sizes else 0)
    if result.tiebreak == "last_capturer":
        return [t(lang, "final.tie.last_capturer", cards=tied, name=name(result.winners[0]))]
    if result.tiebreak == "playoff":
        playoffs = tn(lang, "final.playoffs", len(t_.game.playoffs))
        return [t(lang, "final.tie.playoff", cards=tied, playoffs=playoffs)]
    return [t(lang, "final.tie.shared", cards=tied)]


def _highlights(lang: str, hl: Highlights, rules: Rules, name: Name) -> list[str]:
    lines = []
    if hl.biggest_steal:
        thief, victim, n, card = hl.biggest_steal
        lines.append(
            t(lang, "final.biggest_steal", thief=name(thief), victim=name(victim),
              cards=cards(lang, n), card=label(lang, card, rules))
        )  # fmt: skip
    if hl.most_steals:
        seats, n = hl.most_steals
        names = join_names(lang, [name(s) for s in seats])
        lines.append(t(lang, "final.most_steals", names=names, count=n))
    if hl.longest_top:
        seat, card, turns = hl.longest_top
        lines.append(
            t(lang, "final.longest_top", card=label(lang, card, rules), name=name(seat),
              turns=tn(lang, "final.turns", turns))
        )  # fmt: skip
    return lines


def _match_title(lang: str, m: Match) -> str:
    key = "final.match_title.wins" if m.scoring == "wins" else "final.match_title.cards"
    return t(lang, key, games=tn(lang, "final.games", m.games))


def _match_text(lang: str, m: Match, name: Name) -> str:
    seats = len(m.results[0].sizes) if m.results else 0
    rows = [
        t(lang, "final.match_row", name=name(st.seat), wins=tn(lang, "final.wins", st.wins),
          cards=cards(lang, st.cards))
        for st in matches.standings(m, seats)
    ]  # fmt: skip
    if m.winners is not None:
        names = join_names(lang, [name(s) for s in m.winners])
        rows.append(t(lang, "final.match_winner", names=names))
    else:
        rows.append(t(lang, "final.next_game", number=len(m.results) + 1))
    return "\n".join(rows)
