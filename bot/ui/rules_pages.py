"""/steal rules as a Components V2 message in the reader's language: three pages behind tab
buttons. "How to play" shows capture, steal and trail as small example tables drawn by the
table renderer (bot.ui.picture); "Full rules" lists every rule of the rules in play; "Options"
says which options differ from their preset, and lists the presets.

Pure functions of engine values, except `examples`, which draws (in a thread: it takes tens
of milliseconds) and keeps the pictures, since they depend only on the language and deck.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache

import discord

from bot.engine import CAPTURE, PRESETS, STEAL, TRAIL, BundleView, Rules
from bot.i18n import t
from bot.i18n.cards import rank_name
from bot.i18n.rules import preset_list, rules_lines, rules_title

from . import ids
from .picture import LastMove, Scene, render
from .render import BLUE, picture
from .render import Message as Message  # re-exported: the pages' type (cogs/rules.py)
from .text import next_steps
from .widgets import button, row

TABS = ids.RULES_TABS  # how to play, full rules, options and presets
EXAMPLES = (CAPTURE, STEAL, TRAIL)
NAMES = ("Ann", "Bob")  # the example players: names that read the same in every language


@dataclass(frozen=True)
class Shown:
    """The rules a page explains: `base` is the preset they are read against; `where` says
    whose they are: "preset" (asked for by name), "game" (this channel's) or "server"."""

    rules: Rules
    base: str
    where: str


def differences(rules: Rules, base: Rules) -> list[str]:
    """The options (Rules fields) whose value differs from `base`, in Rules order."""
    return [f.name for f in fields(Rules) if getattr(rules, f.name) != getattr(base, f.name)]


def closest_preset(rules: Rules) -> str:
    """The preset these rules differ least from (a game's rules do not say which it was)."""
    return min(PRESETS, key=lambda name: len(differences(rules, PRESETS[name])))


def option_short(lang: str, rules: Rules, name: str) -> str:
    """An option's value in two or three words, for the title: "wild Jacks", "no stealing"."""
    value = getattr(rules, name)
    if name == "deck":
        return t(lang, f"deck.{value}.short")
    if name == "stealing":
        return t(lang, "rules.footer.stealing" if value else "rules.footer.no_stealing")
    if name == "play":
        return t(lang, f"rules.footer.play.{value}")
    if name == "wild_jacks" and value:
        return t(lang, "rules.footer.wild_jacks", jacks=rank_name(lang, rules.jack, rules, 2))
    if name in ("sweep_bonus", "double_bundles") and value:
        return t(lang, f"rules.footer.{name}")
    word = str(value).lower() if isinstance(value, bool) else value
    return t(lang, f"rules_pages.short.{name}.{word}")


def option_line(lang: str, rules: Rules, name: str) -> str:
    """An option as a full sentence (the same words as the full rules' list)."""
    value = getattr(rules, name)
    if name in ("deck", "direction"):
        return rules_lines(lang, rules)[0]
    if name == "short_deal" and value == "fours":
        return t(lang, "rules_pages.short_deal.fours")
    if name in ("wild_jacks", "sweep_bonus", "double_bundles") and not value:
        return t(lang, f"rules_pages.line.{name}.false")
    simple = {
        "stealing": "rules.steal" if value else "rules.no_stealing",
        "play": f"rules.play.{value}",
        "refill_pool": "rules.refill" if value else "rules.no_refill",
        "short_deal": f"rules.short_deal.{value}",
        "leftovers": f"rules.leftovers.{value}",
        "tiebreak": f"rules.tiebreak.{value}",
        "sweep_bonus": "rules.sweep_bonus",
        "double_bundles": "rules.double_bundles",
    }
    if name == "wild_jacks":
        jack, jacks = (rank_name(lang, rules.jack, rules, n) for n in (1, 2))
        return t(lang, "rules.wild_jacks", jack=jack, jacks=jacks)
    return t(lang, simple[name])


def title(lang: str, shown: Shown) -> str:
    """The page's title: "Standard rules", "Classic rules" (a preset, as it is), or "This
    server's rules: Classic, wild Jacks" / "This game's rules: …" with what differs."""
    base = PRESETS[shown.base]
    changed = differences(shown.rules, base)
    if shown.where == "preset" or not changed:
        return rules_title(lang, base)
    words = [t(lang, f"preset.{shown.base}.name")]
    words += [option_short(lang, shown.rules, name) for name in changed]
    return t(lang, f"rules_pages.title.{shown.where}", rules=", ".join(words))


# ----- the example tables


def _card(rules: Rules, rank: int, suit: int) -> str:
    suits = list(dict.fromkeys(c.lstrip("0123456789") for c in rules.card_deck.cards))
    return f"{rank}{suits[suit]}"


def example_scene(lang: str, rules: Rules, action: str) -> Scene:
    """A two-player table just after Ann captured, stole or trailed (the move framed)."""
    rules = rules.replace(double_bundles=False)  # one bundle each: the simplest picture

    def c(rank: int, suit: int) -> str:
        return _card(rules, rank, suit)

    pool: tuple[str, ...]
    if action == CAPTURE:  # Ann's 7 takes both 7s of the pool
        pool = (c(3, 1), c(5, 2))
        bundles = ((BundleView(c(7, 0), 3),), (BundleView(c(2, 3), 4),))
        last = LastMove(0, c(7, 0), CAPTURE, n=2)
    elif action == STEAL:  # Ann's 6 matches Bob's top card: his 5 cards go onto hers
        pool = (c(3, 1), c(5, 2), c(4, 0))
        bundles = ((BundleView(c(6, 1), 9),), (BundleView(None, 0),))
        last = LastMove(0, c(6, 1), STEAL, target_seat=1, n=5)
    else:  # Ann's 4 matches nothing: it goes into the pool
        pool = (c(3, 1), c(5, 2), c(4, 0))
        bundles = ((BundleView(c(7, 0), 3),), (BundleView(c(2, 3), 4),))
        last = LastMove(0, c(4, 0), TRAIL)
    return Scene(
        game_id=0, version=0, lang=lang, rules=rules, names=NAMES, turn=1, players=(0, 1),
        pool=pool, bundles=bundles, hand_sizes=(3, 4), stock_size=30, last=last,
    )  # fmt: skip


@lru_cache(maxsize=64)
def examples(lang: str, deck: str) -> tuple[tuple[str, bytes], ...]:
    """The three example pictures as (file name, PNG), drawn once per language and deck.
    Blocking: call it in a thread."""
    rules = Rules(deck=deck)
    return tuple(
        (f"rules-{action}.png", render(example_scene(lang, rules, action))) for action in EXAMPLES
    )


# ----- the pages


def _how_to_play(lang: str, shown: Shown) -> list[discord.ui.Item[discord.ui.LayoutView]]:
    steps = next_steps(lang)
    items: list[discord.ui.Item[discord.ui.LayoutView]] = [
        discord.ui.TextDisplay(
            t(lang, "rules_pages.goal") + "\n" + t(lang, "rules_pages.turn", hand=steps["hand"])
        )
    ]
    for action in EXAMPLES:
        if action == STEAL and not shown.rules.stealing:
            items.append(discord.ui.TextDisplay(t(lang, "rules_pages.steal_off")))
            continue
        words = t(lang, f"rules_pages.{action}")
        items += [discord.ui.TextDisplay(words), picture(f"rules-{action}.png", words)]
    return items


# What How to play says already: Full rules does not say it again.
TOLD = ("rules.capture", "rules.steal")


def _full(lang: str, shown: Shown) -> list[discord.ui.Item[discord.ui.LayoutView]]:
    """The deal, the end and every rule of these rules; capturing, stealing and trailing
    are How to play's (a rule that changes them, such as no stealing, is here)."""
    basics = [t(lang, f"rules_pages.basics.{k}") for k in ("deal", "new_hands", "end")]
    told = {t(lang, key) for key in TOLD}
    lines = basics + [line for line in rules_lines(lang, shown.rules) if line not in told]
    return [discord.ui.TextDisplay("\n".join(f"• {line}" for line in lines))]


def _options(lang: str, shown: Shown) -> list[discord.ui.Item[discord.ui.LayoutView]]:
    base = PRESETS[shown.base]
    preset = t(lang, f"preset.{shown.base}.name")
    changed = differences(shown.rules, base)
    if changed:
        lines = [t(lang, "rules_pages.differ", preset=preset)]
        # deck and direction share a sentence: each line once
        said = dict.fromkeys(option_line(lang, shown.rules, name) for name in changed)
        lines += [f"• {line}" for line in said]
    else:
        lines = [t(lang, "rules_pages.same", preset=preset)]
    admin = t(lang, "rules_pages.admin", admin=next_steps(lang)["admin"])
    presets = f"**{t(lang, 'reply.presets')}**\n{preset_list(lang)}"
    # The words the presets use, said once (small print: a reference, not a read).
    words = [t(lang, f"rules_pages.glossary.{key}") for key in GLOSSARY]
    glossary = f"**{t(lang, 'rules_pages.glossary')}**\n" + "\n".join(f"-# {w}" for w in words)
    return [
        discord.ui.TextDisplay("\n".join(lines)),
        discord.ui.Separator(),
        discord.ui.TextDisplay(presets),
        discord.ui.TextDisplay(glossary + f"\n-# {admin}"),
    ]


GLOSSARY = ("forced", "refill", "leftovers", "playoff")


PAGES = {"play": _how_to_play, "full": _full, "options": _options}


def page(
    lang: str,
    shown: Shown,
    tab: str,
    source: str,
    pictures: tuple[tuple[str, bytes], ...] = (),
) -> Message:
    """One page. `source` is what the buttons ask for again ("here" or a preset's name);
    `pictures` are `examples(lang, deck)`, needed by the "play" tab only."""
    items: list[discord.ui.Item[discord.ui.LayoutView]] = [
        discord.ui.TextDisplay(f"## 📖 {title(lang, shown)}"),
        *PAGES[tab](lang, shown),
        discord.ui.Separator(),
        row(
            *(
                button(
                    ids.rules(source, other),
                    t(lang, f"rules_pages.tab.{other}"),
                    discord.ButtonStyle.primary if other == tab else discord.ButtonStyle.secondary,
                    disabled=other == tab,
                )
                for other in TABS
            )
        ),
    ]
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.Container(*items, accent_colour=BLUE))
    shown_pictures = pictures if tab == "play" else ()
    if not shown.rules.stealing:
        shown_pictures = tuple(p for p in shown_pictures if p[0] != f"rules-{STEAL}.png")
    return Message(view=layout, images=shown_pictures)
