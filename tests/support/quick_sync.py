"""Each command's translated payload worked out once a process, not at each bot's sync.

Every test bot syncs its commands at start-up (so messages name them as mentions), and
discord.py asks the translator for every string in each of Discord's 31 locales: some 7,400
calls, about a sixth of a test bot's start-up CPU. The payload depends only on the command as
declared, so it is remembered by the command's untranslated payload: a command declared
differently gets its own. Only the bot's own translator is remembered; any other (a test's
recording one) is asked every time. Each caller gets a copy. tests/support/test_quick_sync.py
pins it against the real thing.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from discord import app_commands

from bot.i18n.commands import CommandTranslator
from tests.support.quick_copy import deepcopy

_KINDS = (app_commands.Command, app_commands.Group, app_commands.ContextMenu)


@contextlib.contextmanager
def remembered_payloads() -> Iterator[dict[tuple[Any, ...], dict[str, Any]]]:
    """While open, each kind's get_translated_payload is remembered; yields the memo."""
    memo: dict[tuple[Any, ...], dict[str, Any]] = {}
    with pytest.MonkeyPatch.context() as patch:
        for kind in _KINDS:
            patch.setattr(kind, "get_translated_payload", _remembering(kind, memo))
        yield memo


def _remembering(kind: type, memo: dict[tuple[Any, ...], dict[str, Any]]):
    real = kind.get_translated_payload

    async def get_translated_payload(self, tree, translator):
        if type(translator) is not CommandTranslator:
            return await real(self, tree, translator)
        key = (kind, json.dumps(self.to_dict(tree), sort_keys=True))
        if key not in memo:
            memo[key] = await real(self, tree, translator)
        return deepcopy(memo[key])

    return get_translated_payload
