"""Shortcuts the ui tests share: a table straight to its picture or layout, and the rules
as an embed. The bot never needs these (it takes a Scene on the event loop and draws it in a
thread), so they live here, not in bot.ui."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.engine import Rules
from bot.i18n import t
from bot.i18n.rules import rules_summary, rules_title
from bot.session.models import Table
from bot.ui.picture import LastMove, Layout, Scene, TableCache, layout, render
from bot.ui.render import BLUE


def render_table(
    table: Table,
    names: Mapping[str, str],
    lang: str,
    *,
    last: LastMove | None = None,
    four_colour: bool = False,
) -> bytes:
    """The table as a PNG, in the reader's language."""
    return render(Scene.of(table, names, lang, last=last, four_colour=four_colour))


def layout_table(
    table: Table,
    names: Mapping[str, str],
    lang: str,
    *,
    last: LastMove | None = None,
    four_colour: bool = False,
) -> Layout:
    """What render_table would draw, as plain data."""
    return layout(Scene.of(table, names, lang, last=last, four_colour=four_colour))


def cached_table(
    cache: TableCache,
    table: Table,
    names: Mapping[str, str],
    lang: str,
    *,
    last: LastMove | None = None,
    four_colour: bool = False,
) -> bytes:
    """The table's picture through `cache`."""
    return cache.picture(Scene.of(table, names, lang, last=last, four_colour=four_colour))


def rules_embed(lang: str, rules: Rules, title: str | None = None) -> discord.Embed:
    """The rules in play as an embed (title, summary, footer): every text of them, to check."""
    embed = discord.Embed(
        title=title or rules_title(lang, rules), description=rules_summary(lang, rules), colour=BLUE
    )
    embed.set_footer(text=t(lang, "reply.rules_footer"))
    return embed
