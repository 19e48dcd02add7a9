"""The soft reset of a new season (bot.domain.ratings.soft_reset, docs/rules.md#seasons)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.domain import ratings
from bot.domain.values import display_rating

START = (ratings.START_MU, ratings.START_SIGMA)
SETTLED = (25.0, 3.0)  # an average player who has played a lot


def win(me: tuple[float, float]) -> tuple[float, float]:
    """`me` after beating a settled average player."""
    return ratings.rate([me, SETTLED], [0, 1])[0]


def games_to_reach(rating: int, me: tuple[float, float]) -> int:
    """Wins in a row `me` needs before their displayed rating is at least `rating`."""
    for n in range(200):
        if display_rating(*me) >= rating:
            return n
        me = win(me)
    raise AssertionError("never got there")


def test_a_returning_strong_player_climbs_back_in_fewer_games_than_a_newcomer():
    strong = START
    for _ in range(20):  # a season of wins: far ahead of the board
        strong = win(strong)
    reset = ratings.soft_reset(*strong)
    assert display_rating(*reset) < display_rating(*strong)  # the new season is a new race
    assert display_rating(*reset) > display_rating(*START)  # but they start ahead
    near = display_rating(*strong) - 40  # back near their old place: within one point of ordinal
    returning, newcomer = games_to_reach(near, reset), games_to_reach(near, START)
    assert returning * 3 <= newcomer * 2, (returning, newcomer)  # 10 against 18 now


def test_a_newcomer_is_left_as_they_are():
    assert ratings.soft_reset(*START) == START


@given(
    mu=st.floats(0, 60, allow_nan=False),
    sigma=st.floats(0.5, ratings.START_SIGMA, allow_nan=False),
    other=st.floats(0, 60, allow_nan=False),
)
def test_the_reset_pulls_mu_towards_the_start_and_raises_sigma_to_at_most_the_start(
    mu, sigma, other
):
    new_mu, new_sigma = ratings.soft_reset(mu, sigma)
    assert abs(new_mu - ratings.START_MU) <= abs(mu - ratings.START_MU) + 1e-9
    assert sigma <= new_sigma <= ratings.START_SIGMA + 1e-9
    if mu > other + 1e-6:  # who was ahead in mu stays ahead
        assert new_mu > ratings.soft_reset(other, sigma)[0]
