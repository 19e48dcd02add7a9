"""Layouts and buttons for /steal leaderboard and stats, and a season's end (/steal history
and the Record reply: bot.ui.history).

Pure functions of storage values (stats rows, history entries, stored names): no API calls.
Names are the display names stored with the stats, not mentions: the bot has no members
intent, so a mention of someone the client has not cached (or who left) would not render.
Every function takes the reader's language: the server's for the public leaderboard, the
member's own for the ephemeral stats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import discord
from babel.dates import format_date
from babel.numbers import format_decimal, get_decimal_symbol

from bot.domain import ratings as stats
from bot.domain.former import is_former
from bot.domain.seats import is_ai
from bot.domain.values import PlayerStats, Season, Standing
from bot.i18n import t, tn
from bot.i18n.commands import named

from . import ids
from .names import plain, shown
from .render import BLUE, Message, command, mention
from .stats_card import StatsCard, alt_text
from .text import ai_label
from .widgets import button, row

PER_PAGE = 10  # leaderboard rows per page
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
STATS_PNG = "stats.png"
ME = "👉"  # marks the row of the member who asked (or turned the page)


def pages(count: int) -> int:
    """How many leaderboard pages `count` players fill (an empty board still has one)."""
    return max(1, -(-count // PER_PAGE))


def clamp_page(page: int, count: int) -> int:
    """The page to show when `page` is asked for: out-of-range pages show the nearest end."""
    return min(max(page, 1), pages(count))


def start(lang: str) -> str:
    return t(lang, "board.start", command=command(lang, "new"))


def shown_name(lang: str, user_id: str, names: Mapping[str, str]) -> str:
    """A player's stored display name, escaped; a mention only if no name was ever stored."""
    if is_ai(str(user_id)):
        return ai_label(lang, str(user_id))
    if is_former(str(user_id)):
        return t(lang, "name.former")
    name = shown(names.get(str(user_id), ""))
    return name if name else mention(str(user_id))


def decimal(lang: str, value: float) -> str:
    """One decimal, with the language's decimal mark: "12.3", "12,3"."""
    return f"{value:.1f}".replace(".", get_decimal_symbol(lang))


def percent(lang: str, wins: int, games: int) -> str:
    n = f"{wins / games:.0%}"[:-1] if games else "0"
    return t(lang, "board.percent", n=n)


def rating_note(lang: str) -> str:
    return t(lang, "board.rating_note")


def rating(lang: str, value: int) -> str:
    """A displayed rating (ratings.display_rating) as the language writes numbers: "1,134"."""
    return format_decimal(value, locale=lang)


def layout(*items: discord.ui.Item[discord.ui.LayoutView]) -> discord.ui.LayoutView:
    """A Components V2 message: one card with the blurple accent."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*items, accent_colour=BLUE))
    return view


def pager(
    lang: str, sort: str, page: int, last: int
) -> discord.ui.ActionRow[discord.ui.LayoutView]:
    """A board's Previous and Next buttons (`sort`: the board's order, or the global
    ladder's key), each off at its end."""
    back = button(ids.board(sort, page - 1), t(lang, "board.previous"), emoji="◀️",
                  disabled=page <= 1)  # fmt: skip
    ahead = button(ids.board(sort, page + 1), t(lang, "board.next"), emoji="▶️",
                   disabled=page >= last)  # fmt: skip
    return row(back, ahead)


def ranked(lang: str, rank: int, name: str, columns: str) -> str:
    """A board row's first line: its medal for the first three, else its rank."""
    if rank in MEDALS:
        return t(lang, "leaderboard.row_medal", medal=MEDALS[rank], name=name, columns=columns)
    return t(lang, "board.row", rank=rank, name=name, columns=columns)


def small(*lines: str) -> str:
    """Lines in Discord's small grey subtext."""
    return "\n".join(f"-# {line}" for text in lines for line in text.splitlines() if line)


# ----- /steal leaderboard


def board_row(lang: str, standing: Standing, sort: str, me: str | None = None) -> str:
    """One player, on two lines so a phone does not wrap it: medal or rank, name and the
    sorted column in bold; then, small, the other columns (rating, games, wins, win rate,
    cards). The asker's own row is pointed at and underlined."""
    p = standing.player
    parts = {
        "rating": t(lang, "board.rating", rating=rating(lang, p.rating)),
        "games": tn(lang, "board.games", p.games),
        "wins": tn(lang, "board.wins", p.wins),
        "win_rate": t(lang, "board.win_rate", percent=percent(lang, p.wins, p.games)),
        "cards": tn(lang, "count.cards", p.cards),
    }
    sorted_by = f"**{parts.pop(sort)}**"
    name = shown_name(lang, p.user_id, {p.user_id: p.name})
    if p.user_id == me:
        name = f"{ME} __{name}__"
    first = ranked(lang, standing.rank, name, sorted_by)
    return f"{first}\n-# {' · '.join(parts.values())}"


