"""What /steal-admin shows: the settings panel (each topic's settings beside their defaults,
with the menus and toggles that change them) and the allowed channels. Ephemeral: in the
language of the admin who asked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from babel import Locale

from bot.domain.server_settings import Setting, duration
from bot.domain.values import GuildSettings
from bot.engine import PRESETS, Rules
from bot.i18n import t
from bot.i18n.commands import named

from . import ids
from .render import Message

BLUE = discord.Colour.blurple()


def admin_command(lang: str, sub: str) -> str:
    """A /steal-admin subcommand as every reader can type it (bot.i18n.commands.named)."""
    return named(lang, f"steal-admin {sub}")


def channel_list(lang: str, channels: Sequence[int]) -> str:
    if not channels:
        return t(lang, "admin.channels.everywhere")
    return ", ".join(f"<#{c}>" for c in channels)


def value_words(lang: str, spec: Setting, value: Any) -> str:
    """A stored value as people read it: "Italiano", "each member's own", "Classic",
    "one at a time", "5 min"; never a raw key."""
    if spec.key == "language" and value == "follow":  # inside a sentence: no capital
        words = _value_words(lang, spec.key, value)
        return words[:1].lower() + words[1:]
    if spec.kind == "choice" and value is not None:
        return _value_words(lang, spec.key, str(value))
    return spec.show(value, lang)


def setting_line(lang: str, spec: Setting, value: Any, changed: bool) -> str:
    """A setting by its name, its value, and its default if it differs."""
    name, shown = spec.label(lang), value_words(lang, spec, value)
    if changed and value != spec.default:
        default = value_words(lang, spec, spec.default)
        return t(lang, "setting.line_changed", name=name, value=shown, default=default)
    return t(lang, "setting.line", name=name, value=shown)


# ----- the settings panel (/steal-admin settings): Components V2, changed by menus and toggles

# The panel's topics and the settings each holds, in the order it shows them. The channels
# topic also holds the allowed channels, which are no Setting.
TOPIC_KEYS: dict[str, tuple[str, ...]] = {
    "rules": (
        "preset", "host_picks_preset", "deck", "direction", "play", "short_deal", "leftovers",
        "tiebreak", "stealing", "refill_pool", "wild_jacks", "sweep_bonus", "double_bundles",
    ),
    "timers": ("turn_timer", "lobby_timeout", "pings", "season_length"),
    "channels": ("max_games",),
    "ai": ("ai_allowed", "ai_counts", "hints", "hint_counts", "tournament_counted"),
    "language": ("language",),
    "roles": ("manager_role",),
}  # fmt: skip
PRESET = "preset"  # a rule option's select value for "as the preset"
MAX_CHANNELS_PICKED = 25  # Discord's limit on a select's values
Layout = discord.ui.LayoutView


def topic_of(key: str) -> str:
    return next((topic for topic, keys in TOPIC_KEYS.items() if key in keys), "channels")


def select_values(spec: Setting) -> tuple[str, ...]:
    """The values a setting's select offers: what a click may send back. Anything else from a
    client is refused, even if `Setting.parse` would read it."""
    if spec.kind in ("choice", "seconds", "number", "weeks"):
        return tuple(PRESET if v == "preset" else v for v in spec.suggestions())
    return ()


def select_value(spec: Setting, value: Any) -> str:
    """The option a stored value is, for the select's default."""
    if value is None:
        return PRESET if spec.follows_preset else "off"
    if spec.kind == "seconds":
        return duration(value)
    if spec.kind == "weeks" and not value:
        return "off"
    return str(value)


def option_label(lang: str, spec: Setting, value: str, preset_rules: Rules) -> str:
    if value == PRESET:
        shown = spec.show(getattr(preset_rules, spec.key), lang)
        return t(lang, "panel.as_preset", value=_value_words(lang, spec.key, shown))
    if spec.kind in ("seconds", "weeks"):
        parsed = spec.parse(value)
        return spec.show(parsed, lang)
    return _value_words(lang, spec.key, value)


def _value_words(lang: str, key: str, value: str) -> str:
    """A choice's value as a reader knows it: a preset's or deck's name, a rule's value in
    words, a language's own name; never the value an admin types."""
    if key == "preset" and value in PRESETS:
        return t(lang, f"preset.{value}.name")
    if key == "deck" and value != PRESET:
        return t(lang, f"deck.{value}")
    if key in ("direction", "short_deal", "leftovers", "tiebreak"):
        return t(lang, f"rules_pages.short.{key}.{value}")
    if key == "play":
        return t(lang, f"rules.footer.play.{value}")
    if key == "hints":
        return t(lang, "panel.hints.casual" if value == "casual" else f"setting.{value}")
    if key == "language":
        if value == "follow":
            return t(lang, "panel.language.follow")
        return (Locale.parse(value).get_display_name(value) or value).capitalize()
    return value.replace("_", " ")


