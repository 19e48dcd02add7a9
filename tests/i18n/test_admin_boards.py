"""The leaderboard, stats, history, the settings and /steal-admin in every language: every
message renders with sample values, within Discord's limits and with no raw key; a bad value
names what is allowed; and, through SimCord, each reader gets their language (ephemeral
replies the member's own, the public leaderboard the server's)."""

from __future__ import annotations

import re
from string import Formatter

import discord
import pytest

from bot.domain import ratings as game_stats
from bot.domain.server_settings import BadValue, duration, make_settings
from bot.i18n import LANGUAGES, LOCALES, read_file, t, tn
from bot.storage import GuildSettings, HistoryEntry, PlayerStats, Standing
from bot.ui import admin as admin_ui
from bot.ui import boards, history

KEY = re.compile(r"\b(?:board|stats|history|admin|setting|choice|cmd|count)\.[\w.-]+")
SPECS = make_settings()
OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def catalog_keys(name: str) -> dict[str, bool]:
    """The keys of one of our English catalog files: key -> is plural."""
    found = {}
    for message in read_file(LOCALES / "en" / "LC_MESSAGES" / name, "en"):
        if message.id:
            key = message.id[0] if message.pluralizable else message.id
            found[key] = message.pluralizable
    return found


def placeholders(lang: str, key: str, plural: bool) -> set[str]:
    source = read_file(LOCALES / lang / "LC_MESSAGES" / FILE_OF[key], lang)
    message = next(m for m in source if m.id and (m.id[0] if m.pluralizable else m.id) == key)
    forms = message.string if plural else [message.string]
    found = {f for s in forms for _, f, _, _ in Formatter().parse(s) if f}
    return found - {"n"} if plural else found


FILE_OF = {key: name for name in ("boards.po", "admin.po") for key in catalog_keys(name)}


def clean(text: str) -> None:
    assert text and not KEY.search(text), text


def embed_texts(embed: discord.Embed) -> list[str]:
    """Every text of an embed, checked against Discord's limits on the way."""
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.footer.text or "") <= 2048
    texts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for field in embed.fields:
        assert 1 <= len(field.name) <= 256 and 1 <= len(field.value) <= 1024, field
        texts += [field.name, field.value]
    return [x for x in texts if x]


def view_labels(view: discord.ui.View | None) -> list[str]:
    items = view.children if view else []
    labels = [getattr(item, "item", item).label for item in items]  # StealButton wraps one
    assert all(label and len(label) <= 80 for label in labels), labels
    return labels


def player(user_id: str = "101", name: str = "ann", **numbers) -> PlayerStats:
    values = dict(games=7, wins=3, cards=120, steals=4, biggest_steal=9, mu=25.0, sigma=4.2)
    values.update(numbers)
    return PlayerStats(guild_id=1, user_id=user_id, name=name, **values)


def entry(game_id: int, seats: tuple[str, ...], places, forfeited=()) -> HistoryEntry:
    """A finished game; `places` per seat, 0 for first (forfeited seats never win)."""
    record = {"format": "stb-record-1", "result": {"bundle_sizes": [3] * len(seats)}}
    return HistoryEntry(
        game_id=game_id,
        guild_id=1,
        channel_id=2,
        finished_at=1_767_225_600.0,
        seats=seats,
        places=tuple(places),
        forfeited=tuple(forfeited),
        record=record,
    )


