"""Per-server settings: every setting's allowed values and default, reading what an admin
types, and what the settings mean for the next lobby. Pure: no Discord, no storage."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from bot.domain.options import DEFAULTS, Options
from bot.domain.table_setup import TableSetup
from bot.engine import PRESETS, Rules
from bot.engine.rules import CHOICES
from bot.i18n import LANGUAGES as LANGUAGE_CODES
from bot.i18n import t, tn

LANGUAGES = ("follow", *LANGUAGE_CODES)
HINTS = ("on", "off", "casual")  # casual: only in games that do not count for the leaderboard
TURN_RANGE = (15, 86_400)  # 15 s to 24 h
LOBBY_RANGE = (60, 86_400)
MAX_GAMES_RANGE = (1, 100)
SEASON_RANGE = (0, 52)  # a leaderboard season's length in weeks; 0: no seasons
SEASON_WEEKS = (1, 2, 4, 8, 12, 26, 52)  # the lengths the settings panel offers
ON = ("on", "true", "yes", "1")
OFF = ("off", "false", "no", "0")


class BadValue(ValueError):
    """An admin typed a value a setting does not take; the message names the allowed values.
    str() is the English message; `message(lang)` says it in the admin's language."""

    def __init__(self, setting: Setting, text: str) -> None:
        self.setting = setting
        self.text = text.strip()[:50]
        super().__init__(self.message("en"))

    def message(self, lang: str) -> str:
        return t(
            lang,
            "setting.bad_value",
            setting=self.setting.key,
            value=repr(self.text),
            allowed=self.setting.allowed(lang),
        )


@dataclass(frozen=True)
class Setting:
    key: str
    group: str  # rules, timing, limits, language, ai, roles: its title is setting.group.<group>
    kind: str  # choice, bool, seconds, number, weeks, role
    default: Any
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0
    can_be_off: bool = False  # seconds: "off" is allowed (stored as None)
    follows_preset: bool = False  # a rule option: None means "as the preset"

    def label(self, lang: str = "en") -> str:
        """The setting's name in words ("Turn timer"); admins still type the key. The same
        words name it in the /steal-admin menus, so it is the menu choice's message."""
        return t(lang, f"choice.{self.key}")

    def allowed(self, lang: str = "en") -> str:
        """The allowed values in words, for help and for errors. The values themselves (on,
        off, preset, none, 15 s) are what an admin types, in every language."""
        if self.kind == "choice":
            values = (*(("preset",) if self.follows_preset else ()), *self.choices)
            return ", ".join(values)
        if self.kind == "bool":
            return t(lang, "setting.allowed.bool_or_preset" if self.follows_preset
                     else "setting.allowed.bool")  # fmt: skip
        if self.kind == "seconds":
            low, high = duration(self.low, lang), duration(self.high, lang)
            span = t(lang, "setting.allowed.span", low=low, high=high)
            return t(lang, "setting.allowed.off_or", span=span) if self.can_be_off else span
        if self.kind == "number":
            return t(lang, "setting.allowed.number", low=self.low, high=self.high)
        if self.kind == "weeks":
            return t(lang, "setting.allowed.weeks", low=max(1, self.low), high=self.high)
        return t(lang, "setting.allowed.role")

    def suggestions(self) -> tuple[str, ...]:
        """Values to offer while an admin types (roles are offered by the cog)."""
        preset = ("preset",) if self.follows_preset else ()
        if self.kind == "choice":
            return (*preset, *self.choices)
        if self.kind == "bool":
            return ("on", "off", *preset)
        if self.kind == "seconds":
            spans = [
                s for s in (15, 30, 60, 120, 300, 900, 3600, 86_400) if self.low <= s <= self.high
            ]
            return (*(("off",) if self.can_be_off else ()), *(duration(s) for s in spans))
        if self.kind == "number":
            return tuple(str(n) for n in sorted({self.low, 5, 10, 20, 50, self.high})
                         if self.low <= n <= self.high)  # fmt: skip
        if self.kind == "weeks":
            return ("off", *(str(n) for n in SEASON_WEEKS if self.low <= n <= self.high))
        return ("none",)

    def parse(self, text: str) -> Any:
        """The stored value for what an admin typed. Raises BadValue."""
        word = text.strip().lower()
        if self.follows_preset and word in ("preset", "default"):
            return None
        if self.kind == "choice":
            if word in self.choices:
                return word
        elif self.kind == "bool":
            if word in ON or word in OFF or word in _shown("setting.on", "setting.off"):
                return word in ON or word in _shown("setting.on")
        elif self.kind == "seconds":
            if self.can_be_off and (word in OFF or word in _shown("setting.off")):
                return None
            seconds = parse_duration(word)
            if seconds is not None and self.low <= seconds <= self.high:
                return seconds
        elif self.kind == "number":
            if re.fullmatch(r"\d{1,6}", word) and self.low <= int(word) <= self.high:
                return int(word)
        elif self.kind == "weeks":
            if word in OFF or word in _shown("setting.off"):
                return 0
            m = re.fullmatch(r"(\d{1,3})\s*(?:w|weeks?)?", word)
            if m and self.low <= int(m.group(1)) <= self.high:
                return int(m.group(1))
        elif self.kind == "role":
            if word in ("none", "off") or word in _shown("setting.none", "setting.off"):
                return None
            m = re.fullmatch(r"<@&(\d{1,20})>|(\d{1,20})", word)
            if m:
                return int(m.group(1) or m.group(2))
        raise BadValue(self, text)

    def show(self, value: Any, lang: str = "en") -> str:
        """A stored value in words, for the settings embed and the replies."""
        if value is None:
            if self.follows_preset:
                return t(lang, "setting.as_preset")
            return t(lang, "setting.off" if self.kind == "seconds" else "setting.none")
        if self.kind == "bool":
            return t(lang, "setting.on" if value else "setting.off")
        if self.kind == "seconds":
            return duration(value, lang)
        if self.kind == "role":
            return f"<@&{value}>"
        if self.kind == "weeks":
            if not value:
                return t(lang, "setting.off")
            return tn(lang, "setting.weeks", int(value))
        return str(value)


