"""Words for moves, players and choices, in the reader's language. Plain functions of engine
values, so they are easy to test. Card names are bot.i18n.cards; rules are bot.i18n.rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.domain.former import is_former
from bot.domain.seats import difficulty, is_ai
from bot.engine import CAPTURE, RANK, STEAL, BundleView, Event, Move, Rules
from bot.i18n import game_of, t, tn
from bot.i18n.cards import label
from bot.i18n.commands import named
from bot.session.errors import SessionError

from .names import plain, shown


def cards(lang: str, n: int) -> str:
    return tn(lang, "count.cards", n)


def join_names(lang: str, names: Sequence[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cat" (in the reader's language)."""
    if len(names) == 1:
        return names[0]
    return t(lang, "final.and", first=", ".join(names[:-1]), last=names[-1])


def ai_label(lang: str, seat_id: str) -> str:
    """An AI seat's name: "🤖 Medium bot", then "🤖 Medium bot 2" for a second one; in the
    game's language (game_of), so it is one name on every screen of the game."""
    number = seat_id.rsplit(":", 1)[1]
    name = t(game_of(lang), f"name.ai.{difficulty(seat_id)}")
    return name if number == "1" else f"{name} {number}"


Name = Callable[[int], str]  # seat -> how to show that player


def names_of(lang: str, seats: tuple[str, ...], known: Mapping[str, str]) -> Name:
    """Each seat's name, `plain` (for labels and pictures); `in_text` for message text."""

    def name(seat: int) -> str:
        if is_ai(seats[seat]):
            return ai_label(lang, seats[seat])
        if is_former(seats[seat]):  # forgotten at their request (docs/privacy.md)
            return t(lang, "name.former")
        return plain(known.get(seats[seat], "")) or t(lang, "name.player", number=seat + 1)

    return name


def in_text(name: Name) -> Name:
    """The same names escaped for message text (bot/ui/names.py)."""
    return lambda seat: shown(name(seat))


BUTTON_NAME = 24  # a player's name in a move button is cut to this: a label holds 80 characters


def short(text: str, most: int = BUTTON_NAME) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def move_label(
    lang: str,
    move: Move,
    rules: Rules,
    pool: Sequence[str],
    bundles: Sequence[Sequence[BundleView]],
    name: Name,
) -> str:
    """A move button's words, the card first: "9♡ → capture 9♧ 9♤", "Q♤ → steal bob's 12",
    "7♧ → trail"; with double bundles also which bundle ("… → your bundle 2")."""
    card = label(lang, move.card, rules)
    into = ""
    if move.own_bundle is not None:
        into = t(lang, "hand.choice.into", bundle=move.own_bundle + 1)
    if move.action == CAPTURE:
        taken = " ".join(label(lang, c, rules) for c in pool if RANK[c] == RANK[move.card])
        text = t(lang, "hand.move.capture", card=card, cards=taken) + into
    elif move.action == STEAL:
        assert move.target_seat is not None  # a steal always names its victim
        n = bundles[move.target_seat][move.target_bundle or 0].size
        victim = short(name(move.target_seat))
        if move.target_bundle is None:
            text = t(lang, "hand.move.steal", card=card, name=victim, n=n) + into
        else:
            bundle = move.target_bundle + 1
            text = t(lang, "hand.move.steal_bundle", card=card, name=victim, bundle=bundle, n=n)
            text += into
    else:
        text = t(lang, "hand.move.trail", card=card)
    return short(text, 80)


def describe(lang: str, events: Sequence[Event], rules: Rules, name: Name) -> list[str]:
    """A move's events in words, for the table's log (names escaped here)."""
    name = in_text(name)
    lines = []
    who = card = auto = ""  # set by each move's "played" event, which comes first
    for e in events:
        if e["type"] == "played":
            auto = t(lang, "log.auto") if e.get("auto") else ""
            who, card = name(e["seat"]), label(lang, e["card"], rules)
        elif e["type"] == "captured":
            key = "log.captured_sweep" if e.get("sweep_bonus") else "log.captured"
            lines.append(t(lang, key, name=who, cards=cards(lang, e["n"]), card=card) + auto)
        elif e["type"] == "stole":
            victim = name(e["from_seat"])
            text = t(
                lang, "log.stole", name=who, victim=victim, cards=cards(lang, e["n"]), card=card
            )
            lines.append(text + auto)
        elif e["type"] == "trailed":
            lines.append(t(lang, "log.trailed", name=who, card=card) + auto)
        elif e["type"] == "pool_refilled":
            lines.append(t(lang, "log.pool_refilled"))
        elif e["type"] == "hands_dealt":
            lines.append(t(lang, "log.hands_dealt"))
        elif e["type"] == "leftovers_awarded":
            lines.append(tn(lang, "log.leftovers", e["n"], name=name(e["seat"])))
        elif e["type"] == "playoff_started":
            tied = ", ".join(name(s) for s in e["seats"])
            lines.append(t(lang, "log.playoff", number=e["number"], names=tied))
        elif e["type"] == "game_over":
            lines.append(t(lang, "log.game_over"))
    return lines


def next_steps(lang: str) -> dict[str, str]:
    """What an error or refusal may point to as the next step: commands as every reader can
    type them (bot.i18n.commands.named), buttons as they are labelled in the reader's language."""

    def command(sub: str) -> str:
        return named(lang, f"steal {sub}")

    return {
        "new": command("new"),
        "table": command("table"),
        "forfeit": command("forfeit"),
        "history": command("history"),
        "admin": named(lang, "steal-admin settings"),
        "hand": t(lang, "table.button.hand"),
        "start": t(lang, "lobby.button.start"),
        "leave": t(lang, "lobby.button.leave"),
        "add_bot": t(lang, "lobby.button.bot"),
        "tour_new": command("tournament new"),
        "tour_join": command("tournament join"),
        "tour_standings": command("tournament standings"),
        "tour_cancel": command("tournament cancel"),
    }


def error_text(lang: str, error: SessionError) -> str:
    """What the player who caused a session error reads, in their language: what went wrong
    and what to do next."""
    values = {**next_steps(lang), **error.values}
    if "n" in values:
        return tn(lang, error.key, values.pop("n"), **values)
    return t(lang, error.key, **values)
