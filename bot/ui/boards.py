"""Embeds and buttons for /steal leaderboard, stats and history, and the record reply.

Pure functions of storage values (stats rows, history entries, stored names): no API calls.
Names are the display names stored with the stats, not mentions: the bot has no members
intent, so a mention of someone the client has not cached (or who left) would not render.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import discord
from discord.utils import escape_markdown

from bot import stats
from bot.seats import ai_name, is_ai
from bot.storage import HistoryEntry, PlayerStats, Standing

from . import ids
from .buttons import StealButton, view_of
from .render import BLUE, Message, mention, timestamp
from .text import plural

PER_PAGE = 10  # leaderboard rows per page
HISTORY_SIZE = 10  # games listed by /steal history
PER_ROW = 5  # buttons per row
SORT_NAMES = {"rating": "rating", "wins": "wins", "cards": "cards", "win_rate": "win rate"}
START = "Start one with `/steal new`!"
RATING_NOTE = "Rating: a cautious skill estimate (μ − 3σ). It starts at 0 and rises as you win."


def pages(count: int) -> int:
    """How many leaderboard pages `count` players fill (an empty board still has one)."""
    return max(1, -(-count // PER_PAGE))


def clamp_page(page: int, count: int) -> int:
    """The page to show when `page` is asked for: out-of-range pages show the nearest end."""
    return min(max(page, 1), pages(count))


def shown_name(user_id: str, names: Mapping[str, str]) -> str:
    """A player's stored display name, escaped; a mention only if no name was ever stored."""
    if is_ai(str(user_id)):
        return ai_name(str(user_id))
    name = names.get(str(user_id))
    return escape_markdown(name) if name else mention(str(user_id))


def percent(wins: int, games: int) -> str:
    return f"{wins / games:.0%}" if games else "0%"


# ----- /steal leaderboard


def board_row(standing: Standing, sort: str) -> str:
    """One row: rank, name, rating, games, wins, win rate, cards; the sorted column in bold."""
    p = standing.player
    parts = {
        "rating": f"{p.rating:.1f} rating",
        "games": plural(p.games, "game"),
        "wins": plural(p.wins, "win"),
        "win_rate": f"{percent(p.wins, p.games)} won",
        "cards": plural(p.cards, "card"),
    }
    parts[sort] = f"**{parts[sort]}**"
    name = shown_name(p.user_id, {p.user_id: p.name})
    return f"`#{standing.rank}` {name} · " + " · ".join(parts.values())


def leaderboard(
    standings: Sequence[Standing], sort: str, page: int, count: int, asked: int
) -> Message:
    """One page of the board. `page` is the page shown (see clamp_page), `asked` the one
    requested, `count` how many players the whole board has."""
    embed = discord.Embed(title="Steal the Bundle leaderboard", colour=BLUE)
    if count == 0:
        embed.description = f"Nobody has finished a game in this server yet. {START}"
        return Message(embed=embed)
    last = pages(count)
    rows = "\n".join(board_row(s, sort) for s in standings)
    embed.description = f"Sorted by **{SORT_NAMES[sort]}**\n\n{rows}"
    embed.set_footer(text=f"Page {page} of {last} · {plural(count, 'player')}\n{RATING_NOTE}")
    content = None
    if asked > last:
        content = (
            f"There {'is' if last == 1 else 'are'} only {plural(last, 'page')}; here is the last."
        )
    buttons = view_of(
        StealButton(ids.board(sort, page - 1), "Previous", emoji="◀️", disabled=page <= 1),
        StealButton(ids.board(sort, page + 1), "Next", emoji="▶️", disabled=page >= last),
    )
    return Message(content=content, embed=embed, view=buttons)


# ----- /steal stats


