"""The /steal history message (the latest finished games, with a Record and a Replay button
each) and the Record button's reply (the game's record as a JSON file).

Pure functions of history entries and stored names, in the reader's language (their own: both
are ephemeral). Names are the stored display names, not mentions (see bot.ui.boards).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import discord

from bot.domain import ratings as stats
from bot.domain.values import HistoryEntry
from bot.i18n import t, tn

from . import ids
from .boards import never_played, shown_name, start
from .names import shown
from .render import BLUE, Message, timestamp
from .widgets import button, view_of

HISTORY_SIZE = 10  # games listed by /steal history
PER_ROW = 5  # buttons per row


# ----- /steal history


def bundle_sizes(entry: HistoryEntry) -> tuple[int, ...]:
    """Each seat's final bundle size: the record's result, or (a game ended by forfeits has
    none) the bundles as the game stopped."""
    result = entry.record.get("result")
    if result:
        return tuple(result["bundle_sizes"])
    return tuple(s.cards for s in stats.seat_stats(entry.record))


def history_entry(lang: str, entry: HistoryEntry, names: Mapping[str, str]) -> str:
    """A game's date, its players (best place first) with their bundle sizes, and winners."""
    sizes = bundle_sizes(entry)
    order = sorted(range(len(entry.seats)), key=lambda s: (entry.places[s], -sizes[s], s))
    players = " · ".join(
        t(
            lang,
            "history.player",
            name=shown_name(lang, entry.seats[s], names),
            cards=tn(lang, "count.cards", sizes[s]),
        )
        + (" 🏳️" if entry.seats[s] in entry.forfeited else "")
        for s in order
    )
    winners = [shown_name(lang, u, names) for u in entry.winners]
    if not winners:
        won = t(lang, "history.no_winner")
    elif len(winners) == 1:
        won = t(lang, "history.winner", name=winners[0])
    else:
        won = t(lang, "history.shared", names=", ".join(winners))
    date, ago = timestamp(entry.finished_at, "d"), timestamp(entry.finished_at, "R")
    when = t(lang, "history.when", date=date, ago=ago)
    return f"{when}\n{players}\n{won}"


def history(
    lang: str, entries: Sequence[HistoryEntry], names: Mapping[str, str], whose: str | None
) -> Message:
    """The last finished games (newest first), each with a button for its record. `whose`: a
    member's name for their history, None for the server's."""
    entries = entries[: min(HISTORY_SIZE, 25)]  # a message holds at most 25 buttons
    if whose:
        title = t(lang, "history.title.member", name=shown(whose))
    else:
        title = t(lang, "history.title.server")
    embed = discord.Embed(title=title, colour=BLUE)
    word = t(lang, "history.record_word")
    embed.description = t(lang, "history.description", button=word)
    for entry in entries:
        embed.add_field(
            name=t(lang, "history.game", game=entry.game_id),
            value=history_entry(lang, entry, names),
            inline=False,
        )
    buttons = [
        button(
            ids.record(e.game_id),
            t(lang, "history.record_button", word=word, game=e.game_id),
            emoji="📄",
            row=i // PER_ROW,
        )
        for i, e in enumerate(entries)
    ]
    rows = -(-len(entries) // PER_ROW)
    for i, e in enumerate(entries[: (5 - rows) * PER_ROW]):  # a message holds 5 rows
        replay = button(ids.replay(e.game_id, 0), t(lang, "history.replay_button", game=e.game_id),
                        emoji="🎬", row=rows + i // PER_ROW)  # fmt: skip
        buttons.append(replay)
    return Message(embed=embed, view=view_of(*buttons))


def no_history(lang: str, whose: str | None) -> str:
    if whose is not None:
        return never_played(lang, whose)
    return t(lang, "history.none", start=start(lang))


# ----- the Record button


def no_record(lang: str) -> str:
    return t(lang, "history.no_record")


def record_filename(game_id: int) -> str:
    return f"steal-the-bundle-{game_id}.json"


def record_bytes(entry: HistoryEntry) -> bytes:
    return json.dumps(entry.record, indent=2).encode()


def record_text(lang: str, entry: HistoryEntry) -> str:
    return t(
        lang,
        "history.record_text",
        game=entry.game_id,
        when=timestamp(entry.finished_at, "f"),
        format=entry.record.get("format", "?"),
    )