def topic_lines(
    lang: str, topic: str, specs: Mapping[str, Setting], current: GuildSettings
) -> list[str]:
    """A topic's settings that differ from their defaults (the panel's menus and toggles show
    every value), and the channels games are allowed in, if chosen."""
    keys = [k for k in TOPIC_KEYS[topic] if k in specs]
    differs = [k for k in keys if k in current.changed and current[k] != specs[k].default]
    lines = [setting_line(lang, specs[k], current[k], True) for k in differs]
    if topic == "channels" and current["channels"]:
        lines.insert(0, t(lang, "panel.channels", channels=channel_list(lang, current["channels"])))
    return lines


# Characters a select shows on a 360-px phone before it cuts its label: about 185 px of
# 16-px text (tests/ui/test_panel_phone.py measures every label on SimCord's page).
FITS = 23
# Settings (or single values) with panel-only short words (panel.short.<key>.<value>), and
# those with a shorter name before a value (panel.name.<key>): the usual words run past FITS.
SHORT_WORDS = ("deck", "short_deal", "leftovers", "tiebreak")
SHORT_VALUES = (("hints", "casual"), ("language", "follow"))
SHORT_NAMES = ("turn_timer", "lobby_timeout", "season_length", "max_games", "hints")


def _short_words(lang: str, key: str, value: str) -> str:
    """A value in the fewest words that still say it."""
    if (key in SHORT_WORDS and value != PRESET) or (key, value) in SHORT_VALUES:
        return t(lang, f"panel.short.{key}.{value}")
    return _value_words(lang, key, value)


def _option(lang: str, spec: Setting, value: str, preset_rules: Rules) -> discord.SelectOption:
    """A value as its menu shows it: "Turn timer: 2 min". A select shows only the picked
    option's label, cut to a phone's width, so the label is the first of: the setting and
    the value's short words, those words alone, the words without "(preset)". The long
    words, with the setting's name, stay in the description (shown in the open menu)."""
    full = t(lang, "panel.option", name=spec.label(lang),
             value=option_label(lang, spec, value, preset_rules))  # fmt: skip
    if value == PRESET:
        bare = _short_words(lang, spec.key, spec.show(getattr(preset_rules, spec.key), lang))
        words = t(lang, "panel.as_preset", value=bare)
    elif spec.kind in ("seconds", "weeks"):
        words = bare = option_label(lang, spec, value, preset_rules)
    else:
        words = bare = _short_words(lang, spec.key, value)
    name = t(lang, f"panel.name.{spec.key}") if spec.key in SHORT_NAMES else spec.label(lang)
    shorter = (t(lang, "panel.option", name=name, value=words), words, bare)
    label = next((text for text in shorter if len(text) <= FITS), bare)
    label = label[:1].upper() + label[1:]
    described = full[:100] if label != full else None
    return discord.SelectOption(label=label[:100], value=value, description=described)


def _select(
    lang: str, spec: Setting, current: GuildSettings, preset_rules: Rules
) -> discord.ui.Select[Layout]:
    now = select_value(spec, current[spec.key])
    values = list(select_values(spec))
    if now not in values and spec.kind != "choice":  # a value typed with /steal-admin set
        values.append(now)
    options = [_option(lang, spec, v, preset_rules) for v in values][-25:]
    for option in options:  # every menu shows its current value
        option.default = option.value == now
    placeholder = spec.label(lang)
    return discord.ui.Select(custom_id=ids.setting(spec.key), placeholder=placeholder[:150],
                             options=options)  # fmt: skip


def effective(spec: Setting, current: GuildSettings) -> bool:
    """An on/off setting as it plays now: a rule option "as the preset" is the preset's."""
    value = current[spec.key]
    if value is None and spec.follows_preset:
        return bool(getattr(PRESETS[current["preset"]], spec.key))
    return bool(value)


def switch_keys(topic: str, specs: Mapping[str, Setting]) -> list[str]:
    """A topic's on/off settings: one multi-select sets them all (a button each took a
    phone's row each)."""
    return [k for k in TOPIC_KEYS.get(topic, ()) if k in specs and specs[k].kind == "bool"]


def _switches(
    lang: str, topic: str, specs: Mapping[str, Setting], current: GuildSettings
) -> discord.ui.Select[Layout]:
    keys = switch_keys(topic, specs)
    options = [
        discord.SelectOption(label=t(lang, f"panel.switch.{k}")[:100], value=k, emoji="✅",
                             description=_switch_description(lang, specs[k]),
                             default=effective(specs[k], current))
        for k in keys
    ]  # fmt: skip
    return discord.ui.Select(
        custom_id=ids.switches(topic), placeholder=t(lang, "panel.switches_none")[:150],
        min_values=0, max_values=len(keys), options=options,
    )  # fmt: skip


