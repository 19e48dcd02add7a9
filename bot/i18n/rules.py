"""The rules of a game in words, in each language (the localized bot/ui/text.py rules part)."""

from __future__ import annotations

from bot.engine import PRESETS, Rules, preset_name

from . import t
from .cards import deck_name, rank_name
from .commands import named


def _preset(rules: Rules) -> str:
    return preset_name(rules) or "custom"


def rules_title(lang: str, rules: Rules) -> str:
    return t(lang, f"preset.{_preset(rules)}.title")


def rules_lines(lang: str, rules: Rules) -> list[str]:
    """One short line per rule that matters, in the order a newcomer needs them."""
    lines = [
        t(lang, f"rules.deck.{rules.direction}", deck=deck_name(lang, rules.deck)),
        t(lang, "rules.capture"),
        t(lang, "rules.steal" if rules.stealing else "rules.no_stealing"),
        t(lang, f"rules.play.{rules.play}"),
        t(lang, "rules.refill" if rules.refill_pool else "rules.no_refill"),
    ]
    if rules.short_deal == "one_at_a_time":  # "fours" is the standard's way: no line
        lines.append(t(lang, "rules.short_deal.one_at_a_time"))
    lines += [
        t(lang, f"rules.leftovers.{rules.leftovers}"),
        t(lang, f"rules.tiebreak.{rules.tiebreak}"),
    ]
    if rules.wild_jacks:
        jack, jacks = (rank_name(lang, rules.jack, rules, n) for n in (1, 2))
        lines.append(t(lang, "rules.wild_jacks", jack=jack, jacks=jacks))
    if rules.sweep_bonus:
        lines.append(t(lang, "rules.sweep_bonus"))
    if rules.double_bundles:
        lines.append(t(lang, "rules.double_bundles"))
    return lines


def rules_summary(lang: str, rules: Rules) -> str:
    return "\n".join(f"• {line}" for line in rules_lines(lang, rules))


def rules_footer(lang: str, rules: Rules) -> str:
    """The one-line reminder under the table, ending with the localized /steal rules."""
    parts = [
        t(lang, f"preset.{_preset(rules)}.name"),
        t(lang, f"deck.{rules.deck}.short"),
        t(lang, "rules.footer.stealing" if rules.stealing else "rules.footer.no_stealing"),
        t(lang, f"rules.footer.play.{rules.play}"),
    ]
    if rules.wild_jacks:
        parts.append(
            t(lang, "rules.footer.wild_jacks", jacks=rank_name(lang, rules.jack, rules, 2))
        )
    if rules.sweep_bonus:
        parts.append(t(lang, "rules.footer.sweep_bonus"))
    if rules.double_bundles:
        parts.append(t(lang, "rules.footer.double_bundles"))
    return " · ".join(parts) + " — " + named(lang, "steal rules")


def preset_blurb(lang: str, name: str) -> str:
    return t(lang, f"preset.{name}.blurb")


def preset_list(lang: str) -> str:
    """Every preset by the name its command choice shows in this language, with its blurb."""
    return "\n".join(
        t(lang, "preset.list_item", name=t(lang, f"choice.{name}"), blurb=preset_blurb(lang, name))
        for name in PRESETS
    )
