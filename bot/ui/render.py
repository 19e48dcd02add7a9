"""Embeds, message text and button layouts for lobbies, tables and hands.

Pure functions of session values (ids, engine views and display names): they make no API
calls, so the cog decides when to send what, and tests can render without Discord.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import discord
from discord.utils import escape_markdown

from bot.engine import TRAIL, BundleView, Move, Rules, view
from bot.seats import ai_name, is_ai
from bot.session import Hand, Lobby, Table

from . import ids
from .buttons import StealButton, view_of
from .cards import label, labels
from .text import choice_label, names_of, plural, rules_footer, rules_summary, rules_title

GREEN = discord.Colour.from_rgb(46, 160, 67)
BLUE = discord.Colour.blurple()
GREY = discord.Colour.light_grey()
LOG_LINES = 5  # moves shown under the table


@dataclass(frozen=True)
class Message:
    """What to send or edit: any of content, embed and view."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    pings: tuple[str, ...] = ()  # users the content may ping (the bot pings nobody otherwise)

    def kwargs(self) -> dict:
        """For edits: None clears that part."""
        return {"content": self.content, "embed": self.embed, "view": self.view}

    def send_kwargs(self) -> dict:
        """For new messages, which refuse view=None: only the parts that are set."""
        sent = {k: v for k, v in self.kwargs().items() if v is not None}
        if self.pings:
            users = [discord.Object(int(u)) for u in self.pings]
            sent["allowed_mentions"] = discord.AllowedMentions(users=users)
        return sent


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def who(user_id: str, names: Mapping[str, str]) -> str:
    """A player in an embed: their last known name, in bold. Not a mention: mentions in embeds
    never ping, and show as a raw id where the reader's client does not know that user."""
    if is_ai(user_id):
        return f"**{ai_name(user_id)}**"
    name = names.get(user_id)
    return f"**{escape_markdown(name)}**" if name else mention(user_id)


def timestamp(when: float, style: str = "R") -> str:
    return f"<t:{int(when)}:{style}>"


