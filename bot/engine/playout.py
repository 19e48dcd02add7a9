"""Random legal games: the simulator's and the tests' workhorse."""

from __future__ import annotations

import random

from .cards import RANK, SAME_RANK
from .ending import after_playoff
from .game import CAPTURE, HAND_SIZE, TRAIL, Game, Move, active, new_game, shuffled_deck, start
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
    plain = not (forced or wild)
    refill, bonus = rules.refill_pool, rules.sweep_bonus
    step = rules.step
    trails, rank_of, same_rank = _TRAILS, RANK, SAME_RANK  # locals: the loop reads them a lot
    while game.result is None:
        g = active(game)  # the game itself, or its running playoff
        hands, bundles, stock = g.hands, g.bundles, g.stock
        history, last_capture = g.moves, g.last_capture
        n = len(hands)
        # Per seat, the bundles it may steal: (the owner's bundles, which one, its steals).
        slots = [
            [(bundles[other], index, by_card) for other, index, by_card in seat_slots]
            for seat_slots in all_slots[n]
        ]
        record = history.append
        # The pool's cards by rank, kept up to date: "can this card capture" is one lookup.
        in_pool = [0] * 14
        for c in g.pool:
            in_pool[rank_of[c]] += 1
        seat = g.turn
        while seat is not None:
            # The moves, as legal_with lists them: by hand card, steals first.
            targets = []  # loops, not comprehensions: in 3.11 each of those is a call
            for owner, index, by_card in slots[seat]:
                bundle = owner[index]
                if bundle:
                    targets.append((by_card, rank_of[bundle[-1]]))
            hand = hands[seat]
            moves: list[Move] = []
            if plain and len(targets) < 2:  # free play, no wild card, one bundle to steal
                if targets:
                    ((steals, top),) = targets
                else:
                    steals, top = {}, 0
                for card in hand:
                    rank = rank_of[card]
                    if rank == top:
                        moves += steals[card]
                    if in_pool[rank]:
                        moves += captures[card]
                    moves.append(trails[card])
            elif plain:
                for card in hand:
                    rank = rank_of[card]
                    for by_card, top in targets:
                        if top == rank:
                            moves += by_card[card]
                    if in_pool[rank]:
                        moves += captures[card]
                    moves.append(trails[card])
            else:
                for card in hand:
                    rank = rank_of[card]
                    stole = False
                    for by_card, top in targets:
                        if top == rank or rank == wild:
                            moves += by_card[card]
                            stole = True
                    if stole and forced:
                        continue
                    if in_pool[rank]:
                        moves += captures[card]
                        if forced:
                            continue
                    moves.append(trails[card])
            move = moves[int(rand() * len(moves))]
            # The move, as advance plays it.
            card, action, target_seat, target_bundle, own_bundle = move
            hand.remove(card)
            record((seat, move, False))
            if action == TRAIL:
                g.pool.append(card)
                in_pool[rank_of[card]] += 1
            else:
                mine = bundles[seat][own_bundle or 0]
                if action == CAPTURE:
                    same = same_rank[card]
                    kept = []
                    for c in g.pool:
                        if c in same:
                            mine.append(c)
                        else:
                            kept.append(c)
                    g.pool = kept
                    in_pool[rank_of[card]] = 0
                    if not kept and bonus and stock:
                        mine.append(stock.pop(0))
                    mine.append(card)
                    if not kept and refill and stock:
                        g.pool = stock[:HAND_SIZE]
                        del stock[:HAND_SIZE]
                        for c in g.pool:
                            in_pool[rank_of[c]] += 1
                else:
                    victim = bundles[target_seat]  # type: ignore[index]  # a steal names it
                    index = target_bundle or 0
                    mine += victim[index]
                    victim[index] = []
                    mine.append(card)
                last_capture[seat] = len(history) - 1
            if hand or any(hands):  # no deal due: pass_turn's last lines
                nxt = (seat + step) % n
                while not hands[nxt]:
                    nxt = (nxt + step) % n
                g.turn = seat = nxt
            else:
                pass_turn(g, seat, None)
                seat = g.turn
        if g is not game:  # a playoff ended: settle the game, or start another playoff
            after_playoff(game, None)
    return game
