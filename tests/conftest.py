"""Suite-wide fixtures that only make the tests faster; what a test asserts is not changed.

- No fsync in the tests' databases. Storage.open defaults to durable=False here, so a commit
  does not wait for the disk (thousands of fsyncs a run; much slower still when the machine's
  disk is busy). Each test's database is a throwaway file in tmp_path, and a killed process
  still loses nothing committed. Tests about durability run with the real setting: mark them
  `@pytest.mark.durable` (tests/storage/test_crash.py is; its writer subprocess opens the
  database as the bot does anyway). STEAL_TESTS_DURABLE=1 runs every test with the real
  setting. Subprocesses (the bot, the playground, the benches) always use the real setting.
"""

from __future__ import annotations

import os

import pytest

from bot.storage import Storage


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "durable: open storage as the bot does (fsync at each commit)"
    )


_real_open = Storage.open


@pytest.fixture(autouse=True)
def storage_without_fsync(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    if os.environ.get("STEAL_TESTS_DURABLE") or request.node.get_closest_marker("durable"):
        return

    async def open_without_fsync(path, **options):
        options.setdefault("durable", False)
        return await _real_open(path, **options)

    monkeypatch.setattr(Storage, "open", staticmethod(open_without_fsync))