def leaderboard(
    lang: str,
    standings: Sequence[Standing],
    sort: str,
    page: int,
    count: int,
    asked: int,
    me: Standing | None = None,
    season: int | None = None,
    past: Season | None = None,
    ai_uncounted: bool = False,
) -> Message:
    """One page of the board. `page` is the page shown (see clamp_page), `asked` the one
    requested, `count` how many players the whole board has; `me` the standing of the member
    who asked, highlighted on the page or shown below it. `season`: the season under way, named
    in the title once the server has had one end; `past`: an ended season's final board
    instead (in its rating order, turned by the `page` option: no pager). Its words say "here",
    never "this server": a group DM and a DM keep boards too."""
    title = f"### 🏆 {t(lang, 'board.title')}"  # one line on a phone
    if past is not None:
        title = f"### 🏆 {t(lang, 'board.season_title', n=past.number)}"
    elif season is not None and season > 1:
        title = f"### 🏆 {t(lang, 'board.season_title', n=season)}"
    if count == 0:
        empty = t(lang, "board.empty", start=start(lang))
        if past is None and season is not None and season > 1:
            empty = t(lang, "board.season_empty", n=season, start=start(lang))
        elif ai_uncounted:  # the usual surprise: a game against AI opponents just ended
            empty += "\n" + small(ai_note(lang))
        return Message(view=layout(discord.ui.TextDisplay(f"{title}\n{empty}")))
    last = pages(count)
    players, note = tn(lang, "board.players", count), rating_note(lang)
    sorted_by = t(lang, "leaderboard.sorted", sort=t(lang, f"board.sort.{sort}"))
    if past is not None:
        sorted_by = season_span(lang, past)
    # One page: the count shares the sort's line; more pages: it is in the footer.
    head = [title, small(sorted_by if last > 1 else f"{sorted_by} · {players}")]
    if asked > last:
        head.append(small(tn(lang, "board.past_end", last)))
    mine = me.player.user_id if me else None
    rows = [board_row(lang, s, sort, mine) for s in standings]
    if me is not None and all(s.player.user_id != mine for s in standings):
        rows += ["…", board_row(lang, me, sort, mine)]  # the asker, below the page
    footer = t(lang, "board.footer", page=page, pages=last, players=players, note=note)
    items: list[discord.ui.Item[discord.ui.LayoutView]] = [
        discord.ui.TextDisplay("\n".join(head)),
        discord.ui.TextDisplay("\n".join(rows)),
        discord.ui.TextDisplay(small(footer if last > 1 else note)),
    ]
    if last > 1 and past is None:  # no pager on a single page
        items.append(pager(lang, sort, page, last))
    return Message(view=layout(*items))


# ----- seasons


def day(lang: str, when: float, size: str = "medium") -> str:
    """A date as the language writes it: "Dec 2, 2026", "2 déc. 2026"; short: "12/2/26"."""
    return format_date(datetime.fromtimestamp(when, UTC).date(), format=size, locale=lang)


def season_span(lang: str, season: Season) -> str:
    """ "Final · 10/7/26 – 12/2/26": short, so it stays one line on a phone."""
    end = season.ended_at if season.ended_at is not None else season.started_at
    start = day(lang, season.started_at, "short")
    return t(lang, "board.season_final", start=start, end=day(lang, end, "short"))


def season_choice(lang: str, season: Season) -> str:
    """A past season as the `season` option's autocomplete offers it (at most 100)."""
    end = season.ended_at if season.ended_at is not None else season.started_at
    return t(lang, "board.season_choice", n=season.number, start=day(lang, season.started_at),
             end=day(lang, end))[:100]  # fmt: skip


def unknown_season(lang: str, asked: int, past: Sequence[Season]) -> str:
    """An ephemeral error: `season:` named no season of this server's; the valid ones."""
    if not past:
        return t(lang, "board.season_none", n=asked)
    numbers = ", ".join(str(s.number) for s in sorted(past, key=lambda s: s.number))
    return t(lang, "board.season_unknown", n=asked, seasons=numbers)


def medal_counts(lang: str, medals: Sequence[int]) -> str:
    """ "🥇 2 · 🥉 1": the seasons a player ended first, second and third (only those won)."""
    won = [f"{MEDALS[place]} {format_decimal(n, locale=lang)}"
           for place, n in enumerate(medals, start=1) if n]  # fmt: skip
    return " · ".join(won)


def season_title(lang: str, number: int) -> str:
    """The first line of a season's end announcement (how the bot finds it again)."""
    return f"### 🏁 {t(lang, 'season.over.title', n=number)}"


