"""Hypothesis strategies shared by the engine and AI tests."""

from hypothesis import strategies as st

from bot.engine import Rules
from bot.engine.rules import CHOICES

# Any mix of rule options, not only the presets.
any_rules = st.builds(
    Rules,
    deck=st.sampled_from(CHOICES["deck"]),
    direction=st.sampled_from(CHOICES["direction"]),
    play=st.sampled_from(CHOICES["play"]),
    stealing=st.booleans(),
    refill_pool=st.booleans(),
    short_deal=st.sampled_from(CHOICES["short_deal"]),
    leftovers=st.sampled_from(CHOICES["leftovers"]),
    tiebreak=st.sampled_from(CHOICES["tiebreak"]),
    wild_jacks=st.booleans(),
    sweep_bonus=st.booleans(),
    double_bundles=st.booleans(),
)
