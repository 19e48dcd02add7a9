"""A deep copy of JSON data at C speed, for SimCord's copies of every payload.

SimCord deep-copies each payload it passes on (an HTTP request's log entry, a gateway event, a
message's components for the test to read): `copy.deepcopy`, in Python, was 10% of a cProfile
of tests/e2e/play (which weighs its many small calls heavily: in plain runs side by side the
gain was within the machine's noise). `marshal` copies the same data (dicts, lists, strings,
numbers, booleans, None) some 8 times faster, and refuses anything else, even a subclass of
str or int (an enum): that is copied by `copy.deepcopy`, as before. Interaction payloads carry
SimCord's enums (`InteractionType`), so in tests/e2e most calls (14,231 of 19,850) still take
that path. tests/support/test_quick_copy.py pins both.
"""

from __future__ import annotations

import copy
import marshal
from types import SimpleNamespace
from typing import Any, TypeVar

T = TypeVar("T")


def deepcopy(value: T, memo: dict[int, Any] | None = None) -> T:
    if memo is None:
        try:
            copied: T = marshal.loads(marshal.dumps(value))
            return copied
        except ValueError:  # "unmarshallable object": not plain JSON data
            pass
    return copy.deepcopy(value, memo)


# For modules that call `copy.deepcopy(...)`.
as_copy_module = SimpleNamespace(deepcopy=deepcopy)
