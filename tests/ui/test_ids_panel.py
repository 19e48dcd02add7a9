"""The settings panel's and the replay viewer's custom_ids: written and read back, strict about
anything else (they come from the client)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ui import ids

numbers = st.integers(min_value=0, max_value=10**18 - 1)


def fields(custom_id: str) -> dict[str, str] | None:
    for kind in ("setting", "toggle", "topics", "replay"):
        m = ids.TEMPLATES[kind].fullmatch(custom_id)
        if m:
            return {"kind": kind, **m.groupdict()}
    return None


@given(st.sampled_from(ids.SETTING_KEYS))
def test_setting_ids_read_back(key):
    assert fields(ids.setting(key)) == {"kind": "setting", "key": key}


@given(st.sampled_from(ids.TOGGLE_KEYS), st.booleans())
def test_toggle_ids_read_back(key, on):
    assert fields(ids.toggle(key, on)) == {
        "kind": "toggle",
        "key": key,
        "value": "on" if on else "off",
    }


@given(numbers, numbers, st.sampled_from(ids.REPLAY_NAV))
def test_replay_ids_read_back(game, step, nav):
    custom_id = ids.replay(game, step, nav)
    assert fields(custom_id) == {"kind": "replay", "nav": nav, "game": str(game), "step": str(step)}
    assert len(custom_id) <= 100 and ids.known(custom_id)


def test_the_default_replay_id_opens_a_viewer():
    assert ids.replay(12, 0) == "stb:replay:open:12:0"


@pytest.mark.parametrize(
    "custom_id",
    [
        "stb:setting:nonsense",
        "stb:setting:",
        "stb:setting:channels:1",
        "stb:toggle:turn_timer:on",  # not an on/off setting
        "stb:toggle:stealing:maybe",
        "stb:toggle:stealing",
        "stb:topics:rules",
        "stb:replay:open:1",
        "stb:replay:jump:1:2",
        "stb:replay:next:1:02",
        "stb:replay:next:1:1234567890123456789",
        "stb:replay:next:-1:2",
        "stb:replay:next:1:2:3",
    ],
)
def test_what_the_panel_and_viewer_never_write_is_refused(custom_id):
    assert fields(custom_id) is None and not ids.known(custom_id)


@pytest.mark.parametrize(("lang", "label"), [("en", "Replay"), ("fr", "Revoir")])
def test_the_end_screens_replay_button_opens_the_viewer(lang, label):
    """What the end screen adds (bot.ui.replay.replay_button): a click goes to the Replay
    family at move 0 of that game."""
    from bot.adapter.buttons import Family, routed
    from bot.ui.replay import replay_button

    made = replay_button(lang, 42)
    assert (made.custom_id, made.label) == ("stb:replay:open:42:0", label)
    item = routed(made)
    assert isinstance(item, Family) and item.kind == "replay"
    assert (item.action.op, item.action.game_id, item.action.step) == ("open", 42, 0)
