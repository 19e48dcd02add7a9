"""Embeds, message text and button layouts for lobbies, tables and hands.

Pure functions of session values (ids, engine views and display names): they make no API
calls, so the cog decides when to send what, and tests can render without Discord.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.domain.former import is_former
from bot.domain.seats import is_ai
from bot.domain.server_settings import duration
from bot.engine import BundleView, Rules
from bot.i18n import DEFAULT, t, tn
from bot.i18n.cards import label
from bot.i18n.commands import named
from bot.i18n.rules import rules_footer
from bot.session.models import Lobby, Table

from . import ids
from .names import shown
from .text import ai_label, cards
from .widgets import button, row, view_of

BLUE = discord.Colour.blurple()
Item = discord.ui.Item[discord.ui.LayoutView]  # a part of a V2 message's layout
GREY = discord.Colour.from_rgb(128, 132, 142)  # closed, cancelled, moved, over


@dataclass(frozen=True)
class Message:
    """What to send or edit: any of content, embed and view, or a Components V2 layout
    (a `discord.ui.LayoutView`, which carries all the text) with its images."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | discord.ui.LayoutView | None = None
    pings: tuple[str, ...] = ()  # users the content may ping (the bot pings nobody otherwise)
    # (file name, PNG bytes): kept as bytes because a discord.File can be sent only once,
    # and a failed edit is retried. A layout shows them as attachment://name.
    images: tuple[tuple[str, bytes], ...] = ()

    @property
    def v2(self) -> bool:
        return isinstance(self.view, discord.ui.LayoutView)

    def files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.images]

    def kwargs(self) -> dict[str, Any]:
        """For edits: None clears that part; the images replace the message's attachments."""
        if self.v2:  # a V2 message has no content or embeds: the layout holds everything
            return {"content": None, "embed": None, "view": self.view, "attachments": self.files()}
        fields: dict[str, Any] = {"content": self.content, "embed": self.embed, "view": self.view}
        if self.images:
            fields["attachments"] = self.files()
        return fields

    def send_kwargs(self) -> dict[str, Any]:
        """For new messages, which refuse view=None: only the parts that are set."""
        edit = self.kwargs()
        sent = {k: v for k, v in edit.items() if v is not None and k != "attachments"}
        if self.images:
            sent["files"] = edit["attachments"]
        if self.pings:
            users = [discord.Object(int(u)) for u in self.pings]
            sent["allowed_mentions"] = discord.AllowedMentions(users=users)
        return sent


def card_view(colour: discord.Colour | None, *items: Item) -> discord.ui.LayoutView:
    """A message that is one Container with this accent colour."""
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.Container(*items, accent_colour=colour))
    return layout


def text(*lines: str) -> discord.ui.TextDisplay[discord.ui.LayoutView]:
    return discord.ui.TextDisplay("\n".join(line for line in lines if line))


def picture(name: str, alt: str) -> discord.ui.MediaGallery[discord.ui.LayoutView]:
    """An attached PNG, shown full width; `alt` is its description for screen readers (at
    most 1,024 characters, Discord's limit)."""
    return discord.ui.MediaGallery(
        discord.MediaGalleryItem(f"attachment://{name}", description=alt[:1024])
    )


def notice(title: str, body: str, colour: discord.Colour = GREY) -> Message:
    """A closed lobby or game, a moved table: a grey card with a title and a line. (A
    Components V2 message can only be edited into another one.)"""
    return Message(view=card_view(colour, text(f"### {title}", body)))


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def public_lang(game: Lobby | Table) -> str:
    """The language of a lobby's or table's public messages: the server's when it opened
    (games from before languages existed have none: English)."""
    return game.setup.lang or DEFAULT


def command(lang: str, sub: str) -> str:
    """A /steal subcommand as every reader can type it: a mention Discord shows in each
    reader's language (bot.i18n.commands.named)."""
    return named(lang, f"steal {sub}")


def who(lang: str, user_id: str, names: Mapping[str, str]) -> str:
    """A player in an embed: their last known name, in bold. Not a mention: mentions in embeds
    never ping, and show as a raw id where the reader's client does not know that user."""
    if is_ai(user_id):
        return f"**{ai_label(lang, user_id)}**"
    if is_former(user_id):
        return f"**{t(lang, 'name.former')}**"
    name = shown(names.get(user_id, ""))
    return f"**{name}**" if name else mention(user_id)


def timestamp(when: float, style: str = "R") -> str:
    return f"<t:{int(when)}:{style}>"


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """A message's link; `guild_id` None: a DM's ("@me")."""
    where = "@me" if guild_id is None else guild_id
    return f"https://discord.com/channels/{where}/{channel_id}/{message_id}"


# ----- lobby


