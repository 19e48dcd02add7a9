"""The catalogs: same keys and placeholders everywhere, right plural forms, fallbacks."""

from __future__ import annotations

import logging
from string import Formatter

import discord
import pytest
from babel.messages.plurals import get_plural

import bot.i18n as i18n
from bot.i18n import (
    LANGUAGES,
    catalog_files,
    key_of,
    language_of,
    read_catalog,
    read_file,
    t,
    tn,
    translated,
)

OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def entries(lang: str) -> dict[str, object]:
    """key -> message of every entry with a msgid (the header excluded)."""
    return {key_of(m): m for m in read_catalog(lang) if m.id}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name is not None}


def forms(message) -> list[str]:
    return list(message.string) if message.pluralizable else [message.string]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_is_complete(lang):
    messages, english = entries(lang), entries("en")
    missing = sorted(k for k in english if k not in messages)
    extra = sorted(k for k in messages if k not in english)
    untranslated = sorted(k for k, m in messages.items() if not translated(m))
    assert not missing, f"{lang} catalog lacks keys: {', '.join(missing)}"
    assert not extra, f"{lang} catalog has keys English lacks: {', '.join(extra)}"
    assert not untranslated, f"{lang}: empty or fuzzy: {', '.join(untranslated)}"
    assert not read_catalog(lang).obsolete, f"{lang} has obsolete (#~) entries"


@pytest.mark.parametrize("lang", OTHERS)
def test_plural_and_placeholders_match_english(lang):
    english, messages = entries("en"), entries(lang)
    wrong = []
    for key, source in english.items():
        message = messages.get(key)
        if message is None:
            continue  # reported by test_catalog_is_complete
        if message.pluralizable != source.pluralizable:
            wrong.append(f"{key}: plural in one catalog only")
            continue
        want = set().union(*(fields(s) for s in forms(source)))
        for i, text in enumerate(forms(message)):
            if fields(text) != want:
                wrong.append(f"{key}[{i}]: {sorted(fields(text))} != English {sorted(want)}")
    assert not wrong, f"{lang}:\n" + "\n".join(wrong)


def test_english_plural_forms_share_placeholders():
    wrong = [
        key
        for key, m in entries("en").items()
        if m.pluralizable and len({frozenset(fields(s)) for s in m.string}) != 1
    ]
    assert not wrong, f"English plural forms differ in placeholders: {wrong}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_come_from_babel(lang):
    rule = get_plural(lang)
    for path in catalog_files(lang):
        catalog = read_file(path, lang)
        assert (catalog.num_plurals, catalog.plural_expr) == (
            rule.num_plurals,
            rule.plural_expr,
        ), f"{path}: Plural-Forms header should be: {rule.plural_forms}"
    wrong = [
        key
        for key, m in entries(lang).items()
        if m.pluralizable and len(m.string) != rule.num_plurals
    ]
    assert not wrong, f"{lang}: these need {rule.num_plurals} plural forms: {wrong}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_the_same_files(lang):
    names = [p.name for p in catalog_files(lang)]
    assert names == [p.name for p in catalog_files("en")], f"{lang} has files {names}"


@pytest.mark.parametrize(
    ("lang", "counts"),
    [
        ("en", {0: "0 cards", 1: "1 card", 3: "3 cards"}),
        ("es", {0: "0 cartas", 1: "1 carta", 3: "3 cartas"}),
        ("fr", {0: "0 carte", 1: "1 carte", 2: "2 cartes"}),
        ("it", {0: "0 carte", 1: "1 carta", 2: "2 carte"}),
    ],
)
def test_plural_words(lang, counts):
    assert {n: tn(lang, "count.cards", n) for n in counts} == counts


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        ("en-US", "en"),
        ("en-GB", "en"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("fr", "fr"),
        ("it", "it"),
        ("pt-BR", "en"),
        ("de", "en"),
        ("", "en"),
        (None, "en"),
        (discord.Locale.latin_american_spanish, "es"),
        (discord.Locale.french, "fr"),
        (discord.Locale.japanese, "en"),
    ],
)
def test_language_of(locale, lang):
    assert language_of(locale) == lang


def test_t_takes_a_locale_too():
    assert t(discord.Locale.italian, "rules.no_stealing") == t("it", "rules.no_stealing")


@pytest.fixture
def tiny_catalogs(tmp_path, monkeypatch):
    """English with two keys, Spanish with one: the fallbacks, on catalogs we control."""

    def write(lang: str, body: str) -> None:
        folder = tmp_path / lang / "LC_MESSAGES"
        folder.mkdir(parents=True)
        header = f'msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n\n'
        (folder / "messages.po").write_text(header + body, encoding="utf-8")

    write("en", 'msgid "a"\nmsgstr "A {x}"\n\nmsgid "b"\nmsgstr "B"\n')
    write("es", 'msgid "a"\nmsgstr "Á {x}"\n\nmsgid "b"\nmsgstr ""\n')
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    i18n._load.cache_clear()
    yield
    i18n._load.cache_clear()


@pytest.mark.usefixtures("tiny_catalogs")
def test_fallbacks(caplog):
    assert t("es", "a", x=1) == "Á 1"
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        assert t("es", "b") == "B"  # untranslated in Spanish: English
        assert not caplog.records
        assert t("es", "nope") == "nope"  # nowhere: the key, and a warning
    assert [r.getMessage() for r in caplog.records] == [
        "message 'nope' is missing from the es catalog and from English"
    ]
    assert i18n.lookup("es", "b") is None  # no fallback for the command translator
