"""Random legal games: the simulator's and the tests' workhorse."""

from __future__ import annotations

import random

from .cards import RANK, SAME_RANK
from .ending import after_playoff
from .game import CAPTURE, HAND_SIZE, TRAIL, Game, active, new_game, shuffled_deck, start
from .moves import _TRAILS, pass_turn, tables
from .rules import Rules


def random_game(rules: Rules, players: int, seed: int, dealer: int = 0) -> Game:
    """Deal from `seed` and play uniformly random legal moves to the end."""
    if not (2 <= players <= len(SEATS) and 0 <= dealer < players):
        # new_game's checks, and its message, for anything but the plain case below
        return _finish_randomly(
            new_game(rules, SEATS[:players], seed=seed, dealer=dealer), random.Random(seed)
        )
    # new_game's own deal, without the checks it needs for decks and seats from outside
    deck = shuffled_deck(rules, seed)
    game = start(rules, SEATS[:players], dealer, seed, PLAYERS[players], True, deck)
    return _finish_randomly(game, random.Random(seed))


def play_out(game: Game, rng: random.Random) -> Game:
    """Finish a copy of `game` with random legal moves; the game given is left as it was."""
    return _finish_randomly(game.copy(), rng)


SEATS = ("p0", "p1", "p2", "p3")
PLAYERS = [tuple(range(n)) for n in range(len(SEATS) + 1)]


def _finish_randomly(game: Game, rng: random.Random) -> Game:
    # The fast path: `legal_with` and `advance` (no events) in one loop, the rules read once
    # per game and every lookup held in a local. It lists the same moves, picks the same one
    # and changes the game exactly as `apply` would (tests/engine/test_playout.py).
    rand = rng.random  # faster than rng.choice, and as deterministic
    rules = game.rules
    all_slots, captures, wild, forced = tables(rules)
    refill, bonus = rules.refill_pool, rules.sweep_bonus
    step = rules.step
    trails = _TRAILS
    while game.result is None:
        g = active(game)  # the game itself, or its running playoff
        hands, bundles, stock = g.hands, g.bundles, g.stock
        history, last_capture = g.moves, g.last_capture
        n = len(hands)
        slots = all_slots[n]
        seat = g.turn
        while seat is not None:
            # The moves, as legal_with lists them: by hand card, steals first.
            targets = []  # loops, not comprehensions: in 3.11 each of those is a call
            for other, index, by_card in slots[seat]:
                bundle = bundles[other][index]
                if bundle:
                    targets.append((by_card, RANK[bundle[-1]]))
            pool = g.pool
            hand = hands[seat]
            moves = []
            for card in hand:
                if targets:
                    rank = RANK[card]
                    stole = False
                    for by_card, top in targets:
                        if top == rank or rank == wild:
                            moves += by_card[card]
                            stole = True
                    if stole and forced:
                        continue
                if not SAME_RANK[card].isdisjoint(pool):
                    moves += captures[card]
                    if forced:
                        continue
                moves.append(trails[card])
            move = moves[int(rand() * len(moves))]
            # The move, as advance plays it.
            card, action, target_seat, target_bundle, own_bundle = move
            hand.remove(card)
            history.append((seat, move, False))
            if action == TRAIL:
                pool.append(card)
            else:
                mine = bundles[seat][own_bundle or 0]
                if action == CAPTURE:
                    same = SAME_RANK[card]
                    kept = []
                    for c in pool:
                        if c in same:
                            mine.append(c)
                        else:
                            kept.append(c)
                    g.pool = pool = kept
                    if not pool and bonus and stock:
                        mine.append(stock.pop(0))
                    mine.append(card)
                    if not pool and refill and stock:
                        g.pool = stock[:HAND_SIZE]
                        del stock[:HAND_SIZE]
                else:
                    victim = bundles[target_seat]  # type: ignore[index]  # a steal names it
                    index = target_bundle or 0
                    mine += victim[index]
                    victim[index] = []
                    mine.append(card)
                last_capture[seat] = len(history) - 1
            if hand:
                nxt = (seat + step) % n
                while not hands[nxt]:
                    nxt = (nxt + step) % n
                g.turn = seat = nxt
            else:
                pass_turn(g, seat, [])
                seat = g.turn
        if g is not game:  # a playoff ended: settle the game, or start another playoff
            after_playoff(game, [])
    return game
