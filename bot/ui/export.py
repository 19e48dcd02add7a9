"""A guild's data as files for its admins: the leaderboard as CSV, finished games as JSON lines.
Pure functions of stored rows, so they can run in a thread and be tested alone."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping

from bot.domain.values import HistoryEntry, Standing

LEADERBOARD_COLUMNS = (
    "rank", "user_id", "name", "games", "wins", "win_rate", "cards", "steals",
    "biggest_steal", "rating", "mu", "sigma",
)  # fmt: skip


def leaderboard_csv(board: Iterable[Standing]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LEADERBOARD_COLUMNS)
    for s in board:
        p = s.player
        writer.writerow([
            s.rank, p.user_id, _safe(p.name), p.games, p.wins, f"{p.win_rate:.3f}", p.cards,
            p.steals, p.biggest_steal, f"{p.rating:.2f}", f"{p.mu:.4f}", f"{p.sigma:.4f}",
        ])  # fmt: skip
    return out.getvalue().encode("utf-8")


def _safe(text: str) -> str:
    """Names are chosen by members: one starting with = + - @ would run as a spreadsheet
    formula when the file is opened, so it is quoted with an apostrophe."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def games_jsonl(entries: Iterable[HistoryEntry], names: Mapping[str, str]) -> bytes:
    """One finished game per line, oldest first, with its full engine record."""
    lines = []
    for e in entries:
        lines.append(
            json.dumps(
                {
                    "game_id": e.game_id,
                    "channel_id": str(e.channel_id),
                    "finished_at": e.finished_at,
                    "players": [{"id": u, "name": names.get(u, "")} for u in e.seats],
                    "places": list(e.places),
                    "winners": list(e.winners),
                    "forfeited": list(e.forfeited),
                    "record": e.record,
                },
                ensure_ascii=False,
                separators=(",", ":"),
            )
        )
    return ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8")
