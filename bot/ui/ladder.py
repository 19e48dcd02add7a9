"""The global ladder (`/steal leaderboard scope:global`), a player's place on it in
`/steal stats`, and `/steal profile`'s answers.

Privacy first (docs/privacy.md): a person's name is on the ladder only if they chose to show it
(`LadderEntry.name`); everyone else is "a player", their rank and figures only. The ladder is
a public message, so the member who asked is pointed at only when their name is shown: else
the marker would tell the channel which anonymous row is theirs. Their rank is in their own
(ephemeral) `/steal stats`.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.domain.values import LadderEntry
from bot.i18n import t, tn

from . import ids
from .boards import ME, layout, pager, pages, percent, ranked, rating, small, start
from .names import shown
from .render import Message, command

GLOBAL = ids.GLOBAL  # the board pager's "sort" for the ladder's pages


def name_of(lang: str, entry: LadderEntry) -> str:
    """The name a person chose to show, escaped; else "a player"."""
    if entry.name:
        return shown(entry.name) or t(lang, "ladder.anonymous")
    return t(lang, "ladder.anonymous")


def ladder_row(lang: str, entry: LadderEntry, me: str | None = None) -> str:
    """One person on two lines, as the server boards write them: rank (or medal), name and the
    rating in bold; then, small, games, wins and win rate."""
    name = name_of(lang, entry)
    if entry.user_id == me and entry.name:  # only a shown name is pointed at (see above)
        name = f"{ME} __{name}__"
    columns = f"**{t(lang, 'board.rating', rating=rating(lang, entry.rating))}**"
    first = ranked(lang, entry.rank, name, columns)
    rest = (
        tn(lang, "board.games", entry.games),
        tn(lang, "board.wins", entry.wins),
        t(lang, "board.win_rate", percent=percent(lang, entry.wins, entry.games)),
    )
    return f"{first}\n-# {' · '.join(rest)}"


def ladder(
    lang: str,
    entries: Sequence[LadderEntry],
    page: int,
    count: int,
    asked: int,
    me: str | None = None,
) -> Message:
    """One page of the global ladder. `page` is the page shown (boards.clamp_page), `asked`
    the one requested, `count` how many people the ladder has; `me` the asker's id."""
    title = f"### 🌍 {t(lang, 'ladder.title')}"
    if count == 0:
        empty = t(lang, "ladder.empty", start=start(lang))
        return Message(view=layout(discord.ui.TextDisplay(f"{title}\n{empty}")))
    last = pages(count)
    players = tn(lang, "board.players", count)
    head = [title, small(t(lang, "ladder.about", players=players))]
    if asked > last:
        head.append(small(tn(lang, "board.past_end", last)))
    rows = [ladder_row(lang, e, me) for e in entries]
    note = t(lang, "ladder.names", command=command(lang, "profile"))
    footer = t(lang, "board.footer", page=page, pages=last, players=players, note=note)
    items: list[discord.ui.Item[discord.ui.LayoutView]] = [
        discord.ui.TextDisplay("\n".join(head)),
        discord.ui.TextDisplay("\n".join(rows)),
        discord.ui.TextDisplay(small(footer if last > 1 else note)),
    ]
    if last > 1:
        items.append(pager(lang, GLOBAL, page, last))
    return Message(view=layout(*items))


def fixed_order(lang: str) -> str:
    """An ephemeral error: `scope:global` with `sort` or `season`, which the ladder has not
    (it ranks every place's players by rating, over all time)."""
    return t(lang, "ladder.fixed_order", command=command(lang, "leaderboard"))


def global_rank(lang: str, entry: LadderEntry, count: int, me: bool) -> str:
    """The stats' line for the global ladder: the rank of all its people; for the reader's
    own stats with a hidden name, how to show it."""
    players = tn(lang, "board.players", count)
    text = t(lang, "ladder.rank", rank=entry.rank, players=players)
    if me and not entry.name:
        text += "\n" + small(t(lang, "ladder.rank_hidden", command=command(lang, "profile")))
    return text


def profile_set(lang: str, show: bool, name: str) -> str:
    """`/steal profile global_name:` answered: what the ladder shows now."""
    if show:
        return t(lang, "profile.shown", name=shown(name), command=command(lang, "profile"))
    return t(lang, "profile.hidden", anonymous=t(lang, "ladder.anonymous"))


def profile_status(lang: str, profile: tuple[bool, str] | None) -> str:
    """`/steal profile` with no option: the setting as it stands (hidden unless chosen)."""
    if profile is not None and profile[0]:
        return t(lang, "profile.status_shown", name=shown(profile[1]))
    anonymous = t(lang, "ladder.anonymous")
    return t(lang, "profile.status_hidden", anonymous=anonymous, command=command(lang, "profile"))
