"""Slash command localizations: a discord.py `app_commands.Translator` over the catalogs.

Install it once, before syncing: ``await bot.tree.set_translator(CommandTranslator())``.

Each string discord.py asks about gets a catalog key from where it sits, with the command's
qualified name written with dots (``/steal new`` -> ``steal.new``):

- command or group name / description: ``cmd.<path>.name`` / ``cmd.<path>.description``
  (``cmd.steal.name``, ``cmd.steal.new.description``);
- option name / description: ``cmd.<path>.<option>.name`` / ``.description``
  (``cmd.steal.new.rules.name``);
- choice name: ``choice.<English name, lowercase, spaces as _>`` (``choice.games_won``); a
  choice has no link to its option, so equal choice names share one translation.

English locales (en-US, en-GB) get None: Discord shows the commands as written in the code,
which the ``en`` catalog mirrors. A key missing from the target language also gives None, and
Discord then falls back to the English text.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache
from typing import Any

from discord import Locale, app_commands
from discord.app_commands import Command, ContextMenu, Group, TranslationContextTypes
from discord.app_commands import TranslationContextLocation as Where

from . import DEFAULT, LANGUAGES, catalog_files, language_of, lookup

_NAMES = (Where.command_name, Where.group_name, Where.parameter_name)
_DESCRIPTIONS = (Where.command_description, Where.group_description, Where.parameter_description)


def _path(command: Command[Any, ..., Any] | ContextMenu | Group) -> str:
    return command.qualified_name.replace(" ", ".")


def key_of(string: app_commands.locale_str, context: TranslationContextTypes) -> str | None:
    """The catalog key of a command string, or None for a string this bot does not localize."""
    # Tested on context.location itself, not a copy: that tells the type checker what data is.
    if context.location is Where.choice_name:
        return "choice." + string.message.lower().replace(" ", "_")
    if context.location in (Where.parameter_name, Where.parameter_description):
        path = f"{_path(context.data.command)}.{context.data.display_name}"
    elif context.location is Where.other:
        return None
    else:  # a command's, context menu's or group's name or description
        path = _path(context.data)
    return f"cmd.{path}.{'name' if context.location in _NAMES else 'description'}"


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: TranslationContextTypes,
    ) -> str | None:
        lang = language_of(locale)
        if lang == DEFAULT:  # most of Discord's locales: asked first, it is the cheap test
            return None
        key = key_of(string, context)
        return None if key is None else lookup(lang, key)


# A top-level command's name -> its id on Discord, once the client knows it (after its sync or
# fetch at start-up). One application per process, so one map.
_IDS: dict[str, int] = {}


def remember_commands(commands: Iterable[app_commands.AppCommand]) -> None:
    """The commands as Discord has them: their ids make `named` give mentions."""
    _IDS.clear()
    _IDS.update({c.name: c.id for c in commands})


def named(lang: str, path: str) -> str:
    """A command as a message names it (`path`: "steal rules", "steal-admin set"). A mention
    (</steal rules:ID>) once the ids are known: Discord shows it in each reader's own
    language, as they would type it, and runs it when clicked, so a message read by members
    with clients in different languages names it right for each. Until then, the name in
    `lang`, as a reader with a client in that language types it (`/ruba regole`)."""
    parts = path.split()
    command_id = _IDS.get(parts[0])
    if command_id is not None:
        return f"</{path}:{command_id}>"
    words = [lookup(lang, f"cmd.{'.'.join(parts[: i + 1])}.name") or p for i, p in enumerate(parts)]
    return f"`/{' '.join(words)}`"


def sync_fingerprint(guild: int | None, payload: list[dict[str, Any]]) -> str:
    """A command sync's payload as one hash: the commands untranslated (`payload`) and the
    catalogs that translate them. It stands for the translated payload, which the sync itself
    makes (translating every command into every locale, twice a start, cost each test bot
    some 10 ms)."""
    words = json.dumps([guild, payload, _catalogs()], sort_keys=True)
    return hashlib.sha256(words.encode()).hexdigest()


@cache
def _catalogs() -> str:
    """The catalogs' contents, hashed once a process: they do not change under it."""
    digest = hashlib.sha256()
    for lang in LANGUAGES:
        for path in catalog_files(lang):
            digest.update(f"{lang}/{path.name}".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
