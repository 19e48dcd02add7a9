"""Games to test on, for the tests of several packages."""

from __future__ import annotations

import random

from bot.engine import PRESETS, Game, Rules, legal_moves, new_game, play


def positions(rules: Rules, players: int, seed: int) -> list[Game]:
    """Every position of one random game (playoffs included), one per move."""
    rng = random.Random(seed)
    game = new_game(rules, [f"p{i}" for i in range(players)], seed=seed, dealer=seed % players)
    out = []
    while game.result is None:
        out.append(game)
        moves = legal_moves(game)
        game, _ = play(game.copy(), moves[int(rng.random() * len(moves))])
    return out


def two_hands(mine: list[str], theirs: list[str], pool: list[str]) -> tuple[Game, int]:
    """A standard 2-player deal set by hand: the seat to move holds `mine`, the other `theirs`,
    `pool` on the table, the rest of the deck the stock. Returns it and the seat to move."""
    rules = PRESETS["standard"]
    game = new_game(rules, ["a", "b"], seed=21)
    me = game.turn
    game.hands[me] = list(mine)
    game.hands[1 - me] = list(theirs)
    game.pool = list(pool)
    used = set(mine + theirs + pool)
    game.stock = [c for c in rules.card_deck.cards if c not in used]
    return game, me


# The presets, and the options that change what moves exist.
RULESETS = {
    **PRESETS,
    "double": PRESETS["standard"].replace(double_bundles=True),
    "double_wild_forced": PRESETS["classic"].replace(double_bundles=True, wild_jacks=True),
    "wild_sweep": PRESETS["standard"].replace(wild_jacks=True, sweep_bonus=True),
    "sweep": PRESETS["standard"].replace(sweep_bonus=True),
}


def playoff_positions() -> list[Game]:
    """Every position of the first classic and casita games (2, 3 and 4 players) that go to
    a playoff: the playoffs' positions, for the AI tests."""
    out = []
    for name in ("classic", "casita"):
        for players in (2, 3, 4):
            for seed in range(400):
                pos = [g for g in positions(PRESETS[name], players, seed) if g.playoffs]
                if pos:
                    out += pos
                    break
    return out
