from __future__ import annotations

import enum

from tests.support.quick_copy import deepcopy


class Kind(enum.IntEnum):
    BUTTON = 2


def test_json_data_is_copied_whole_and_apart():
    payload = {"components": [{"type": 1, "components": [{"type": 2, "label": "A♠"}]}],
               "flags": 32768, "ok": True, "none": None, "ratio": 1.5}  # fmt: skip
    copied = deepcopy(payload)
    assert copied == payload
    copied["components"][0]["components"][0]["label"] = "changed"
    assert payload["components"][0]["components"][0]["label"] == "A♠"


def test_anything_else_is_copied_as_copy_deepcopy_does():
    payload = {"type": Kind.BUTTON, "rows": [Kind.BUTTON]}
    copied = deepcopy(payload)
    assert copied == payload and copied["rows"] is not payload["rows"]
    assert type(copied["type"]) is Kind  # not flattened to a plain int
