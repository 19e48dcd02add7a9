"""Words for rules and moves. Plain functions of engine values, so they are easy to test."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.engine import CAPTURE, PRESETS, RANK, STEAL, Move, Rules, preset_name
from bot.seats import ai_name, is_ai

from .cards import label, rank_label, rank_name

DECK_NAMES = {
    "french52": "French 52-card deck",
    "spanish40": "Spanish 40-card deck",
    "spanish48": "Spanish 48-card deck",
    "italian40": "Italian 40-card deck",
}
PRESET_BLURBS = {
    "standard": "The default: steal, refill an empty pool, leftovers to the last capturer.",
    "classic": "Forced play, no pool refill, no leftovers, ties settled by a playoff.",
    "casita": "Casita Robada: classic rules with a Spanish 40-card deck, counterclockwise.",
    "rubamazzo": "Rubamazzo: classic rules with an Italian 40-card deck, counterclockwise.",
    "friendly": "Standard rules without stealing: good for younger players.",
}
TIEBREAKS = {
    "last_capturer": "the most recent capturer wins a tie",
    "playoff": "a tie is settled by a playoff",
    "shared": "a tie is shared",
}


def sentence(text: str) -> str:
    """A session error's short message as a sentence: "it's not your turn" -> "It's ..."."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def rules_title(rules: Rules) -> str:
    name = preset_name(rules)
    return f"{name.capitalize()} rules" if name else "Custom rules"


def rules_lines(rules: Rules) -> list[str]:
    """One short line per rule that matters, in the order a newcomer needs them."""
    jack = rank_name(rules.jack, rules)
    lines = [
        f"{DECK_NAMES[rules.deck]}, played {rules.direction}.",
        "Match a pool card's rank to capture every card of that rank.",
        (
            "Match the top card of someone's bundle to steal the whole bundle."
            if rules.stealing
            else "No stealing."
        ),
        "You must capture or steal when you can." if rules.play == "forced" else
        "You may always trail (put a card in the pool) instead.",
        "An empty pool is refilled from the stock." if rules.refill_pool else
        "An empty pool is not refilled.",
        "Cards left in the pool at the end go to "
        + ("the last capturer." if rules.leftovers == "last_capturer" else "nobody."),
        f"The tallest bundle wins; {TIEBREAKS[rules.tiebreak]}.",
    ]  # fmt: skip
    if rules.wild_jacks:
        lines.append(f"Wild {jack}s: a {jack} can steal any bundle.")
    if rules.sweep_bonus:
        lines.append("Sweep bonus: clearing the pool earns the top stock card.")
    if rules.double_bundles:
        lines.append("Double bundles: everyone keeps two bundles.")
    return lines


def rules_summary(rules: Rules) -> str:
    return "\n".join(f"• {line}" for line in rules_lines(rules))


def rules_footer(rules: Rules) -> str:
    """The one-line reminder under the table."""
    name = preset_name(rules)
    parts = [name.capitalize() if name else "Custom", DECK_NAMES[rules.deck].split(" ")[0]]
    parts.append("stealing" if rules.stealing else "no stealing")
    parts.append(f"{rules.play} play")
    if rules.wild_jacks:
        parts.append("wild jacks")
    if rules.sweep_bonus:
        parts.append("sweep bonus")
    if rules.double_bundles:
        parts.append("double bundles")
    return " · ".join(parts) + " — /steal rules"


def preset_list() -> str:
    return "\n".join(f"**{name}**: {PRESET_BLURBS[name]}" for name in PRESETS)


Name = Callable[[int], str]  # seat -> how to show that player


def choice_label(move: Move, rules: Rules, pool: tuple[str, ...], bundles, name: Name) -> str:
    """A choice button's words: "Capture 2 × K", "Steal Bob's 12 cards", "Trail 7♣"; with
    double bundles also which bundle, e.g. "Steal Bob's bundle 2 (5 cards) → your bundle 1"."""
    into = f" → your bundle {move.own_bundle + 1}" if move.own_bundle is not None else ""
    if move.action == CAPTURE:
        n = sum(1 for c in pool if RANK[c] == RANK[move.card])
        return f"Capture {n} × {rank_label(RANK[move.card], rules)}{into}"
    if move.action == STEAL:
        size = plural(bundles[move.target_seat][move.target_bundle or 0].size, "card")
        if move.target_bundle is None:
            return f"Steal {name(move.target_seat)}'s {size}{into}"
        return f"Steal {name(move.target_seat)}'s bundle {move.target_bundle + 1} ({size}){into}"
    return f"Trail {label(move.card, rules)}"


def describe(events: list[dict[str, Any]], rules: Rules, name: Name) -> list[str]:
    """A move's events in words, for the table's log."""
    lines = []
    for e in events:
        kind = e["type"]
        if kind == "played":
            auto = " (auto)" if e.get("auto") else ""
            who, card = name(e["seat"]), label(e["card"], rules)
        elif kind == "captured":
            extra = " and the sweep bonus" if e.get("sweep_bonus") else ""
            lines.append(f"{who} captured {plural(e['n'], 'card')} with {card}{extra}{auto}")
        elif kind == "stole":
            victim = name(e["from_seat"])
            lines.append(f"{who} stole {victim}'s {plural(e['n'], 'card')} with {card}{auto}")
        elif kind == "trailed":
            lines.append(f"{who} trailed {card}{auto}")
        elif kind == "pool_refilled":
            lines.append("The pool was refilled from the stock")
        elif kind == "hands_dealt":
            lines.append("New hands were dealt")
        elif kind == "leftovers_awarded":
            lines.append(f"{name(e['seat'])} took the {plural(e['n'], 'leftover card')}")
        elif kind == "playoff_started":
            who_tied = ", ".join(name(s) for s in e["seats"])
            lines.append(f"Tie! Playoff {e['number']} between {who_tied}")
        elif kind == "game_over":
            lines.append("Game over")
    return lines


def names_of(seats: tuple[str, ...], known: Mapping[str, str]) -> Name:
    def name(seat: int) -> str:
        if is_ai(seats[seat]):
            return ai_name(seats[seat])
        return known.get(seats[seat]) or f"Player {seat + 1}"

    return name
