"""The settings panel on a 360-px phone: every menu shows its current value, and no option of
any menu is cut there (FITS characters), in every language and under every preset. A label
that had to be shortened keeps the long words as its description, shown in the open menu."""

from __future__ import annotations

import pytest
from simcord.components import walk_components

from bot.domain import server_settings as ss
from bot.domain.values import GuildSettings
from bot.engine import PRESETS
from bot.i18n import LANGUAGES, t
from bot.ui import admin

SPECS = ss.make_settings()


@pytest.fixture(autouse=True)
def every_word_found(caplog):
    """A message missing from the catalogs would show its key, which is short: never fits."""
    yield
    missing = [r.getMessage() for r in caplog.records if "is missing from" in r.getMessage()]
    assert not missing, missing[:3]


def menus(lang: str, current: GuildSettings) -> list[tuple[str, dict]]:
    """Every select of every topic of the panel, with the topic it is in."""
    found = []
    for topic in admin.TOPIC_KEYS:
        tree = admin.settings_panel(SPECS, current, lang, topic).view.to_components()
        found += [(topic, c) for c in walk_components(tree) if c["type"] in (3, 6, 8)]
    return found


def under(preset: str, **changed: object) -> GuildSettings:
    values = {**ss.defaults(SPECS), "preset": preset, **changed}
    return GuildSettings(1, values, frozenset(changed) | {"preset"})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_option_of_any_menu_is_cut(lang):
    """Every option, not only today's pick: the admin may pick any of them, and the menu then
    shows that one closed. The preset changes the "(preset)" options, so each is tried."""
    cut = set()
    for preset in PRESETS:
        for topic, menu in menus(lang, under(preset)):
            for option in menu.get("options", ()):
                assert option["label"], (topic, menu["custom_id"], option)
                if len(option["label"]) > admin.FITS:
                    cut.add((menu["custom_id"], option["value"], option["label"]))
    assert not cut, sorted(cut)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_shortened_label_keeps_its_long_words_in_the_description(lang):
    for topic, menu in menus(lang, under("standard")):
        if topic != "rules" or not menu["custom_id"].startswith("stb:setting:"):
            continue
        key = menu["custom_id"].removeprefix("stb:setting:")
        spec = SPECS[key]
        for option in menu["options"]:
            words = admin.option_label(lang, spec, option["value"], PRESETS["standard"])
            full = t(lang, "panel.option", name=spec.label(lang), value=words)
            if option["label"] != full:
                assert option.get("description") == full[:100], (key, option)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("preset", ["standard", "rubamazzo"])
def test_every_menu_shows_its_current_value(lang, preset):
    """Each single-choice menu marks exactly the stored value (never its placeholder alone);
    the on/off menu marks exactly the settings that are on; role and channel menus show the
    stored ones. Checked at the defaults and with every menu moved off them."""
    moved = {
        "deck": "italian40", "short_deal": "one_at_a_time", "leftovers": "nobody",
        "tiebreak": "playoff", "turn_timer": 300, "lobby_timeout": 3600, "season_length": 4,
        "max_games": 5, "hints": "casual", "language": "fr", "manager_role": 77,
        "channels": (11, 12), "wild_jacks": True, "stealing": False, "ai_counts": True,
    }  # fmt: skip
    for current in (under(preset), under(preset, **moved)):
        for topic, menu in menus(lang, current):
            cid = menu["custom_id"]
            if cid.startswith("stb:topics:"):
                assert [o["value"] for o in menu["options"] if o.get("default")] == [topic]
                continue
            if cid.startswith("stb:switches:"):
                keys = admin.switch_keys(topic, SPECS)
                on = {k for k in keys if admin.effective(SPECS[k], current)}
                assert {o["value"] for o in menu["options"] if o.get("default")} == on, cid
                continue
            key = cid.removeprefix("stb:setting:")
            if key in ("manager_role", "channels"):
                stored = current[key]
                expected = list(stored) if key == "channels" else [stored] if stored else []
                shown = [int(v["id"]) for v in menu.get("default_values", ())]
                assert shown == expected, (cid, shown)
                continue
            picked = [o["value"] for o in menu["options"] if o.get("default")]
            assert picked == [admin.select_value(SPECS[key], current[key])], (cid, picked)