def season_over(lang: str, payload: Mapping[str, Any]) -> Message:
    """The public announcement of a season's end in the channel of the server's latest game:
    the top three with their medals and ratings, and what the next season starts from.
    `payload`: what bot.storage.seasons owed (season, top, players)."""
    number = int(payload["season"])
    rows = []
    for rank, user_id, name, mu, sigma in payload["top"]:
        medal = MEDALS.get(int(rank), f"{rank}.")
        who = shown_name(lang, str(user_id), {str(user_id): str(name)})
        value = rating(lang, stats.display_rating(float(mu), float(sigma)))
        rows.append(t(lang, "season.over.row", medal=medal, name=who, rating=value))
    players = tn(lang, "board.players", int(payload.get("players", len(rows))))
    board = command(lang, "leaderboard")
    body = t(lang, "season.over.next", next=number + 1, command=board, n=number)
    view = layout(
        discord.ui.TextDisplay(season_title(lang, number)),
        discord.ui.TextDisplay("\n".join(rows)),
        discord.ui.TextDisplay(f"{body}\n{small(players)}"),
    )
    return Message(view=view)


# ----- /steal stats


def stats_card(
    lang: str, p: PlayerStats, name: str, rank: int | None, count: int, figures: stats.Figures
) -> StatsCard:
    """The values the stats picture shows (drawn by bot.ui.stats_card, in a thread)."""
    return StatsCard(
        lang, plain(name), p.games, p.wins, p.rating, figures.trend, rank, count, p.biggest_steal,
        figures.favourite, p.cards, p.steals,
    )  # fmt: skip


def player_stats(
    lang: str,
    p: PlayerStats,
    name: str,
    rank: int | None,
    count: int,
    figures: stats.Figures,
    picture: bytes,
    me: bool = False,
    medals: Sequence[int] = (),
    pending: bool = False,
    ranked: str = "",
) -> Message:
    """A player's stats: the card (`picture`, from `stats_card`), every figure in its
    description (alt text), and in words only what the picture does not draw: the cards and
    steals of all their counted games. `name` is shown as given (escaped here); `me`: the
    reader's own stats; `pending`: the server's older games are still being worked out (after
    an upgrade), so the trend and favourite capture leave them out; `ranked`: their place on
    the global ladder (bot.ui.ladder.global_rank), or "" not to show it."""
    card = stats_card(lang, p, name, rank, count, figures)
    said = shown(name)
    if me:
        said = t(lang, "stats_card.you", name=said)

    def item(key: str, value: int) -> str:
        return t(
            lang, "stats_card.item", name=t(lang, key), value=format_decimal(value, locale=lang)
        )

    totals = " · ".join([item("stats.cards", p.cards), item("stats.steals", p.steals)])
    if any(medals):
        totals += "\n" + t(lang, "stats.medals", medals=medal_counts(lang, medals))
    if pending:
        totals += "\n" + t(lang, "stats.pending")
    if ranked:
        totals += "\n" + ranked
    board = command(lang, "leaderboard")
    footer = t(lang, "stats.footer", note=rating_note(lang), command=board)
    view = layout(
        discord.ui.TextDisplay(f"## 📊 {t(lang, 'stats.title', name=said)}"),
        discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{STATS_PNG}", description=alt_text(card))
        ),
        discord.ui.TextDisplay(totals),
        discord.ui.TextDisplay(small(footer)),
    )
    return Message(view=view, images=((STATS_PNG, picture),))


def season_empty(lang: str, name: str | None, season: int, medals: Sequence[int]) -> str:
    """For /steal stats of a member with no counted game yet in the season under way, who
    played in an earlier one: their season medals, if any."""
    if name is None:
        text = t(lang, "stats.season_empty_you", n=season, start=start(lang))
    else:
        text = t(lang, "stats.season_empty_other", name=shown(name), n=season)
    if any(medals):
        text += "\n" + t(lang, "stats.medals", medals=medal_counts(lang, medals))
    return text


def ai_note(lang: str) -> str:
    """Why games with AI opponents are not on the board, and where an admin changes it."""
    return t(
        lang, "board.ai_uncounted", admin=named(lang, "steal-admin settings"),
        topic=t(lang, "panel.topic.ai"), setting=t(lang, "panel.switch.ai_counts"),
    )  # fmt: skip


def only_uncounted(lang: str, name: str | None, ai_uncounted: bool = False) -> str:
    """For /steal stats of a member whose finished games here all went uncounted (with AI
    opponents or hints, as the server's settings say, or before a board reset); with
    `ai_uncounted` (the server leaves out games with AI opponents) also how that changes."""
    if name is None:
        said = t(lang, "stats.uncounted_you", start=start(lang))
    else:
        said = t(lang, "stats.uncounted_other", name=shown(name), start=start(lang))
    return f"{said}\n{small(ai_note(lang))}" if ai_uncounted else said


def never_played(lang: str, name: str | None) -> str:
    """For /steal stats and history: `name` None means the member asking."""
    if name is None:
        return t(lang, "stats.never_you", start=start(lang))
    return t(lang, "stats.never_other", name=shown(name), start=start(lang))
