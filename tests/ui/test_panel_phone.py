"""The settings panel on a 360-px phone: every menu shows its current value, and no option of
any menu is cut there, in every language and under every preset: at most FITS characters, and
measured in headless Chromium on SimCord's page at 360 px wide. A label that had to be
shortened keeps the long words as its description, shown in the open menu."""

from __future__ import annotations

import json

import pytest
import simcord
from simcord.components import walk_components

from bot.client import StealBot
from bot.domain import server_settings as ss
from bot.domain.options import Options
from bot.domain.values import GuildSettings
from bot.engine import PRESETS
from bot.i18n import LANGUAGES, t
from bot.playground import build_world
from bot.ui import admin, ids
from tests.support.browser import Browser

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


# Which of the labels a closed menu cuts on the page: each is put in turn into a real menu's
# value (a setting's menu, or the topic menu with its emoji; a chip of the on/off menu), and
# the browser lays it out: a label is cut when its text is wider than its box, and a chip
# that wraps onto two lines does not fit either.
CUT = """
((menus, topics, chips) => {
  const values = [...document.querySelectorAll('.select-value-label')];
  const fits = (element, text, room) => {
    const was = element.textContent;
    element.textContent = text;
    const wide = room(element);
    element.textContent = was;
    return !wide;
  };
  // A menu's value is cut when its text is wider than the label's box.
  const cut = (e) => e.scrollWidth > e.clientWidth;
  // A chip wraps its words instead: taller than its one line.
  const chip = document.querySelector('.select-chip-label');
  const line = chip.offsetHeight;
  const wrapped = (e) => e.offsetHeight > line * 1.5;
  return [
    ...menus.filter((text) => !fits(values[values.length - 1], text, cut)),
    ...topics.filter((text) => !fits(values[0], text, cut)),
    ...chips.filter((text) => !fits(chip, text, wrapped)),
  ];
})(%s, %s, %s)
"""


def labels() -> tuple[set[str], set[str], set[str]]:
    """Every option label of every menu, in every language under every preset: the settings'
    menus, the topic menu, the on/off menus."""
    menus, topics, chips = set(), set(), set()
    for lang in LANGUAGES:
        for preset in PRESETS:
            for _topic, menu in menus_of(lang, preset):
                shown = {o["label"] for o in menu["options"]}
                cid = menu["custom_id"]
                kind = topics if "topics" in cid else chips if "switches" in cid else menus
                kind |= shown
    return menus, topics, chips


def menus_of(lang: str, preset: str) -> list[tuple[str, dict]]:
    return [(topic, m) for topic, m in menus(lang, under(preset)) if m["type"] == 3]


async def test_no_option_is_cut_on_a_360px_page(tmp_path):
    """SimCord's page in headless Chromium at 360 px, as the screenshots and heights.py see
    it; its menus are as wide as a phone's."""
    menu_labels, topic_labels, chip_labels = labels()
    bot = StealBot(tmp_path / "panel.db", options=Options(turn_seconds=None), sync=True)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, members = build_world(env)
            ann = members[0]  # an admin there
            panel = (await ann.slash(channel, "steal-admin settings")).response
            await ann.select(panel, ["ai"], custom_id=ids.topics())  # four on/off chips
            page_at = env.preview(
                channel, viewers=members, layout="channel", display="fixed", width=360,
                height=1400, port=0,
            )  # fmt: skip
            async with page_at as preview, Browser(tmp_path / "chrome", 360, 1400) as page:
                await page.call(
                    "Emulation.setDeviceMetricsOverride",
                    width=360, height=1400, deviceScaleFactor=1, mobile=False,
                )  # fmt: skip
                await page.open(preview.url)
                await page.until("document.querySelectorAll('.select-chip-label').length", bool)
                width = await page.run("document.documentElement.clientWidth")
                assert width == 360
                script = CUT % tuple(
                    json.dumps(sorted(x)) for x in (menu_labels, topic_labels, chip_labels)
                )
                cut = await page.run(script)
                # The check can fail: a label a third longer than the longest is cut.
                longest = max(menu_labels, key=len)
                assert await page.run(CUT % (json.dumps([longest + longest[:9]]), "[]", "[]"))
    finally:
        if bot.storage is not None:
            await bot.storage.close()
    assert cut == [], cut


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_boards_ai_note_names_the_menu_and_option_the_panel_shows(lang):
    """The leaderboard says where an admin counts AI games: in the words of the panel's topic
    menu and of the on/off option there, as they read on the page."""
    from bot.ui import boards

    note = boards.ai_note(lang)
    shown = {(m["custom_id"], o["value"]): o["label"]
             for _, m in menus_of(lang, "standard") for o in m["options"]}  # fmt: skip
    topic, option = shown["stb:topics:open", "ai"], shown["stb:switches:ai", "ai_counts"]
    assert f"**{topic}**" in note and f"**{option}**" in note, note
