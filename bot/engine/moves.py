"""Legal moves and applying them."""

from __future__ import annotations

from functools import cache
from typing import Any

from .cards import RANK, SAME_RANK
from .ending import after_playoff, finish
from .errors import GameOver, IllegalMove
from .events import Events
from .game import ACTIONS, CAPTURE, HAND_SIZE, MAX_SEATS, STEAL, TRAIL, Game, Move, active
from .rules import Rules

ByCard = dict[str, tuple[Move, ...]]  # card -> the moves it makes
Steals = list[list[ByCard]]  # target seat -> target bundle -> card -> moves


def _move_tables() -> tuple[dict[str, Move], ByCard, ByCard, Steals, Steals]:
    # Every possible move, built once, so listing moves creates no objects.
    cards = list(RANK)
    trails = {c: Move(c, TRAIL) for c in cards}
    captures1: ByCard = {c: (Move(c, CAPTURE),) for c in cards}
    captures2: ByCard = {
        c: (Move(c, CAPTURE, None, None, 0), Move(c, CAPTURE, None, None, 1)) for c in cards
    }
    steals1: Steals = [[{c: (Move(c, STEAL, ts),) for c in cards}] for ts in range(MAX_SEATS)]
    steals2: Steals = [
        [{c: tuple(Move(c, STEAL, ts, tb, own) for own in (0, 1)) for c in cards} for tb in (0, 1)]
        for ts in range(MAX_SEATS)
    ]
    return trails, captures1, captures2, steals1, steals2


_TRAILS, _CAPTURES1, _CAPTURES2, _STEALS1, _STEALS2 = _move_tables()

# The bundles a seat may steal from, in the order its moves list them:
# number of seats -> seat -> ((other seat, bundle index, steal moves by card), ...).
Slots = list[list[tuple[tuple[int, int, ByCard], ...]]]


def _slots(steals: Steals) -> Slots:
    return [
        [
            tuple(
                (other, index, by_card)
                for other in range(n)
                if other != seat
                for index, by_card in enumerate(steals[other])
            )
            for seat in range(n)
        ]
        for n in range(MAX_SEATS + 1)
    ]


_SLOTS1, _SLOTS2 = _slots(_STEALS1), _slots(_STEALS2)
_NO_SLOTS: Slots = [[()] * n for n in range(MAX_SEATS + 1)]  # stealing is off


def legal_moves(game: Game) -> list[Move]:
    """Every move the player to act may make, in a stable order: by hand card, steals first."""
    g = active(game)
    if g.result is not None:
        return []
    return legal(g)


def legal(g: Game) -> list[Move]:
    """`legal_moves` for a game known to be running, without the checks. A loop over many
    moves should hold `tables(rules)` and call `legal_with` instead."""
    return legal_with(g, tables(g.rules))


# What `legal_with` needs from the rules: the steal slots (none when stealing is off), the
# capture moves by card, the wild rank (0: none) and whether play is forced.
Tables = tuple[Slots, ByCard, int, bool]


@cache
def tables(rules: Rules) -> Tables:
    """Looked up once per ruleset. A playout looks it up once per game, not per move: finding
    it in the cache hashes every field of the rules, which cost more than listing the moves."""
    double = rules.double_bundles
    slots = (_SLOTS2 if double else _SLOTS1) if rules.stealing else _NO_SLOTS
    return (
        slots,
        _CAPTURES2 if double else _CAPTURES1,
        rules.jack if rules.wild_jacks else 0,
        rules.play == "forced",
    )