def jump_url(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


# ----- lobby


def lobby(lobby: Lobby, names: Mapping[str, str]) -> Message:
    seats = "\n".join(
        f"{i + 1}. {who(u, names)}{' (host)' if u == lobby.host_id else ''}"
        for i, u in enumerate(lobby.seats)
    )
    free = lobby.max_players - len(lobby.seats)
    embed = discord.Embed(
        title="Steal the Bundle: new game",
        description=f"Hosted by {who(lobby.host_id, names)}. Join, then the host starts the game.",
        colour=BLUE,
    )
    embed.add_field(name=f"Players ({len(lobby.seats)}/{lobby.max_players})", value=seats)
    embed.add_field(name=rules_title(lobby.rules), value=rules_summary(lobby.rules), inline=False)
    if lobby.match is not None:
        scoring = "most games won" if lobby.match["scoring"] == "wins" else "most cards in all"
        embed.add_field(
            name="Match",
            value=f"{plural(lobby.match['games'], 'game')} with the same players; "
            f"the winner has the {scoring}. The deal moves one seat on each game.",
            inline=False,
        )
    if lobby.deadline is not None:
        embed.add_field(name="Expires", value=timestamp(lobby.deadline), inline=False)
    embed.set_footer(text="2 to 4 players." + (f" {plural(free, 'seat')} free." if free else ""))
    g = lobby.game_id
    buttons = [
        StealButton(ids.lobby("join", g), "Join", discord.ButtonStyle.success, disabled=not free),
        StealButton(ids.lobby("leave", g), "Leave"),
        StealButton(ids.lobby("start", g), "Start", discord.ButtonStyle.primary),
        StealButton(ids.lobby("cancel", g), "Cancel", discord.ButtonStyle.danger),
    ]
    if lobby.options.get("ai_allowed", True):
        buttons.insert(2, StealButton(ids.lobby("bot", g), "Add bot", disabled=not free))
    if any(is_ai(s) for s in lobby.seats):
        buttons.insert(3, StealButton(ids.lobby("unbot", g), "Remove bot"))
    return Message(embed=embed, view=view_of(*buttons))


def bot_choice(game_id: int) -> Message:
    """The host picks how strong an AI opponent to seat (an ephemeral question)."""
    buttons = view_of(
        StealButton(ids.lobby("bot_easy", game_id), "🤖 Easy"),
        StealButton(ids.lobby("bot_medium", game_id), "🤖 Medium", discord.ButtonStyle.primary),
        StealButton(ids.lobby("bot_hard", game_id), "🤖 Hard"),
    )
    text = (
        "Which AI opponent? **Easy** plays any card, **Medium** counts cards, "
        "**Hard** thinks ahead."
    )
    return Message(content=text, view=buttons)


def lobby_closed(why: str) -> Message:
    embed = discord.Embed(title="Steal the Bundle: lobby closed", description=why, colour=GREY)
    return Message(content=None, embed=embed, view=None)


# ----- table


def bundle_text(bundle: BundleView, rules: Rules) -> str:
    return (
        f"{plural(bundle.size, 'card')}, top {label(bundle.top, rules)}" if bundle.top else "empty"
    )


def table(t: Table, names: Mapping[str, str], log: Sequence[str]) -> Message:
    """The live table (the end of a game is bot.ui.final)."""
    game = t.game
    v = view(game, 0)  # only the public parts are read here
    rules = game.rules
    embed = discord.Embed(title="Steal the Bundle", colour=GREEN)
    if t.match is not None:
        embed.title = f"Steal the Bundle: game {t.match['number']} of {t.match['games']}"
    if v.playoff:
        embed.title += f", playoff {v.playoff}" if t.match else f": playoff {v.playoff}"
    embed.add_field(name="Pool", value=labels(v.pool, rules), inline=False)
    for seat in range(len(game.seats)):
        bundles = v.bundles[seat]
        tops = " / ".join(bundle_text(b, rules) for b in bundles)
        marks = ""
        if seat in t.forfeited:
            marks = " 🏳️ forfeited"
        elif seat in t.away:
            marks = " 💤 away"
        turn = "▶️ " if v.turn == seat else ""
        name = names_of(game.seats, names)(seat)
        embed.add_field(
            name=f"{turn}{name}{marks}",
            value=f"Bundle: {tops}\nHand: {plural(v.hand_sizes[seat], 'card')}",
            inline=True,
        )
    status = f"Turn: {who(game.seats[v.turn], names)}"
    if is_ai(game.seats[v.turn]):
        status += " · thinking…"
    elif t.deadline is not None:
        status += f" · auto-play {timestamp(t.deadline)}"
    status += f"\nStock: {plural(v.stock_size, 'card')}"
    embed.description = status
    if log:
        embed.add_field(name="Last moves", value="\n".join(log[-LOG_LINES:]), inline=False)
    embed.set_footer(text=rules_footer(rules))
    g = t.game_id
    buttons = view_of(
        StealButton(ids.table("hand", g), "My hand", discord.ButtonStyle.primary, emoji="🃏"),
        StealButton(ids.table("rules", g), "Rules", emoji="📖"),
    )
    return Message(content=None, embed=embed, view=buttons)


def table_moved(guild_id: int, channel_id: int, message_id: int) -> Message:
    link = jump_url(guild_id, channel_id, message_id)
    return Message(content=f"The table moved: {link}", embed=None, view=None)


def cancelled(what: str, by: str, names: Mapping[str, str], admin: bool = False) -> Message:
    """What a cancelled lobby or game's message turns into."""
    how = "Ended by a server admin," if admin else "Cancelled by"
    embed = discord.Embed(
        title=f"Steal the Bundle: {what} {'ended' if admin else 'cancelled'}",
        description=f"{how} {who(by, names)}. No stats were recorded.",
        colour=GREY,
    )
    return Message(content=None, embed=embed, view=None)


def ended_by_admin(what: str, by: str, players: Sequence[str]) -> Message:
    """Tells the players (pinging each once) that an admin ended their lobby or game."""
    everyone = ", ".join(mention(p) for p in players)
    text = f"{everyone}: a server admin ended this {what}. Nothing was recorded."
    return Message(content=text, pings=tuple(players))


# ----- hands


def _status(h: Hand, t: Table, names: Mapping[str, str]) -> str:
    v = h.view
    if v.result is not None:
        return "The game is over."
    if h.seat in t.forfeited:
        return "You forfeited: the bot plays your cards."
    if v.turn == h.seat:
        line = "**Your turn**: pick a card."
        if t.deadline is not None:
            line += f" Auto-play {timestamp(t.deadline)}."
        return line
    if h.seat not in v.players:
        return "You sit out this playoff."
    who = names.get(v.seats[v.turn]) or f"Player {v.turn + 1}"
    return f"It's {who}'s turn."


def hand(h: Hand, t: Table, names: Mapping[str, str], note: str | None = None) -> Message:
    v, rules = h.view, h.view.rules
    mine = " / ".join(bundle_text(b, rules) for b in v.bundles[h.seat])
    others = "; ".join(
        f"{names.get(user) or f'Player {seat + 1}'}: "
        + " / ".join(bundle_text(b, rules) for b in v.bundles[seat])
        for seat, user in enumerate(v.seats)
        if seat != h.seat
    )
    lines = [
        f"**Your hand**: {labels(v.hand, rules)}",
        f"Pool: {labels(v.pool, rules)}",
        f"Your bundle: {mine}",
        f"Others: {others}",
        _status(h, t, names),
    ]
    if note:
        lines.insert(0, f"⚠️ {note}")
    can_play = bool(h.legal) and h.seat not in t.forfeited
    takes = {m.card for m in h.legal if m.action != TRAIL}
    buttons = [
        StealButton(
            ids.card(h.game_id, h.version, c),
            label(c, rules),
            discord.ButtonStyle.success if c in takes else discord.ButtonStyle.secondary,
            disabled=not can_play,
        )
        for c in v.hand
    ]
    return Message(content="\n".join(lines), embed=None, view=view_of(*buttons))


def choices(h: Hand, card: str, names: Mapping[str, str]) -> Message:
    v, rules = h.view, h.view.rules
    name = names_of(v.seats, names)
    moves: list[Move] = [m for m in h.legal if m.card == card]
    buttons = [
        StealButton(
            ids.move(h.game_id, h.version, m),
            choice_label(m, rules, v.pool, v.bundles, name)[:80],
            discord.ButtonStyle.secondary if m.action == TRAIL else discord.ButtonStyle.success,
        )
        for m in moves
    ]
    buttons.append(StealButton(ids.back(h.game_id, h.version), "Back", emoji="↩️"))
    text = f"What should {label(card, rules)} do?\nPool: {labels(v.pool, rules)}"
    return Message(content=text, embed=None, view=view_of(*buttons))


def rules_embed(rules: Rules, title: str | None = None) -> discord.Embed:
    embed = discord.Embed(
        title=title or rules_title(rules), description=rules_summary(rules), colour=BLUE
    )
    embed.set_footer(text="Full texts: README → Rules.")
    return embed
