"""Every user-facing word, in English, Spanish, French and Italian.

Messages live in gettext catalogs, one folder per language:
``bot/i18n/locales/<lang>/LC_MESSAGES/*.po`` (``messages.po`` for cards, rules and commands,
and one file per part of the bot, so each can be edited on its own; a key is in one file).
A message's msgid is a stable key, not English text, and English is a catalog like the
others. Texts are ``str.format`` templates
with named fields (``{name}``); in a plural message ``{n}`` is the count.

Keys, by prefix:

- ``count.*`` plural counts (``count.cards``: "1 card" / "3 cards");
- ``deck.<deck>`` and ``deck.<deck>.short``; ``rank.<family>.<rank>`` (plural) and
  ``rank.<family>.<rank>.label``; ``rank.number`` (plural); ``suit.<family>.<letter>``, where
  family is ``french52``, ``spanish`` (both Spanish decks) or ``italian40``;
- ``preset.<name>.name|title|blurb``, ``rules.*`` and ``rules.footer.*``: the rules summary;
- ``cmd.*`` and ``choice.*``: slash commands (see ``bot.i18n.commands``).

Adding a language: copy ``locales/en`` to ``locales/<code>``, translate every ``msgstr``,
give plural entries as many forms as Babel has for the language (the header's ``Language`` and
``Plural-Forms`` lines: tests/i18n prints the right ones), and add the code to ``LANGUAGES``.
Discord locales map to it by their language part (``pt-BR`` -> ``pt``).
"""

from __future__ import annotations

import functools
import logging
import re
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LANGUAGES = ("en", "es", "fr", "it")
DEFAULT = "en"
LOCALES = Path(__file__).parent / "locales"

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=256)  # a command sync asks it some 14,000 times; locales are few
def language_of(locale: Any) -> str:
    """The language for a Discord locale ("es-419", discord.Locale.french, None, ...)."""
    if locale in LANGUAGES:  # already one of ours: most calls, from t() (no regex then)
        return str(locale)
    code = str(getattr(locale, "value", locale) or "")
    for candidate in (code, re.split(r"[-_]", code)[0].lower()):
        if candidate in LANGUAGES:
            return candidate
    return DEFAULT


class GameLang(str):
    """A reader's language inside one game: its words are the reader's (this str), while what
    the game shows everyone alike (its cards' labels and faces, its AI seats' names) is in the
    game's language, `game`, so a card or a bot reads the same on the table and in every hand."""

    game: str

    def __new__(cls, words: str, game: str) -> GameLang:
        lang = super().__new__(cls, words)
        lang.game = game
        return lang


def game_of(lang: str) -> str:
    """The language a game's cards and AI seats read in: the game's, else the reader's."""
    return lang.game if isinstance(lang, GameLang) else lang


def key_of(message: Message) -> str:
    key = message.id  # a plural message's id is (singular, plural)
    return key if isinstance(key, str) else key[0]


def catalog_files(lang: str) -> list[Path]:
    return sorted((LOCALES / lang / "LC_MESSAGES").glob("*.po"))


def read_file(path: Path, lang: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain="messages")


def read_catalog(lang: str) -> Catalog:
    """A language's catalog as written (all its files), untranslated and fuzzy entries
    included. A key in two files is a mistake: the catalogs would disagree on which wins."""
    files = catalog_files(lang)
    merged = read_file(files[0], lang)
    for path in files[1:]:
        for message in read_file(path, lang):
            if not message.id:
                continue
            if message.id in merged:
                raise ValueError(f"{path}: {key_of(message)!r} is also in another {lang} file")
            merged[message.id] = message
    return merged


def translated(message: Message) -> bool:
    string = message.string
    # read_po gives a plural message a tuple of forms and a singular one a str.
    forms = string if isinstance(string, (list, tuple)) else [string]
    return not message.fuzzy and all(forms)


@cache
def _load(lang: str) -> tuple[Translations, dict[str, bool]]:
    """The compiled catalog and its keys (key -> is plural). Compiled in memory, so there is
    no build step. A fresh Catalog takes its plural rule from Babel's data for `lang`, not
    from the file's header; incomplete entries are left out, so they fall back to English."""
    catalog = Catalog(locale=lang, domain="messages")
    for message in read_catalog(lang):
        if message.id and translated(message):
            catalog[message.id] = message
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    plural = {key_of(m): m.pluralizable for m in catalog if m.id}
    return Translations(buffer, domain="messages"), plural


def _find(lang: str, key: str, n: int | None = None) -> str | None:
    translations, plural = _load(lang)
    if plural.get(key) is not (n is not None):  # missing, or plural asked as singular
        return None
    return translations.ngettext(key, key, n) if n is not None else translations.gettext(key)


def lookup(lang: str, key: str) -> str | None:
    """A singular message in exactly this language, or None: no fallback."""
    return _find(language_of(lang), key)


def _render(lang: str, key: str, n: int | None, values: dict[str, Any]) -> str:
    lang = language_of(lang)
    text = _find(lang, key, n)
    if text is None and lang != DEFAULT:
        text = _find(DEFAULT, key, n)
    if text is None:
        log.warning("message %r is missing from the %s catalog and from English", key, lang)
        return key
    return text.format(**values)


def t(lang: str, key: str, **values: Any) -> str:
    """The message `key` in `lang` (falling back to English), filled in with `values`."""
    return _render(lang, key, None, values)


def tn(lang: str, key: str, n: int, **values: Any) -> str:
    """The plural message `key` in the form for `n`; `{n}` is available in the text."""
    return _render(lang, key, n, {**values, "n": n})
