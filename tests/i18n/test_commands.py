"""Slash command localizations, checked on the payloads discord.py would send to Discord.

The real bot's tree is built (so commands added later are checked too) and every command goes
through discord.py's own translation path with our translator."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest_asyncio
from discord import Locale

from bot.client import StealBot
from bot.i18n import LANGUAGES, language_of, lookup
from bot.i18n.commands import CommandTranslator, key_of

NAME = re.compile(r"^[-_\w]{1,32}$")
LOCALIZED = sorted(loc.value for loc in Locale if language_of(loc) != "en")


class Recorder(CommandTranslator):
    """Notes every string asked about: (key, English text, locale, translation)."""

    def __init__(self) -> None:
        self.asked: list[tuple[str | None, str, Locale, str | None]] = []

    async def translate(self, string, locale, context):
        result = await super().translate(string, locale, context)
        self.asked.append((key_of(string, context), string.message, locale, result))
        return result


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def translated(tmp_path_factory):
    bot = StealBot(tmp_path_factory.mktemp("i18n") / "x.db", sync=False)
    try:
        await bot.setup_hook()
        recorder = Recorder()
        payloads = [
            await command.get_translated_payload(bot.tree, recorder)
            for command in bot.tree.get_commands()
        ]
    finally:
        await bot.close()
    assert payloads, "no commands in the tree"
    return payloads, recorder.asked


def test_localized_for_exactly_the_supported_locales():
    assert LOCALIZED == ["es-419", "es-ES", "fr", "it"]


def test_every_command_string_has_a_translation(translated):
    _, asked = translated
    missing = defaultdict(set)
    for key, english, locale, result in asked:
        lang = language_of(locale)
        if lang != "en" and result is None:
            missing[lang].add(key or f"(no key for {english!r})")
    assert not missing, "add these keys to the catalogs:\n" + "\n".join(
        f"{lang}: {', '.join(sorted(keys))}" for lang, keys in sorted(missing.items())
    )


def test_english_catalog_matches_the_code(translated):
    """The en catalog's cmd.*/choice.* texts are the code's: a changed English text shows here,
    so its translations get updated too."""
    _, asked = translated
    stale = sorted(
        {
            f"{key}: catalog {lookup('en', key)!r}, code {english!r}"
            for key, english, _, _ in asked
            if key and lookup("en", key) != english
        }
    )
    assert not stale, "update the en catalog (and the translations):\n" + "\n".join(stale)


def test_english_locales_are_left_alone(translated):
    _, asked = translated
    english = {result for _, _, locale, result in asked if language_of(locale) == "en"}
    assert english == {None}


def texts(payload: dict, field: str) -> dict[str, str]:
    """The default text and every localization of `field`: locale -> text."""
    return {"default": payload[field], **payload.get(f"{field}_localizations", {})}


def problems(payload: dict, path: str) -> list[str]:
    out = []
    for locale, name in texts(payload, "name").items():
        if not NAME.fullmatch(name) or name != name.lower():
            out.append(f"{path} [{locale}]: bad name {name!r}")
    for locale, text in texts(payload, "description").items():
        if not 1 <= len(text) <= 100:
            out.append(f"{path} [{locale}]: description is {len(text)} characters")
    options = payload.get("options", [])
    for locale in ["default", *LOCALIZED]:
        names = [texts(o, "name").get(locale, o["name"]) for o in options]
        if len(names) != len(set(names)):
            out.append(f"{path} [{locale}]: options share a name: {names}")
    for option in options:
        out += problems(option, f"{path} {option['name']}")
    for choice in payload.get("choices", []):
        for locale, name in texts(choice, "name").items():
            if not 1 <= len(name) <= 100:
                out.append(f"{path} choice {choice['name']!r} [{locale}]: {len(name)} chars")
    return out


def test_payloads_are_within_discord_limits(translated):
    payloads, _ = translated
    found = [p for payload in payloads for p in problems(payload, "/" + payload["name"])]
    for locale in ["default", *LOCALIZED]:
        names = [texts(p, "name").get(locale, p["name"]) for p in payloads]
        if len(names) != len(set(names)):
            found.append(f"[{locale}]: commands share a name: {names}")
    assert not found, "\n".join(found)


def test_payloads_carry_the_translations(translated):
    payloads, _ = translated
    steal = next(p for p in payloads if p["name"] == "steal")
    assert sorted(steal["name_localizations"]) == LOCALIZED
    assert steal["name_localizations"]["es-419"] == lookup("es", "cmd.steal.name")
    new = next(o for o in steal["options"] if o["name"] == "new")
    rules = next(o for o in new["options"] if o["name"] == "rules")
    assert rules["name_localizations"]["fr"] == lookup("fr", "cmd.steal.new.rules.name")
    classic = next(c for c in rules["choices"] if c["value"] == "classic")
    assert classic["name_localizations"]["it"] == lookup("it", "choice.classic")
    assert set(LANGUAGES) >= {language_of(loc) for loc in LOCALIZED}


def test_the_sync_fingerprint_follows_the_commands_and_the_catalogs(tmp_path, monkeypatch):
    """A bot started again syncs only when the fingerprint changed: an edited command, or an
    edited translation (the payload it hashes is the untranslated one)."""
    from bot.i18n import commands as words

    catalog = tmp_path / "messages.po"
    catalog.write_text('msgid "cmd.steal.description"\nmsgstr "Jugar"\n')
    monkeypatch.setattr(words, "catalog_files", lambda lang: [catalog])
    words._catalogs.cache_clear()
    payload = [{"name": "steal", "description": "Play"}]
    first = words.sync_fingerprint(None, payload)
    assert words.sync_fingerprint(None, payload) == first
    assert words.sync_fingerprint(None, [{"name": "steal", "description": "Play!"}]) != first
    assert words.sync_fingerprint(5, payload) != first  # another dev server
    catalog.write_text('msgid "cmd.steal.description"\nmsgstr "Juega"\n')
    words._catalogs.cache_clear()  # a new process reads the edited catalog
    assert words.sync_fingerprint(None, payload) != first
    words._catalogs.cache_clear()
