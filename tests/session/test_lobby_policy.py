"""What a server's settings let a host ask for (bot/session/lobby_policy.py): the thing
allowed, or a typed refusal the Discord edge only renders."""

from __future__ import annotations

import pytest

from bot.session.lobby_policy import NewLobby, Refusal, ai_refused, new_lobby, rematch_seats

OPEN = {"ai_allowed": True, "preset": "standard", "host_picks_preset": True}


def test_a_lobby_with_bots_gets_their_difficulties_and_the_preset_asked_for():
    assert new_lobby(OPEN, "quick", 4, 2, "hard") == NewLobby("quick", ["hard", "hard"])


@pytest.mark.parametrize(
    ("settings", "preset", "players", "bots", "refusal"),
    [
        ({**OPEN, "ai_allowed": False}, None, 4, 1, Refusal.NO_AI),
        (OPEN, None, 3, 3, Refusal.TOO_MANY_BOTS),
        ({**OPEN, "host_picks_preset": False}, "quick", 4, 0, Refusal.PRESET_FIXED),
    ],
)
def test_what_the_settings_forbid_is_refused_with_its_reason(
    settings, preset, players, bots, refusal
):
    assert new_lobby(settings, preset, players, bots, "medium") is refusal


def test_the_servers_own_preset_is_always_allowed():
    fixed = {**OPEN, "host_picks_preset": False}
    assert new_lobby(fixed, "standard", 4, 0, "easy") == NewLobby("standard", [])
    assert new_lobby(fixed, None, 4, 0, "easy") == NewLobby(None, [])


def test_a_rematch_loses_its_ai_seats_where_ai_is_no_longer_allowed():
    seats = ["1", "ai:medium:1", "2"]
    assert rematch_seats(OPEN, seats) == seats
    assert rematch_seats({**OPEN, "ai_allowed": False}, seats) == ["1", "2"]


def test_adding_ai_is_refused_only_where_it_is_not_allowed():
    assert ai_refused(True) is None
    assert ai_refused(False) is Refusal.NO_AI