# ----- every message renders


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", ["boards.po", "admin.po"])
def test_every_message_renders(lang, name):
    for key, plural in catalog_keys(name).items():
        values = {f: "x" for f in placeholders(lang, key, plural)}
        for n in (0, 1, 2, 5, 1_000_000) if plural else (None,):
            text = tn(lang, key, n, **values) if plural else t(lang, key, **values)
            clean(text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_leaderboard_stats_and_history_render(lang):
    standings = [Standing(rank=i + 1, player=player(str(100 + i), f"p{i}")) for i in range(10)]
    for sort in ("rating", "wins", "cards", "win_rate"):
        for asked in (1, 9):
            me = Standing(rank=40, player=player("999", "zoe"))
            message = boards.leaderboard(lang, standings, sort, 1, 42, asked, me)
            for text in layout_texts(message.view):
                clean(text)
    empty = boards.leaderboard(lang, [], "rating", 1, 0, 1)
    for text in layout_texts(empty.view):
        clean(text)
    for rank in (3, None):
        for p in (player(), player(biggest_steal=0, mu=20.0, sigma=7.0)):
            figures = game_stats.Figures((1000, 1138), ("spanish40", 12, 3) if rank else None)
            shown = boards.player_stats(lang, p, "ann_*", rank, 12, figures, b"png", bool(rank))
            for text in layout_texts(shown.view):
                clean(text)
    entries = [
        entry(1, ("101", "102"), [0, 1]),  # a winner
        entry(2, ("101", "ai:hard:1", "103"), [0, 2, 0], forfeited=["ai:hard:1"]),  # shared
        entry(3, ("101", "102"), [0, 0], forfeited=["101", "102"]),  # nobody
    ]
    assert [len(e.winners) for e in entries] == [1, 2, 0]
    names = {"101": "ann", "102": "bob"}
    for whose in (None, "ann"):
        message = history.history(lang, entries, names, whose)
        for text in embed_texts(message.embed) + view_labels(message.view):
            clean(text)
    for text in (
        boards.never_played(lang, None),
        boards.never_played(lang, "bob"),
        history.no_history(lang, None),
        history.no_history(lang, "bob"),
        history.no_record(lang),
        history.record_text(lang, entries[0]),
    ):
        clean(text)


def guild_settings(changed: bool) -> GuildSettings:
    values: dict = {key: spec.default for key, spec in SPECS.items()}
    values["channels"] = [10**17 + i for i in range(3)] if changed else []
    if changed:
        values.update(
            preset="rubamazzo", host_picks_preset=False, deck="spanish48", stealing=False,
            direction="counterclockwise", play="forced", refill_pool=False, leftovers="nobody",
            tiebreak="playoff", wild_jacks=True, sweep_bonus=True, double_bundles=True,
            turn_timer=5400, lobby_timeout=86_400, max_games=100, pings=False, language="it",
            ai_allowed=False, ai_counts=True, manager_role=10**18,
        )  # fmt: skip
    return GuildSettings(1, values, frozenset(SPECS) if changed else frozenset())


def layout_texts(view: discord.ui.LayoutView) -> list[str]:
    """Every text of a Components V2 layout (texts, labels, placeholders, options), checked
    against Discord's limits on the way: 40 components, 4000 characters of text."""
    from simcord.components import walk_components

    parts = list(walk_components(view.to_components()))
    assert len(parts) <= 40
    texts = [c["content"] for c in parts if c["type"] == 10]
    assert sum(map(len, texts)) <= 4000
    for c in parts:
        if c.get("label"):
            assert len(c["label"]) <= 80
            texts.append(c["label"])
        if c.get("placeholder"):
            assert len(c["placeholder"]) <= 150
            texts.append(c["placeholder"])
        for option in c.get("options", ()):
            assert len(option["label"]) <= 100
            texts.append(option["label"])
            if option.get("description"):  # shown under it in the open menu
                assert len(option["description"]) <= 100
                texts.append(option["description"])
    return texts


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("changed", [False, True])
@pytest.mark.parametrize("topic", admin_ui.TOPIC_KEYS)
def test_settings_panel_renders(lang, changed, topic):
    panel = admin_ui.settings_panel(SPECS, guild_settings(changed), lang, topic, note="✅ done")
    assert isinstance(panel.view, discord.ui.LayoutView)
    texts = layout_texts(panel.view)
    for text in texts:
        clean(text)
    shown = "\n".join(texts)
    for key in admin_ui.TOPIC_KEYS[topic]:  # the open topic's settings, by their names
        if SPECS[key].kind != "role":  # the role's picker shows the role itself
            assert SPECS[key].label(lang) in shown, key
    for key in SPECS:  # never by the keys admins type in /steal-admin set
        assert f"`{key}`" not in shown and ("_" not in key or key not in shown), key


def test_every_setting_is_in_one_topic():
    keys = [k for keys in admin_ui.TOPIC_KEYS.values() for k in keys]
    assert sorted(keys) == sorted(SPECS)


def test_english_settings_list_is_the_keys():
    """In English a setting's name is its key in words, so the list shows just the key."""
    for key, spec in SPECS.items():
        assert spec.label("en").lower().replace(" ", "_") == key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_setting_values_and_channels_render(lang):
    for spec in SPECS.values():
        clean(spec.allowed(lang))
        for value in (None, spec.default, True, False, 90, 5400, 10**18):
            if spec.kind in ("seconds", "number") and not isinstance(value, int | None):
                continue
            clean(spec.show(value, lang))
    clean(admin_ui.channel_list(lang, []))
    assert admin_ui.channel_list(lang, [5, 6]) == "<#5>, <#6>"


# ----- a bad value names the allowed values


def tokens(spec, lang: str) -> list[str]:
    """What an admin could type instead, as the message must name it."""
    preset = ["preset"] if spec.follows_preset else []
    if spec.kind == "choice":
        return [*preset, *spec.choices]
    if spec.kind == "bool":
        return ["on", "off", *preset]
    if spec.kind == "seconds":
        return [*(["off"] if spec.can_be_off else []), duration(spec.low, lang),
                duration(spec.high, lang)]  # fmt: skip
    if spec.kind == "number":
        return [str(spec.low), str(spec.high)]
    if spec.kind == "weeks":
        return ["off", "1", str(spec.high)]
    return ["none"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", list(SPECS))
def test_bad_value_names_the_allowed_values(lang, key):
    spec = SPECS[key]
    with pytest.raises(BadValue) as caught:
        spec.parse("tarot 99999999")
    said = caught.value.message(lang)
    assert said.startswith(f"`{key}`") and "'tarot 99999999'" in said
    for token in tokens(spec, lang):
        assert token in said, (token, said)
    clean(said)
    assert str(caught.value) == caught.value.message("en")


def test_bad_value_in_english_is_unchanged():
    with pytest.raises(BadValue, match=r"^`turn_timer` can't be '5 s'; it can be off, or 15 s"):
        SPECS["turn_timer"].parse("5 s")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_words_shown_are_accepted_back(lang):
    assert SPECS["pings"].parse(t(lang, "setting.on")) is True
    assert SPECS["pings"].parse(t(lang, "setting.off").upper()) is False
    assert SPECS["turn_timer"].parse(t(lang, "setting.off")) is None
    assert SPECS["manager_role"].parse(t(lang, "setting.none")) is None
    for spec in SPECS.values():
        for value in (spec.default, *spec.choices):
            if value is not None and spec.kind in ("choice", "number"):
                assert spec.parse(spec.show(value, lang)) == value


def test_durations():
    assert [duration(s) for s in (0, 45, 90, 3600, 5400, 86_400)] == [
        "0 s", "45 s", "1 min 30 s", "1 h", "1 h 30 min", "24 h",
    ]  # fmt: skip
    assert duration(90, "fr") == "1 min 30 s"


def test_decimals_and_percent():
    assert boards.decimal("en", 12.345) == "12.3"
    assert boards.decimal("es", -1.25) == "-1,2"
    assert boards.percent("en", 1, 3) == "33%"
    assert boards.percent("fr", 1, 2) == "50\u00a0%"