def _shown(*keys: str) -> set[str]:
    """How the settings show a value in any language ("activado"): typed back, it counts too."""
    return {t(lang, key).lower() for key in keys for lang in LANGUAGE_CODES}


def duration(seconds: float, lang: str = "en") -> str:
    """90 -> "1 min 30 s", 86400 -> "24 h" (the units as `lang` writes them)."""
    s = int(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    parts = [
        t(lang, "setting.duration.hours", n=h) if h else "",
        t(lang, "setting.duration.minutes", n=m) if m else "",
        t(lang, "setting.duration.seconds", n=s) if s or not (h or m) else "",
    ]
    return " ".join(p for p in parts if p)


_DURATION = re.compile(r"(?:(\d{1,5})\s*h)?\s*(?:(\d{1,5})\s*(?:m|min))?\s*(?:(\d{1,6})\s*s?)?")


def parse_duration(text: str) -> int | None:
    """ "90", "90s", "5m", "5 min", "1h30m", "24h" -> seconds; None if it is not a duration."""
    m = _DURATION.fullmatch(text.strip().lower())
    if m is None or not any(m.groups()):
        return None
    h, mins, s = (int(g) if g else 0 for g in m.groups())
    return h * 3600 + mins * 60 + s


def _rule_option(name: str) -> Setting:
    """A rule option on top of the preset, in every game here."""
    if name in CHOICES:
        return Setting(name, "rules", "choice", None, choices=CHOICES[name], follows_preset=True)
    return Setting(name, "rules", "bool", None, follows_preset=True)


def make_settings(options: Options = DEFAULTS) -> dict[str, Setting]:
    """Every setting by key, with defaults from the bot's own configuration (TURN_SECONDS).
    What each one means is in docs/admin.md and the catalogs (choice.<key>)."""
    settings = [
        Setting("preset", "rules", "choice", "standard", choices=tuple(PRESETS)),
        Setting("host_picks_preset", "rules", "bool", True),
        *(_rule_option(f.name) for f in fields(Rules)),
        Setting("turn_timer", "timing", "seconds", _whole(options.turn_seconds),
                low=TURN_RANGE[0], high=TURN_RANGE[1], can_be_off=True),
        Setting("lobby_timeout", "timing", "seconds",
                _whole(options.lobby_seconds or DEFAULTS.lobby_seconds),
                low=LOBBY_RANGE[0], high=LOBBY_RANGE[1]),
        Setting("max_games", "limits", "number", 10,
                low=MAX_GAMES_RANGE[0], high=MAX_GAMES_RANGE[1]),
        Setting("pings", "limits", "bool", True),
        # The leaderboard's seasons: their length in weeks, 0 = no timed seasons (docs/admin.md).
        Setting("season_length", "timing", "weeks", 0, low=SEASON_RANGE[0], high=SEASON_RANGE[1]),
        Setting("language", "language", "choice", "follow", choices=LANGUAGES),
        Setting("ai_allowed", "ai", "bool", True),
        Setting("ai_counts", "ai", "bool", False),  # whether games with AI count for stats
        # The hand's Hint button: on, off, or casual (only in games that do not count).
        Setting("hints", "ai", "choice", "on", choices=HINTS),
        Setting("hint_counts", "ai", "bool", True),  # whether games with a hint used count
        # Whether a new tournament's games count for the leaderboard (docs/tournaments.md).
        Setting("tournament_counted", "ai", "bool", True),
        Setting("manager_role", "roles", "role", None),  # may use /steal-admin, cancel any game
    ]  # fmt: skip
    return {s.key: s for s in settings}


def _whole(seconds: float | None) -> int | None:
    return None if seconds is None else int(seconds)


def defaults(settings: Mapping[str, Setting]) -> dict[str, Any]:
    """What the storage layer reads under a guild's own values (channels has no Setting:
    it is managed by /steal-admin channels)."""
    return {**{k: s.default for k, s in settings.items()}, "channels": []}


@dataclass(frozen=True)
class LobbyOptions:
    """What a guild's settings mean for a new lobby (and the game it becomes)."""

    turn_seconds: int | None
    lobby_seconds: int
    max_games: int
    pings: bool = True
    ai_allowed: bool = True
    ai_counts: bool = False
    hints: str = "on"
    hint_counts: bool = True
    channels: tuple[int, ...] = field(default=())

    def table_setup(self, lang: str, lang_fixed: bool) -> TableSetup:
        """Kept with the game, so a change of settings never alters a game under way; `lang`:
        its public messages' language, `lang_fixed`: its private ones' too."""
        return TableSetup(
            turn_seconds=self.turn_seconds, pings=self.pings, ai_allowed=self.ai_allowed,
            ai_counts=self.ai_counts, hints=self.hints, hint_counts=self.hint_counts,
            lang=lang, lang_fixed=lang_fixed,
        )  # fmt: skip


def lobby_options(values: Mapping[str, Any]) -> LobbyOptions:
    return LobbyOptions(
        turn_seconds=values["turn_timer"],
        lobby_seconds=values["lobby_timeout"],
        max_games=values["max_games"],
        pings=values["pings"],
        ai_allowed=values["ai_allowed"],
        ai_counts=values["ai_counts"],
        hints=values["hints"],
        hint_counts=values["hint_counts"],
        channels=tuple(values.get("channels") or ()),
    )


def rules_for(values: Mapping[str, Any], picked: str | None = None) -> Rules:
    """The preset (the host's pick, or the server's) with the server's rule options on top."""
    base = PRESETS[picked or values["preset"]]
    overrides = {f.name: values[f.name] for f in fields(Rules) if values.get(f.name) is not None}
    return base.replace(**overrides)
