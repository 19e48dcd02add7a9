"""Playing a game: lobbies (_lobbies.py), a member's hand and moves (_hands.py), the table's
commands and questions (_table.py, _questions.py), the rules pages (_rules.py) and the replay
of a finished game (_replay.py). Its commands are declared by the `/steal` cog (cogs/steal),
which hands them here; its button families are `families()`."""

from __future__ import annotations

from bot.adapter.edge import Edge
from bot.adapter.ephemera import Ephemera
from bot.adapter.presenter import Presenter
from bot.adapter.registry import Handler
from bot.engine import Move
from bot.session import Sessions
from bot.ui import ids

from ._hands import Hands
from ._lobbies import Lobbies
from ._questions import Questions
from ._replay import Replays
from ._rules import RulesPages
from ._table import Games

__all__ = ["Play"]


class Play:
    """The feature's parts, each made with only what it uses."""

    def __init__(
        self, sessions: Sessions, presenter: Presenter, ephemera: Ephemera, edge: Edge
    ) -> None:
        self.questions = Questions(sessions, edge)
        self.rules = RulesPages(sessions)
        self.hands = Hands(sessions, presenter, ephemera, edge, self.rules)
        self.lobbies = Lobbies(sessions, presenter, ephemera, edge, self.questions)
        self.games = Games(sessions, presenter, edge, self.hands, self.questions)
        self.replays = Replays(sessions, edge)

    def families(self) -> dict[str, Handler]:
        """Each button family this feature answers, and how its fields reach the handler."""
        lobbies, hands = self.lobbies, self.hands
        return {
            "lobby": lambda i, a: lobbies.lobby_op(i, a.op, a.game_id),
            "rematch": lambda i, a: lobbies.rematch(i, a.game_id),
            "table": lambda i, a: hands.table_button(i, a.op, a.game_id),
            "card": lambda i, a: hands.redraw(i, a.game_id, a.version),
            "back": lambda i, a: hands.redraw(i, a.game_id, a.version),
            "move": lambda i, a: hands.picked(i, a.game_id, a.version, a.move),
            "hint": lambda i, a: hands.hint(i, a.game_id, a.version),
            "pick": lambda i, a: hands.picked(i, a.game_id, a.version, _choice(a)),
            "confirm": lambda i, a: self.games.confirmed(i, a.op, a.game_id, a.yes),
            "replay": lambda i, a: self.replays.clicked(i, a.op, a.game_id, a.step),
            "rules": lambda i, a: self.rules.turn(i, a.op, a.tab),
        }


def _choice(action: ids.Action) -> Move | None:
    """The move picked from a card's menu; None for an option the bot did not offer."""
    return ids.choice_of(action.card, str(action.values[0]) if action.values else "")