def _switch_description(lang: str, spec: Setting) -> str:
    """Under an on/off option: its full name where the label had to be shorter."""
    name = spec.label(lang)
    if name != t(lang, f"panel.switch.{spec.key}"):
        return name[:100]
    return t(lang, "panel.switch_on")[:100]


def topic_controls(
    lang: str, topic: str, specs: Mapping[str, Setting], current: GuildSettings
) -> list[discord.ui.ActionRow[Layout]]:
    """The menus and toggles that change a topic's settings."""
    preset_rules = PRESETS[current["preset"]]
    rows: list[discord.ui.ActionRow[Layout]] = []
    for key in TOPIC_KEYS[topic]:
        spec = specs.get(key)
        if spec is None or spec.kind == "bool":
            continue
        if spec.kind == "role":
            role = current[key]
            picker: discord.ui.RoleSelect[Layout] = discord.ui.RoleSelect(
                custom_id=ids.setting(key), placeholder=t(lang, "panel.pick_role")[:150],
                min_values=0, max_values=1,
                default_values=[discord.Object(role)] if role else [],
            )  # fmt: skip
            rows.append(discord.ui.ActionRow(picker))
        else:
            rows.append(discord.ui.ActionRow(_select(lang, spec, current, preset_rules)))
    if topic == "channels":
        allowed = list(current["channels"])[:MAX_CHANNELS_PICKED]
        channels: discord.ui.ChannelSelect[Layout] = discord.ui.ChannelSelect(
            custom_id=ids.setting("channels"), placeholder=t(lang, "panel.pick_channels")[:150],
            channel_types=[discord.ChannelType.text], min_values=0,
            max_values=MAX_CHANNELS_PICKED,
            default_values=[discord.Object(c) for c in allowed],
        )  # fmt: skip
        rows.insert(0, discord.ui.ActionRow(channels))
    if switch_keys(topic, specs):
        rows.append(discord.ui.ActionRow(_switches(lang, topic, specs, current)))
    return rows


def settings_panel(
    specs: Mapping[str, Setting],
    current: GuildSettings,
    lang: str = "en",
    topic: str = "rules",
    note: str | None = None,
) -> Message:
    """The settings as a panel, short enough for a phone (two screens at most): the open
    topic with its menus and toggles (each showing its current value) and the values that
    differ from the defaults; each other topic in one small line. `note`: what just changed."""
    if topic not in TOPIC_KEYS:
        topic = "rules"
    view = Layout(timeout=None)
    intro = t(lang, "panel.intro", set=admin_command(lang, "set"))
    head = f"## {t(lang, 'setting.title')}\n{intro}"
    if note:
        head += f"\n\n{note}"
    picker: discord.ui.Select[Layout] = discord.ui.Select(
        custom_id=ids.topics(), placeholder=t(lang, f"panel.topic.{topic}")[:150],
        options=[
            discord.SelectOption(label=t(lang, f"panel.topic.{name}")[:100], value=name,
                                 emoji=TOPIC_EMOJI[name], default=name == topic)
            for name in TOPIC_KEYS
        ],
    )  # fmt: skip
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay(head), discord.ui.ActionRow(picker), accent_colour=BLUE
        )
    )
    lines = [f"-# {line}" for line in topic_lines(lang, topic, specs, current)]
    title = f"### {TOPIC_EMOJI[topic]} {t(lang, f'panel.topic.{topic}')}"
    box: discord.ui.Container[Layout] = discord.ui.Container(
        discord.ui.TextDisplay("\n".join([title, *lines])), accent_colour=OPEN
    )
    for row in topic_controls(lang, topic, specs, current):
        box.add_item(row)
    view.add_item(box)
    # The other topics: only what differs there from the defaults (the topic menu opens them).
    others = [
        f"**{TOPIC_EMOJI[name]} {t(lang, f'panel.topic.{name}')}** · " + " · ".join(lines)
        for name in TOPIC_KEYS
        if name != topic and (lines := topic_lines(lang, name, specs, current))
    ]
    if others:
        view.add_item(discord.ui.Container(discord.ui.TextDisplay("\n".join(others))))
    return Message(view=view)


OPEN = discord.Colour.from_rgb(46, 160, 67)  # the open topic's bar: green, like the toggles on
TOPIC_EMOJI = {
    "rules": "📖",
    "timers": "⏱️",
    "channels": "#️⃣",
    "ai": "🤖",
    "language": "🌐",
    "roles": "🛡️",
}