def lobby(lang: str, lobby: Lobby, names: Mapping[str, str]) -> Message:
    """The lobby as one short card (it fits a phone's screen in every language): who hosts
    and who sits, the rules in one line, the match, when it expires, and its buttons. Start
    comes first and green: the host's next step; it stays disabled while the host is alone,
    and says why."""
    seats = " · ".join(  # on one line (wrapped): the lobby fits a phone's screen
        t(lang, "lobby.seat_host" if u == lobby.host_id else "lobby.seat",
          number=i + 1, name=who(lang, u, names))
        for i, u in enumerate(lobby.seats)
    )  # fmt: skip
    free = lobby.max_players - len(lobby.seats)
    players = t(lang, "lobby.players", seated=len(lobby.seats), max=lobby.max_players)
    footer = [tn(lang, "lobby.footer_free", free) if free else t(lang, "lobby.footer")]
    if lobby.match is not None:
        key = "lobby.match.wins" if lobby.match.scoring == "wins" else "lobby.match.cards"
        footer.insert(0, f"{t(lang, 'lobby.match_title')}: {tn(lang, key, lobby.match.games)}")
    if lobby.deadline is not None:
        footer.append(f"{t(lang, 'lobby.expires')} {timestamp(lobby.deadline)}")
    alone = len(lobby.seats) < 2
    items: list[Item] = [
        text(
            f"### {t(lang, 'lobby.title')}",
            "-# " + t(lang, "lobby.description", host=who(lang, lobby.host_id, names)),
        ),
        text(f"**{players}**", seats),
        text(
            f"-# {rules_footer(lang, lobby.rules)}",
            "-# " + " · ".join(footer),
            f"-# {t(lang, 'lobby.start_alone')}" if alone else "",
        ),
    ]
    g = lobby.game_id

    def lobby_button(op: str, *args: Any, **kwargs: Any) -> discord.ui.Button[discord.ui.View]:
        return button(ids.lobby(op, g), t(lang, f"lobby.button.{op}"), *args, **kwargs)

    start = lobby_button("start", discord.ButtonStyle.success, disabled=alone)
    join = lobby_button("join", discord.ButtonStyle.primary, disabled=not free)
    others = []
    if lobby.setup.ai_allowed is not False:
        others.append(lobby_button("bot", disabled=not free))
    if any(is_ai(s) for s in lobby.seats):
        others.append(lobby_button("unbot"))
    items += [
        row(start, join, lobby_button("leave")),
        row(*others, lobby_button("cancel", discord.ButtonStyle.danger)),
    ]
    return Message(view=card_view(BLUE, *items))


def bot_choice(lang: str, game_id: int) -> Message:
    """The host picks how strong an AI opponent to seat (an ephemeral question)."""
    buttons = view_of(
        *(
            button(
                ids.lobby(f"bot_{level}", game_id),
                t(lang, f"lobby.bot.{level}"),
                discord.ButtonStyle.primary if level == "medium" else discord.ButtonStyle.secondary,
            )
            for level in ("easy", "medium", "hard")
        )
    )
    return Message(content=t(lang, "lobby.bot_question"), view=buttons)


def lobby_closed(lang: str, why: str) -> Message:
    return notice(t(lang, "lobby.closed_title"), why)


def lobby_expired(lang: str, seconds: float) -> Message:
    waited = duration(seconds, lang)
    return lobby_closed(lang, t(lang, "lobby.expired", time=waited, new=command(lang, "new")))


def lobby_emptied(lang: str) -> Message:
    return lobby_closed(lang, t(lang, "lobby.everyone_left", new=command(lang, "new")))


# ----- table


def bundle_text(lang: str, bundle: BundleView, rules: Rules) -> str:
    if not bundle.top:
        return t(lang, "table.bundle_empty")
    return t(
        lang, "table.bundle", cards=cards(lang, bundle.size), top=label(lang, bundle.top, rules)
    )


def bundles_text(lang: str, bundles: Sequence[BundleView], rules: Rules) -> str:
    return " / ".join(bundle_text(lang, b, rules) for b in bundles)


def table_title(lang: str, t_: Table, playoff: int) -> str:
    m = t_.match
    if m is None:
        return (
            t(lang, "table.title_playoff", playoff=playoff) if playoff else t(lang, "table.title")
        )
    key = "table.title_match_playoff" if playoff else "table.title_match"
    return t(lang, key, number=m.number, games=m.games, playoff=playoff)


def table_moved(lang: str, guild_id: int | None, channel_id: int, message_id: int) -> Message:
    link = jump_url(guild_id, channel_id, message_id)
    return notice(t(lang, "table.title"), t(lang, "table.moved", link=link))


def cancelled(
    lang: str, what: str, by: str, names: Mapping[str, str], admin: bool = False
) -> Message:
    """What a cancelled lobby or game's message turns into; `what` is "lobby" or "game"."""
    how = "ended" if admin else "cancelled"
    return notice(
        t(lang, f"table.{how}.{what}"), t(lang, f"table.{how}_by", name=who(lang, by, names))
    )


def ended_by_admin(lang: str, what: str, by: str, players: Sequence[str]) -> Message:
    """Tells the players (pinging each once) that an admin ended their lobby or game."""
    everyone = ", ".join(mention(p) for p in players)
    text = t(lang, f"table.admin_ended.{what}", players=everyone)
    return Message(content=text, pings=tuple(players))