def player_stats(p: PlayerStats, name: str, rank: int | None, count: int) -> discord.Embed:
    """A player's totals. `name` is shown as it is given (escaped here)."""
    embed = discord.Embed(title=f"{escape_markdown(name)}: Steal the Bundle stats", colour=BLUE)
    fields = {
        "Games": str(p.games),
        "Wins": str(p.wins),
        "Win rate": percent(p.wins, p.games),
        "Cards collected": str(p.cards),
        "Steals": str(p.steals),
        "Biggest steal": plural(p.biggest_steal, "card") if p.biggest_steal else "none yet",
        "Rating": f"{p.rating:.1f}",
        "Rank": f"#{rank} of {count}" if rank is not None else "unranked",
    }
    for field, value in fields.items():
        embed.add_field(name=field, value=value, inline=True)
    embed.set_footer(text=f"{RATING_NOTE} Rank is by rating: /steal leaderboard")
    return embed


def never_played(name: str | None) -> str:
    """For /steal stats and history: `name` None means the member asking."""
    who = "You haven't" if name is None else f"{escape_markdown(name)} hasn't"
    return f"{who} finished a game here yet. {START}"


# ----- /steal history


def bundle_sizes(entry: HistoryEntry) -> tuple[int, ...]:
    """Each seat's final bundle size: the record's result, or (a game ended by forfeits has
    none) the bundles as the game stopped."""
    result = entry.record.get("result")
    if result:
        return tuple(result["bundle_sizes"])
    return tuple(s.cards for s in stats.seat_stats(entry.record))


def history_entry(entry: HistoryEntry, names: Mapping[str, str]) -> str:
    """A game's date, its players (best place first) with their bundle sizes, and winners."""
    sizes = bundle_sizes(entry)
    order = sorted(range(len(entry.seats)), key=lambda s: (entry.places[s], -sizes[s], s))
    players = " · ".join(
        f"{shown_name(entry.seats[s], names)} {plural(sizes[s], 'card')}"
        + (" 🏳️" if entry.seats[s] in entry.forfeited else "")
        for s in order
    )
    winners = [shown_name(u, names) for u in entry.winners]
    if not winners:
        won = "No winner: everyone forfeited"
    elif len(winners) == 1:
        won = f"🏆 Winner: {winners[0]}"
    else:
        won = f"🏆 Shared win: {', '.join(winners)}"
    when = f"{timestamp(entry.finished_at, 'd')} ({timestamp(entry.finished_at, 'R')})"
    return f"{when}\n{players}\n{won}"


def history(
    entries: Sequence[HistoryEntry], names: Mapping[str, str], whose: str | None
) -> Message:
    """The last finished games (newest first), each with a button for its record. `whose`: a
    member's name for their history, None for the server's."""
    entries = entries[: min(HISTORY_SIZE, 25)]  # a message holds at most 25 buttons
    title = f"{escape_markdown(whose)}'s last games" if whose else "Last games in this server"
    embed = discord.Embed(title=f"Steal the Bundle: {title}", colour=BLUE)
    embed.description = "Newest first. A **Record** button sends that game's full record (JSON)."
    for entry in entries:
        embed.add_field(
            name=f"Game #{entry.game_id}", value=history_entry(entry, names), inline=False
        )
    buttons = [
        StealButton(ids.record(e.game_id), f"Record #{e.game_id}", emoji="📄", row=i // PER_ROW)
        for i, e in enumerate(entries)
    ]
    return Message(embed=embed, view=view_of(*buttons))


def no_history(whose: str | None) -> str:
    if whose is not None:
        return never_played(whose)
    return f"No game has finished in this server yet. {START}"


# ----- the Record button


NO_RECORD = "I have no record of that game here. Only finished games of this server have one."


def record_filename(game_id: int) -> str:
    return f"steal-the-bundle-{game_id}.json"


def record_bytes(entry: HistoryEntry) -> bytes:
    return json.dumps(entry.record, indent=2).encode()


def record_text(entry: HistoryEntry) -> str:
    return (
        f"The record of game #{entry.game_id}, finished {timestamp(entry.finished_at, 'f')}: the "
        f"rules, the deal and every move (format `{entry.record.get('format', '?')}`)."
    )
