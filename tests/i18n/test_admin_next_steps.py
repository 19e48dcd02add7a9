"""Every admin refusal says what to do next, in every language: a second sentence after what
went wrong (the SimCord tests in tests/e2e/admin/ read the English ones whole)."""

import re

import pytest

from bot.i18n import LANGUAGES, t, tn

REFUSALS = (
    "admin.refused",
    "admin.channels.not_listed",
    "admin.end.nothing",
    "admin.end.gone",
    "admin.export.too_large",
)
COUNTED = ("admin.expired", "admin.channels.full")
SENTENCE_END = re.compile(r"[.!?)](\s|$)")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_admin_refusal_has_a_next_step(lang):
    texts = [t(lang, key, channel="#games") for key in REFUSALS]
    texts += [tn(lang, key, n) for key in COUNTED for n in (1, 5)]
    for text in texts:
        sentences = [s for s in SENTENCE_END.split(text) if s.strip()]
        assert len(sentences) >= 2, text
