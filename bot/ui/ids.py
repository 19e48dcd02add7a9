"""Button custom_ids: how they are written and read back.

Every button the bot sends carries what it is for, the game id and (for hands) the game's
version, so a click still means the same thing after a restart. A custom_id comes from the
client, so `parse` treats it as untrusted: anything it does not fully understand is None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.engine import ACTIONS, RANK, Move

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
CONFIRM_OPS = ("cancel", "close", "forfeit")  # cancel a game, close a lobby, forfeit
# Admin questions: reset the leaderboard, reset every setting, end a channel's game or lobby
# (a lobby and the game it becomes share an id: ending the lobby must not end its game).
ADMIN_OPS = ("reset_board", "reset_settings", "end", "end_lobby")
_ACTION_CODE = {action: action[0] for action in ACTIONS}  # capture -> c, steal -> s, trail -> t
_CODE_ACTION = {code: action for action, code in _ACTION_CODE.items()}

_ID = r"(0|[1-9][0-9]{0,17})"  # game ids and versions, exactly as str(int) writes them
_SLOT = r"(-|[0-3])"  # a seat or bundle index, or - for none
_PATTERNS = {
    "lobby": re.compile(rf"lobby:({'|'.join(LOBBY_OPS)}):{_ID}"),
    "table": re.compile(rf"table:({'|'.join(TABLE_OPS)}):{_ID}"),
    "card": re.compile(rf"card:{_ID}:{_ID}:([0-9A-Z]{{2,3}})"),
    "move": re.compile(rf"move:{_ID}:{_ID}:([0-9A-Z]{{2,3}}):([cst]):{_SLOT}:{_SLOT}:{_SLOT}"),
    "back": re.compile(rf"back:{_ID}:{_ID}"),
    "confirm": re.compile(rf"confirm:({'|'.join(CONFIRM_OPS)}):{_ID}:(yes|no)"),
    "board": re.compile(rf"board:({'|'.join(SORTS)}):{_ID}"),
    "record": re.compile(rf"record:{_ID}"),
    "admin": re.compile(rf"admin:({'|'.join(ADMIN_OPS)}):{_ID}:{_ID}:(yes|no)"),
    "rematch": re.compile(rf"rematch:{_ID}"),
}


@dataclass(frozen=True)
class Action:
    """What a click asks for. Which fields are set depends on `kind`."""

    kind: str  # lobby, table, card, move, back, confirm, board, record, rematch or admin
    game_id: int  # for board: the page (from 1); for admin: the game to end, or 0
    op: str = ""  # lobby/table/confirm: which button
    version: int = -1  # card/move/back: the game version the hand was drawn at
    card: str = ""
    move: Move | None = None
    yes: bool = False
    expires: int = 0  # admin: unix time after which the answer no longer counts


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


def confirm(op: str, game_id: int, yes: bool) -> str:
    return f"{PREFIX}:confirm:{op}:{game_id}:{'yes' if yes else 'no'}"


def admin(op: str, expires: int, game_id: int, yes: bool) -> str:
    """An admin's answer to a question that stops counting at `expires` (unix seconds)."""
    return f"{PREFIX}:admin:{op}:{expires}:{game_id}:{'yes' if yes else 'no'}"


def board(sort: str, page: int) -> str:
    """A leaderboard page button: the sort and the page to show (from 1)."""
    return f"{PREFIX}:board:{sort}:{page}"


def record(game_id: int) -> str:
    """Sends a finished game's record."""
    return f"{PREFIX}:record:{game_id}"


def rematch(game_id: int) -> str:
    return f"{PREFIX}:rematch:{game_id}"


def _slot(text: str) -> int | None:
    return None if text == "-" else int(text)


def parse(custom_id: str) -> Action | None:
    """The action a custom_id stands for, or None if it is not one the bot could have sent."""
    if not isinstance(custom_id, str) or not custom_id.startswith(PREFIX + ":"):
        return None
    kind, _, rest = custom_id[len(PREFIX) + 1 :].partition(":")
    pattern = _PATTERNS.get(kind)
    m = pattern.fullmatch(f"{kind}:{rest}") if pattern else None
    if m is None:
        return None
    g = m.groups()
    if kind in ("lobby", "table"):
        return Action(kind, int(g[1]), op=g[0])
    if kind == "confirm":
        return Action(kind, int(g[1]), op=g[0], yes=g[2] == "yes")
    if kind == "admin":
        return Action(kind, int(g[2]), op=g[0], expires=int(g[1]), yes=g[3] == "yes")
    if kind == "board":
        return Action(kind, int(g[1]), op=g[0])
    if kind in ("record", "rematch"):
        return Action(kind, int(g[0]))
    if kind == "back":
        return Action(kind, int(g[0]), version=int(g[1]))
    if g[2] not in RANK:
        return None
    if kind == "card":
        return Action(kind, int(g[0]), version=int(g[1]), card=g[2])
    played = Move(g[2], _CODE_ACTION[g[3]], _slot(g[4]), _slot(g[5]), _slot(g[6]))
    return Action(kind, int(g[0]), version=int(g[1]), card=g[2], move=played)