def legal_with(g: Game, rule_tables: Tables) -> list[Move]:
    """`legal` with the rules' tables at hand: the playout loop's move list."""
    seat = g.turn
    assert seat is not None  # a running game always has a player to act
    slots, captures, wild, forced = rule_tables
    bundles = g.bundles
    # The opponents' bundles that can be stolen now: (steal moves by card, top rank).
    targets: list[tuple[ByCard, int]] = []
    for other, index, by_card in slots[len(bundles)][seat]:
        bundle = bundles[other][index]
        if bundle:
            targets.append((by_card, RANK[bundle[-1]]))
    pool = g.pool
    moves: list[Move] = []
    for card in g.hands[seat]:
        if targets:
            rank = RANK[card]
            stole = False
            for by_card, top in targets:
                if top == rank or rank == wild:
                    moves += by_card[card]
                    stole = True
            if stole and forced:
                continue
        if not SAME_RANK[card].isdisjoint(pool):  # the pool holds a card of its rank
            moves += captures[card]
            if forced:
                continue
        moves.append(_TRAILS[card])
    return moves


def apply(
    game: Game, move: Move | tuple[Any, ...], *, seat: int | None = None, auto: bool = False
) -> tuple[Game, Events]:
    """Play one move; return the new game and what happened, as events.

    `seat`, when given, is who is trying to move: anyone but the player to act is refused.
    `auto` marks, in the record, a move the bot made for a player (timer or away seat).
    The game given is never changed, even when the move is refused.
    """
    g = active(game)
    if g.result is not None:
        raise GameOver("the game is over")
    if seat is not None and seat != g.turn:
        raise IllegalMove("it is not your turn")
    try:
        move = Move(*move)
    except TypeError:
        raise IllegalMove(f"not a move: {move!r}") from None
    if move not in legal(g):
        raise IllegalMove(_why_illegal(g, move))
    return play(game.copy(), move, auto=auto)


def play(game: Game, move: Move, *, auto: bool = False) -> tuple[Game, Events]:
    """Apply a move already known to be legal, changing `game` itself: no copy, no checks.

    Call it only on a copy that nobody else holds.
    """
    if game.playoffs and game.result is None:
        playoff = game.playoffs[-1]
        events = step(playoff, move, auto)
        if playoff.result is not None:
            after_playoff(game, events)
        return game, events
    return game, step(game, move, auto)


def step(g: Game, move: Move, auto: bool = False) -> Events:
    """Play `move` for the player to act, in place, and pass the turn.

    Events, in order: "played"; then "captured" (with the pool cards taken and any sweep
    bonus), "stole" (from whom, how many) or "trailed"; then, as they happen, "pool_refilled",
    "hands_dealt", "leftovers_awarded", "playoff_started" and "game_over" (the result).
    In "captured" and "stole", `n` counts the cards taken, not the card played.
    """
    events: Events = []
    advance(g, move, auto, events)
    return events


def advance(g: Game, move: Move, auto: bool = False, events: Events | None = None) -> None:
    """`step`, with events appended to `events` only when it is given: random playouts never
    read them, and building two or three dicts a move was a good part of a move's cost."""
    seat = g.turn
    assert seat is not None  # a running game always has a player to act
    card, action, target_seat, target_bundle, own_bundle = move
    hand = g.hands[seat]
    hand.remove(card)
    ply = len(g.moves)
    g.moves.append((seat, move, auto))
    if events is not None:
        events.append({"type": "played", "seat": seat, "card": card, "auto": auto})
    if action == TRAIL:
        g.pool.append(card)
        if events is not None:
            events.append({"type": "trailed", "seat": seat, "card": card})
    else:
        mine = g.bundles[seat][own_bundle or 0]
        if action == CAPTURE:
            _capture(g, seat, card, mine, own_bundle, events)
        else:
            assert target_seat is not None  # a legal steal always names its victim
            victim = g.bundles[target_seat]
            index = target_bundle or 0
            loot = victim[index]
            victim[index] = []
            mine += loot
            mine.append(card)
            if events is not None:
                events.append(
                    {
                        "type": "stole",
                        "seat": seat,
                        "card": card,
                        "from_seat": target_seat,
                        "from_bundle": target_bundle,
                        "own_bundle": own_bundle,
                        "n": len(loot),  # the victim's bundle; the played card is not counted
                    }
                )
        g.last_capture[seat] = ply
    if hand:
        # The common case, kept inline: no deal is due, so the turn passes to the next player
        # holding cards (on a short stock, some got none), as at the end of pass_turn.
        hands = g.hands
        n = len(hands)
        step_ = g.rules.step
        nxt = (seat + step_) % n
        while not hands[nxt]:
            nxt = (nxt + step_) % n
        g.turn = nxt
    else:
        pass_turn(g, seat, events)


