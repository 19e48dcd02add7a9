"""The end of a game: standings, how a tie was settled, leftovers, highlights, the match."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot import match as matches
from bot import stats
from bot.highlights import Highlights
from bot.session import Table

from . import ids
from .buttons import StealButton, view_of
from .cards import label
from .render import GREY, Message
from .text import names_of, plural, rules_footer

MEDALS = ("🥇", "🥈", "🥉", "4.")


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def final(t: Table, names: Mapping[str, str], hl: Highlights) -> Message:
    game, rules = t.game, t.game.rules
    result = game.result
    assert result is not None
    name = names_of(game.seats, names)
    places = stats.places(game, t.forfeited)
    won = stats.winners(places, t.forfeited)
    sizes = result.bundle_sizes

    title = "Steal the Bundle: game over"
    m = t.match
    if m is not None:
        title = f"Steal the Bundle: game {len(m['results'])} of {m['games']} over"
    embed = discord.Embed(title=title, colour=GREY)
    if not won:
        lines = ["Nobody wins: every player forfeited."]
    elif len(won) == 1:
        lines = [f"🏆 **{name(won[0])}** wins with {plural(sizes[won[0]], 'card')}!"]
    else:
        lines = [f"🏆 **{_join([name(s) for s in won])}** share the win."]
    lines += _tiebreak(t, name)
    embed.description = "\n".join(lines)

    order = sorted(range(len(game.seats)), key=lambda s: (places[s], -sizes[s], s))
    standings = [
        f"{MEDALS[min(places[s], 3)]} {name(s)}: {plural(sizes[s], 'card')}"
        + (" 🏳️ forfeited" if s in t.forfeited else "")
        for s in order
    ]
    embed.add_field(name="Final bundles", value="\n".join(standings), inline=False)
    if result.leftovers:
        who = name(result.leftovers_to) if result.leftovers_to is not None else "Nobody"
        text = f"{who} took the {plural(result.leftovers, 'card')} left in the pool."
        embed.add_field(name="Leftovers", value=text, inline=False)
    shown = _highlights(hl, rules, name)
    if shown:
        embed.add_field(name="Highlights", value="\n".join(shown), inline=False)
    buttons = [StealButton(ids.record(t.game_id), "Record", emoji="📜")]
    if m is not None:
        embed.add_field(name=_match_title(m), value=_match_text(m, name), inline=False)
    if m is None or "winners" in m:
        buttons.insert(0, StealButton(ids.rematch(t.game_id), "Rematch", emoji="🔁",
                                      style=discord.ButtonStyle.primary))  # fmt: skip
    embed.set_footer(text=rules_footer(rules))
    return Message(content=None, embed=embed, view=view_of(*buttons))


def _tiebreak(t: Table, name) -> list[str]:
    result = t.game.result
    if not result.tiebreak:
        return []
    tied = max(result.bundle_sizes) if result.bundle_sizes else 0
    if result.tiebreak == "last_capturer":
        how = f"{name(result.winners[0])} made the most recent capture"
    elif result.tiebreak == "playoff":
        how = f"settled by {plural(len(t.game.playoffs), 'playoff')}"
    else:
        how = "the win is shared"
    return [f"Tied on {plural(tied, 'card')}: {how}."]


def _highlights(hl: Highlights, rules, name) -> list[str]:
    lines = []
    if hl.biggest_steal:
        thief, victim, n, card = hl.biggest_steal
        lines.append(
            f"Biggest steal: {name(thief)} took {name(victim)}'s {plural(n, 'card')} "
            f"with {label(card, rules)}"
        )
    if hl.most_steals:
        seats, n = hl.most_steals
        lines.append(f"Most steals: {_join([name(s) for s in seats])} ({n})")
    if hl.longest_top:
        seat, card, turns = hl.longest_top
        lines.append(
            f"Longest on top: {label(card, rules)} on {name(seat)}'s bundle, "
            f"{plural(turns, 'turn')}"
        )
    return lines


def _match_title(m) -> str:
    scoring = "games won" if m["scoring"] == "wins" else "total cards"
    return f"Match: {plural(m['games'], 'game')}, scored by {scoring}"


def _match_text(m, name) -> str:
    seats = len(m["results"][0]["sizes"]) if m["results"] else 0
    rows = [
        f"{name(st.seat)}: {plural(st.wins, 'win')} · {plural(st.cards, 'card')}"
        for st in matches.standings(m, seats)
    ]
    if "winners" in m:
        rows.append(f"🏆 Match winner: **{_join([name(s) for s in m['winners']])}**")
    else:
        rows.append(f"Game {len(m['results']) + 1} is starting below.")
    return "\n".join(rows)
