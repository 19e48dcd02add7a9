"""Button custom_ids: how they are written and read back.

Every button the bot sends carries what it is for, the game id and (for hands) the game's
version, so a click still means the same thing after a restart. A custom_id comes from the
client, so `parse` treats it as untrusted: anything it does not fully understand is None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.engine import ACTIONS, PRESETS, RANK, Move

PREFIX = "stb"
# bot: ask which AI to add; bot_<difficulty>: add it; unbot: remove the last one added.
LOBBY_OPS = (
    "join",
    "leave",
    "start",
    "cancel",
    "bot",
    "bot_easy",
    "bot_medium",
    "bot_hard",
    "unbot",
)
TABLE_OPS = ("hand", "rules")
SORTS = ("rating", "wins", "cards", "win_rate")  # leaderboard orders
GLOBAL = "global"  # the board pager's pages of the global ladder (bot/ui/ladder.py)
CONFIRM_OPS = ("cancel", "close", "forfeit")  # cancel a game, close a lobby, forfeit
# Admin questions: reset the leaderboard, reset every setting, end a channel's game or lobby
# (a lobby and the game it becomes share an id: ending the lobby must not end its game).
ADMIN_OPS = ("reset_board", "reset_settings", "end", "end_lobby", "new_season")
_ACTION_CODE = {action: action[0] for action in ACTIONS}  # capture -> c, steal -> s, trail -> t
_CODE_ACTION = {code: action for action, code in _ACTION_CODE.items()}

_ID = r"0|[1-9][0-9]{0,17}"  # game ids and versions, exactly as str(int) writes them
_SLOT = r"-|[0-3]"  # a seat or bundle index, or - for none


def _one_of(values: tuple[str, ...]) -> str:
    return "|".join(map(re.escape, values))


# Every card of every deck, longest first so the alternation never stops short.
_CARD = _one_of(tuple(sorted(RANK, key=lambda c: (-len(c), c))))


# One strict template per button family, matched against the whole custom_id. Each is a
# DynamicItem's template (bot/adapter/buttons.py); its fields are read from the named groups.
TEMPLATES: dict[str, re.Pattern[str]] = {
    kind: re.compile(rf"{PREFIX}:{kind}:{body}")
    for kind, body in {
        "lobby": rf"(?P<op>{_one_of(LOBBY_OPS)}):(?P<game>{_ID})",
        "table": rf"(?P<op>{_one_of(TABLE_OPS)}):(?P<game>{_ID})",
        "card": rf"(?P<game>{_ID}):(?P<version>{_ID}):(?P<card>{_CARD})",
        "move": (
            rf"(?P<game>{_ID}):(?P<version>{_ID}):(?P<card>{_CARD}):(?P<action>[cst])"
            rf":(?P<target>{_SLOT}):(?P<bundle>{_SLOT}):(?P<extra>{_SLOT})"
        ),
        "back": rf"(?P<game>{_ID}):(?P<version>{_ID})",
        "hint": rf"(?P<game>{_ID}):(?P<version>{_ID})",
        "pick": rf"(?P<game>{_ID}):(?P<version>{_ID}):(?P<card>{_CARD})",
        "confirm": rf"(?P<op>{_one_of(CONFIRM_OPS)}):(?P<game>{_ID}):(?P<answer>yes|no)",
        "board": rf"(?P<sort>{_one_of((*SORTS, GLOBAL))}):(?P<page>{_ID})",
        "record": rf"(?P<game>{_ID})",
        "admin": (
            rf"(?P<op>{_one_of(ADMIN_OPS)}):(?P<expires>{_ID}):(?P<game>{_ID})"
            rf":(?P<answer>yes|no)"
        ),
        "rematch": rf"(?P<game>{_ID})",
    }.items()
}


@dataclass(frozen=True)
class Action:
    """What a click asks for. Which fields are set depends on `kind`."""

    kind: str  # the family: a key of TEMPLATES
    game_id: int  # board: the page (from 1); admin: the game to end, or 0; forget: the user;
    # tour: the tournament
    op: str = ""  # lobby/table/confirm/rules: which button; board: the order; replay: nav
    version: int = -1  # card/move/back/hint/pick: the game version the hand was drawn at
    card: str = ""
    move: Move | None = None
    yes: bool = False  # confirm/admin: the answer; toggle: on
    expires: int = 0  # admin: unix time after which the answer no longer counts
    key: str = ""  # setting/toggle: which setting
    step: int = 0  # replay: after how many moves
    tab: str = ""  # rules: which page
    # A select's picks: option values, or the roles and channels picked (untrusted, like the id).
    values: tuple[Any, ...] = ()


def lobby(op: str, game_id: int) -> str:
    return f"{PREFIX}:lobby:{op}:{game_id}"


def table(op: str, game_id: int) -> str:
    return f"{PREFIX}:table:{op}:{game_id}"


def card(game_id: int, version: int, code: str) -> str:
    return f"{PREFIX}:card:{game_id}:{version}:{code}"


def move(game_id: int, version: int, m: Move) -> str:
    slots = ":".join("-" if v is None else str(v) for v in m[2:])
    return f"{PREFIX}:move:{game_id}:{version}:{m.card}:{_ACTION_CODE[m.action]}:{slots}"


def back(game_id: int, version: int) -> str:
    return f"{PREFIX}:back:{game_id}:{version}"


def hint(game_id: int, version: int) -> str:
    """Asks for the medium AI's suggestion on the hand drawn at `version`."""
    return f"{PREFIX}:hint:{game_id}:{version}"


