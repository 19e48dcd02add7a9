"""Legal moves and applying them."""

from __future__ import annotations

from functools import cache
from typing import Any

from .cards import RANK
from .ending import Events, after_playoff, finish
from .errors import GameOver, IllegalMove
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


def legal_moves(game: Game) -> list[Move]:
    """Every move the player to act may make, in a stable order: by hand card, steals first."""
    g = active(game)
    if g.result is not None:
        return []
    return legal(g)


def legal(g: Game) -> list[Move]:
    """`legal_moves` for a game known to be running, without the checks (the playout loop)."""
    seat = g.turn
    assert seat is not None  # a running game always has a player to act
    stealing, steals, captures, wild, forced = _options(g.rules)
    # Steal targets: (moves by card, top rank) of every opponent's non-empty bundle.
    targets: list[tuple[ByCard, int]] = []
    if stealing:
        for other, bundles in enumerate(g.bundles):
            if other != seat:
                for index, bundle in enumerate(bundles):
                    if bundle:
                        targets.append((steals[other][index], RANK[bundle[-1]]))
    pool_ranks = set(map(_rank_of, g.pool))
    moves: list[Move] = []
    for card in g.hands[seat]:
        rank = RANK[card]
        if targets:
            stole = False
            for by_card, top in targets:
                if top == rank or rank == wild:
                    moves += by_card[card]
                    stole = True
            if stole and forced:
                continue
        if rank in pool_ranks:
            moves += captures[card]
            if forced:
                continue
        moves.append(_TRAILS[card])
    return moves


_rank_of = RANK.__getitem__


@cache
def _options(rules: Rules) -> tuple[bool, Steals, ByCard, int, bool]:
    """What `legal` needs from the rules, looked up once per ruleset instead of per move."""
    double = rules.double_bundles
    return (
        rules.stealing,
        _STEALS2 if double else _STEALS1,
        _CAPTURES2 if double else _CAPTURES1,
        rules.jack if rules.wild_jacks else 0,
        rules.play == "forced",
    )


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
    """Apply a move already known to be legal, changing `game` itself; the playout fast path.

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
    rules = g.rules
    seat = g.turn
    assert seat is not None  # a running game always has a player to act
    card = move.card
    action = move.action
    g.hands[seat].remove(card)
    ply = len(g.moves)
    g.moves.append((seat, move, auto))
    played = {"type": "played", "seat": seat, "card": card, "auto": auto}
    if action == TRAIL:
        g.pool.append(card)
        events: Events = [played, {"type": "trailed", "seat": seat, "card": card}]
    else:
        mine = g.bundles[seat][move.own_bundle or 0]
        if action == CAPTURE:
            rank = RANK[card]
            pool = g.pool
            taken = [c for c in pool if RANK[c] == rank]
            g.pool = pool = [c for c in pool if RANK[c] != rank]
            mine += taken
            bonus = None
            if not pool and rules.sweep_bonus and g.stock:
                # The bonus card goes under the played card, before any refill.
                bonus = g.stock.pop(0)
                mine.append(bonus)
            mine.append(card)
            events = [
                played,
                {
                    "type": "captured",
                    "seat": seat,
                    "card": card,
                    "cards": taken,
                    "sweep_bonus": bonus,
                    "own_bundle": move.own_bundle,
                    "n": len(taken) + (bonus is not None),  # cards taken, as for a steal
                },
            ]
            if not pool and rules.refill_pool and g.stock:
                stock = g.stock
                g.pool = stock[:HAND_SIZE]
                del stock[:HAND_SIZE]
                events.append({"type": "pool_refilled", "cards": g.pool[:], "n": len(g.pool)})
        else:
            assert move.target_seat is not None  # a legal steal always names its victim
            victim = g.bundles[move.target_seat]
            index = move.target_bundle or 0
            loot = victim[index]
            victim[index] = []
            mine += loot
            mine.append(card)
            events = [
                played,
                {
                    "type": "stole",
                    "seat": seat,
                    "card": card,
                    "from_seat": move.target_seat,
                    "from_bundle": move.target_bundle,
                    "own_bundle": move.own_bundle,
                    "n": len(loot),  # the victim's bundle; the played card is not counted
                },
            ]
        g.last_capture[seat] = ply
    _pass_turn(g, seat, events)
    return events


def _pass_turn(g: Game, seat: int, events: Events) -> None:
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
        due = [s for s in ((seat + step_ * i) % n for i in range(1, n + 1)) if s in g.players]
        if len(stock) < HAND_SIZE * len(due) and g.rules.short_deal == "one_at_a_time":
            for k, other in enumerate(due):
                hands[other] = stock[k :: len(due)]
            stock.clear()
        else:
            for other in due:
                hands[other] = stock[:HAND_SIZE]
                del stock[:HAND_SIZE]
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
