"""bot/adapter/presenter/hand_tokens.py: a game's open hands are found without going through
every game's (a move asks for its own game's, however many games the bot runs)."""

import time

from bot.adapter.presenter.hand_tokens import HandRef, OpenHands
from bot.domain.values import HandToken


class Unscannable(dict):
    """The open hands of every game, which a move must not go through."""

    def items(self):
        raise AssertionError("went through every game's hands")

    def __iter__(self):
        raise AssertionError("went through every game's hands")


def ref(game_id: int, user: str, secret: str = "t", life: float = 600.0) -> HandRef:
    token = HandToken(game_id, user, secret, None, 1, "en", time.time() + life)
    return HandRef(token)


def test_a_games_open_hands_and_voices_come_from_its_own_players_only():
    hands = OpenHands(None, None, lambda: None)  # type: ignore[arg-type]  # nothing is sent
    hands.tokens = Unscannable()
    for game in range(1, 200):
        hands._put(game, "a", ref(game, "a"))
        hands._put(game, "b", ref(game, "b"))
    hands._put(7, "c", ref(7, "c", life=-1.0))  # expired: not open
    hands._put(7, "d", ref(7, "d", secret=""))  # shown without a token: never editable
    assert hands.open(7) == {"a", "b"} and hands.open(7, but="a") == {"b"}
    assert sorted(hands.voices(7)) == [("t", hands.tokens[(7, "a")].token.expires_at),
                                       ("t", hands.tokens[(7, "b")].token.expires_at)]  # fmt: skip
    assert hands._pop(7, "a") is not None and hands._pop(7, "a") is None
    assert hands.open(7) == {"b"} and hands.open(8) == {"a", "b"}
    for user in ("b", "c", "d"):
        hands._pop(7, user)
    assert hands.open(7) == set() and 7 not in hands.players