def _capture(
    g: Game, seat: int, card: str, mine: list[str], own: int | None, events: Events | None
) -> None:
    """`card` takes every pool card of its rank into `mine`; then the sweep bonus and the
    pool refill, as the rules say."""
    rules = g.rules
    same = SAME_RANK[card]
    taken: list[str] = []
    kept: list[str] = []
    for c in g.pool:  # one loop, not two comprehensions: in 3.11 each of those is a call
        if c in same:
            taken.append(c)
        else:
            kept.append(c)
    g.pool = pool = kept
    mine += taken
    bonus = None
    if not pool and rules.sweep_bonus and g.stock:
        # The bonus card goes under the played card, before any refill.
        bonus = g.stock.pop(0)
        mine.append(bonus)
    mine.append(card)
    if events is not None:
        events.append(
            {
                "type": "captured",
                "seat": seat,
                "card": card,
                "cards": taken,
                "sweep_bonus": bonus,
                "own_bundle": own,
                "n": len(taken) + (bonus is not None),  # cards taken, as for a steal
            }
        )
    if not pool and rules.refill_pool and g.stock:
        stock = g.stock
        g.pool = stock[:HAND_SIZE]
        del stock[:HAND_SIZE]
        if events is not None:
            events.append({"type": "pool_refilled", "cards": g.pool[:], "n": len(g.pool)})


def pass_turn(g: Game, seat: int, events: Events | None) -> None:
    hands = g.hands
    n = len(hands)
    step_ = g.rules.step
    if not any(hands):
        if not (g.redeal and g.stock):
            finish(g, events)
            return
        # Redeal 4 at a time, starting with the player due next. A short stock runs out early
        # (short_deal "fours"), or goes round one card at a time ("one_at_a_time").
        stock = g.stock
        players = g.players
        due = []  # a loop, not a comprehension: this runs at every redeal of every playout
        s = seat
        for _ in range(n):
            s = (s + step_) % n
            if s in players:
                due.append(s)
        if len(stock) < HAND_SIZE * len(due) and g.rules.short_deal == "one_at_a_time":
            for k, other in enumerate(due):
                hands[other] = stock[k :: len(due)]
            stock.clear()
        else:
            for other in due:
                hands[other] = stock[:HAND_SIZE]
                del stock[:HAND_SIZE]
        if events is not None:
            events.append({"type": "hands_dealt", "sizes": [len(h) for h in hands]})
    nxt = (seat + step_) % n
    while not hands[nxt]:  # players who got no cards on a short stock are skipped
        nxt = (nxt + step_) % n
    g.turn = nxt


def _why_illegal(g: Game, move: Move) -> str:
    seat = g.turn
    assert seat is not None  # apply() checked that the game is running
    if move.card not in g.hands[seat]:
        return f"{move.card} is not in your hand"
    if move.action not in ACTIONS:
        return f"unknown action {move.action!r}"
    if move.action == STEAL and not g.rules.stealing:
        return "stealing is off in these rules"
    allowed = {m.action for m in legal(g) if m.card == move.card}
    if g.rules.play == "forced" and move.action not in allowed:
        if STEAL in allowed:
            return f"{move.card} can steal a bundle, so it must (forced play)"
        if CAPTURE in allowed:
            return f"{move.card} can capture from the pool, so it must (forced play)"
    if move.action == CAPTURE and CAPTURE not in allowed:
        return f"there is no card of that rank in the pool to capture with {move.card}"
    if move.action == STEAL:
        return f"{move.card} cannot steal that bundle"
    return "that move is not allowed now"