def pick(game_id: int, version: int, code: str) -> str:
    """A menu of one card's moves (a hand with too many moves for buttons)."""
    return f"{PREFIX}:pick:{game_id}:{version}:{code}"


# A menu option's value: the move's action and slots, its card being the menu's.
CHOICE = re.compile(
    rf"(?P<action>[cst]):(?P<target>{_SLOT}):(?P<bundle>{_SLOT}):(?P<extra>{_SLOT})"
)


def choice(m: Move) -> str:
    slots = ":".join("-" if v is None else str(v) for v in m[2:])
    return f"{_ACTION_CODE[m.action]}:{slots}"


def choice_of(card: str, value: str) -> Move | None:
    """The move a menu option names, or None for a value the bot did not send."""
    m = CHOICE.fullmatch(value) if isinstance(value, str) else None
    if m is None:
        return None
    slots = slot(m["target"]), slot(m["bundle"]), slot(m["extra"])
    return Move(card, _CODE_ACTION[m["action"]], *slots)


def confirm(op: str, game_id: int, yes: bool) -> str:
    return f"{PREFIX}:confirm:{op}:{game_id}:{'yes' if yes else 'no'}"


def admin(op: str, expires: int, game_id: int, yes: bool) -> str:
    """An admin's answer to a question that stops counting at `expires` (unix seconds)."""
    return f"{PREFIX}:admin:{op}:{expires}:{game_id}:{'yes' if yes else 'no'}"


def board(sort: str, page: int) -> str:
    """A leaderboard page button: the sort (or GLOBAL: the global ladder) and the page to
    show (from 1)."""
    return f"{PREFIX}:board:{sort}:{page}"


def record(game_id: int) -> str:
    """Sends a finished game's record."""
    return f"{PREFIX}:record:{game_id}"


def rematch(game_id: int) -> str:
    return f"{PREFIX}:rematch:{game_id}"


def slot(text: str) -> int | None:
    return None if text == "-" else int(text)


def move_of(match: re.Match[str]) -> Move:
    """The move a move id names (its card is a real one: the template allows no other)."""
    action = _CODE_ACTION[match["action"]]
    slots = slot(match["target"]), slot(match["bundle"]), slot(match["extra"])
    return Move(match["card"], action, *slots)


def action_of(kind: str, m: re.Match[str]) -> Action:
    """The action a match of `kind`'s template names, its fields read from the named groups."""
    groups = m.groupdict()
    return Action(
        kind,
        int(
            groups.get("game")
            or groups.get("page")
            or groups.get("user")
            or groups.get("tour")
            or 0
        ),
        op=groups.get("op") or groups.get("sort") or groups.get("nav") or "",
        version=int(groups["version"]) if groups.get("version") else -1,
        card=groups.get("card") or "",
        move=move_of(m) if kind == "move" else None,
        yes=groups.get("answer") == "yes" or groups.get("value") == "on",
        expires=int(groups.get("expires") or 0),
        key=groups.get("key") or "",
        step=int(groups.get("step") or 0),
        tab=groups.get("tab") or "",
    )


def parse(custom_id: str) -> Action | None:
    """The action a custom_id stands for, or None if it is not one the bot could have sent.
    (discord.py routes clicks by the templates; this reads back an id the bot drew.)"""
    if not isinstance(custom_id, str):
        return None
    for kind, template in TEMPLATES.items():
        m = template.fullmatch(custom_id)
        if m is not None:
            return action_of(kind, m)
    return None


def known(custom_id: str) -> bool:
    """Whether a custom_id matches one of the bot's button families."""
    return any(t.fullmatch(custom_id) for t in TEMPLATES.values())


# ----- the settings panel and the replay viewer (appended: new families)

# Imported here, not at the top: the families above need nothing from the settings.
from bot.domain.server_settings import make_settings  # noqa: E402

