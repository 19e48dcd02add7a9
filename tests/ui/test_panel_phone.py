"""The settings panel on a 360-px phone: every menu shows its current value, and that value's
label is short enough not to be cut there (FITS characters), in every language, or else is
the value alone (its setting's name and "(preset)" left to the open menu's description)."""

from __future__ import annotations

import pytest
from simcord.components import walk_components

from bot.domain import server_settings as ss
from bot.domain.values import GuildSettings
from bot.i18n import LANGUAGES
from bot.ui import admin


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_menu_shows_its_current_value_uncut(lang):
    specs = ss.make_settings()
    current = GuildSettings(1, ss.defaults(specs), frozenset())
    for topic in admin.TOPIC_KEYS:
        tree = admin.settings_panel(specs, current, lang, topic).view.to_components()
        for menu in (c for c in walk_components(tree) if c["type"] == 3):
            if menu["custom_id"].startswith("stb:switches:"):
                continue  # on/off toggles: each ticked, not one current value
            picked = [o["label"] for o in menu["options"] if o.get("default")]
            assert len(picked) == 1, (topic, menu["custom_id"], picked)
            [option] = [o for o in menu["options"] if o.get("default")]
            if len(picked[0]) > admin.FITS:  # the shortest words the value has
                assert option.get("description"), (topic, picked[0])
                assert ":" not in picked[0] and "(" not in picked[0], (topic, picked[0])