SETTING_SPECS = make_settings()
# What a select of the settings panel may set: every setting, and the allowed channels.
SETTING_KEYS = (*SETTING_SPECS, "channels")
# The on/off settings a toggle button flips (rule options too: they are on/off or "as preset").
TOGGLE_KEYS = tuple(k for k, s in SETTING_SPECS.items() if s.kind == "bool")
# The panel's topics, in the order it shows them (bot/ui/admin.py says what each holds).
TOPICS = ("rules", "timers", "channels", "ai", "language", "roles")
# The replay's buttons: the same step can sit under two of them (◀ and ⏮ at move 1), and a
# message's custom_ids must differ, so each says which button it is.
REPLAY_NAV = ("open", "first", "back", "next", "last", "steal")

TEMPLATES.update(
    {
        kind: re.compile(rf"{PREFIX}:{kind}:{body}")
        for kind, body in {
            "setting": rf"(?P<key>{_one_of(SETTING_KEYS)})",
            "toggle": rf"(?P<key>{_one_of(TOGGLE_KEYS)}):(?P<value>on|off)",
            "topics": r"open",
            "switches": rf"(?P<key>{_one_of(TOPICS)})",
            "replay": rf"(?P<nav>{_one_of(REPLAY_NAV)}):(?P<game>{_ID}):(?P<step>{_ID})",
        }.items()
    }
)


def setting(key: str) -> str:
    """A settings panel select that sets `key` to the value picked."""
    return f"{PREFIX}:setting:{key}"


def toggle(key: str, on: bool) -> str:
    """A settings panel button that sets an on/off setting to `on` (not "flip": a second
    click on an old panel changes nothing)."""
    return f"{PREFIX}:toggle:{key}:{'on' if on else 'off'}"


def switches(topic: str) -> str:
    """A settings panel multi-select: the topic's on/off settings, on those picked."""
    return f"{PREFIX}:switches:{topic}"


def topics() -> str:
    """The settings panel's select of which topic's controls to show."""
    return f"{PREFIX}:topics:open"


def replay(game_id: int, step: int, nav: str = "open") -> str:
    """Shows a finished game's replay at `step` (0: the deal; n: after n moves). The end
    screen and the history use the default; the viewer's own buttons name themselves."""
    return f"{PREFIX}:replay:{nav}:{game_id}:{step}"


# ----- /steal rules pages (kept at the end of the file: added with the rules pages)

RULES_TABS = ("play", "full", "options")  # how to play, full rules, options and presets
# Whose rules a page shows: "here" (this channel's game, else the server's), or a preset.
RULES_SOURCES = ("here", *PRESETS)
TEMPLATES["rules"] = re.compile(
    rf"{PREFIX}:rules:(?P<op>{_one_of(RULES_SOURCES)}):(?P<tab>{_one_of(RULES_TABS)})"
)


def rules(source: str, tab: str) -> str:
    """A rules page's tab button: whose rules, and which page."""
    return f"{PREFIX}:rules:{source}:{tab}"


# ----- deleting a person's data (appended: a new family). The answer to /steal forget-me
# ("self") or /steal-admin forget ("admin"), about one user, counting until `expires`.
FORGET_OPS = ("self", "admin")
_USER = r"[1-9][0-9]{0,19}"  # a Discord user id
TEMPLATES["forget"] = re.compile(
    rf"{PREFIX}:forget:(?P<op>{_one_of(FORGET_OPS)}):(?P<expires>{_ID}):(?P<user>{_USER})"
    rf":(?P<answer>yes|no)"
)


def forget(op: str, expires: int, user_id: int, yes: bool) -> str:
    """Yes or no to forgetting `user_id`; read back, the action's game_id is the user id."""
    return f"{PREFIX}:forget:{op}:{expires}:{user_id}:{'yes' if yes else 'no'}"


# ----- tournaments (appended: a new family). The sign-up message's buttons: join, leave and
# (for managers: the cog checks who presses it) start now; and the answers to a manager's
# "cancel the tournament?" (cancel, keep); a paused round's Try again (resume). Read back,
# the action's game_id is the tournament's id (not a game's: the registry's other-server
# check does not apply).
TOUR_OPS = ("join", "leave", "start", "cancel", "keep", "checkin", "resume")
TEMPLATES["tour"] = re.compile(rf"{PREFIX}:tour:(?P<op>{_one_of(TOUR_OPS)}):(?P<tour>{_ID})")


def tour(op: str, tournament_id: int) -> str:
    """A sign-up button of tournament `tournament_id`."""
    return f"{PREFIX}:tour:{op}:{tournament_id}"
