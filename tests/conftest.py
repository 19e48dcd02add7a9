"""Suite-wide fixtures that only make the tests faster; what a test asserts is not changed.

- No fsync in the tests' databases. Storage.open defaults to durable=False here, so a commit
  does not wait for the disk (thousands of fsyncs a run; much slower still when the machine's
  disk is busy). Each test's database is a throwaway file in tmp_path, and a killed process
  still loses nothing committed. Tests about durability run with the real setting: mark them
  `@pytest.mark.durable` (tests/storage/test_crash.py is; its writer subprocess opens the
  database as the bot does anyway). STEAL_TESTS_DURABLE=1 runs every test with the real
  setting. Subprocesses (the bot, the playground, the benches) always use the real setting.

- No migrations run for each test's fresh database. Each worker migrates one template per
  backend (Storage.open itself): a new SQLite file starts as a copy of it, and the `database`
  fixture's PostgreSQL schema is made by one script, pg_dump's of the template schema. About
  0.2 s of CPU less a test. Tests that make or upgrade a schema are marked `fresh_schema` and
  get the real thing, as `durable` tests do; STEAL_TESTS_FRESH_SCHEMA=1 gives it to every
  test (tests/support/templates.py).

- SimCord looks again sooner while it settles. After each action SimCord waits until every
  task of the bot is done or parked (on a timer only advance_time fires). When the tasks left
  are all parked but a callback is still queued (a finished task's done-callbacks, a task not
  started yet), it waits on those tasks for `idle` seconds (0.05 by default) before it looks
  again, and parked tasks do not finish: about 50 ms of waiting a click, more than half of
  the suite's time. Looking again after 2 ms changes nothing of what settling means (it
  still ends only when everything is done or parked, and fails at the same timeout); it
  only notices sooner. `_settle_internal` is SimCord's own (3.2); should it lose its `idle`
  keyword, the patch is skipped and the tests only run slower.

- SimCord copies payloads with marshal (tests/support/quick_copy.py): the same copies of the
  same JSON data, 8 times faster than `copy.deepcopy` (10% of a profile of the e2e tests).

- Each command's translated payload is worked out once a process, not at every test bot's
  sync (tests/support/quick_sync.py): a sixth of a test bot's start-up in a profile.
"""

from __future__ import annotations

import functools
import gc
import inspect
import os

import pytest
import simcord.components
import simcord.gateway
import simcord.http.router
import simcord.results
from simcord.env import Env

from bot.i18n.commands import remember_commands
from bot.storage import Storage
from tests.support import backends, quick_copy, quick_sync, templates

SETTLE_POLL = 0.002  # seconds; SimCord's default is 0.05


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "durable: open storage as the bot does (fsync at each commit)"
    )
    config.addinivalue_line(
        "markers", "fresh_schema: a fresh database is migrated from nothing, no template"
    )
    config.addinivalue_line("markers", "slow: takes seconds (a subprocess, matches); runs first")
    config.addinivalue_line("markers", "bot_options(**options): StealBot options (tests/e2e)")


_real_open = Storage.open


def fresh_schema(request: pytest.FixtureRequest) -> bool:
    """The test makes or upgrades a schema itself, or opens storage as the bot does: no
    template (tests/support/templates.py)."""
    marked = request.node.get_closest_marker
    return not templates.wanted() or bool(marked("fresh_schema") or marked("durable"))


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory):
    """This worker's migrated SQLite file (tests/support/templates.py)."""
    path = tmp_path_factory.mktemp("template") / "steal.db"
    return backends.run(templates.make_sqlite(path))


@pytest.fixture(autouse=True)
def quick_storage_open(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """Storage.open without fsync, and on a new SQLite file from the template."""
    durable = os.environ.get("STEAL_TESTS_DURABLE") or request.node.get_closest_marker("durable")
    template = None if fresh_schema(request) else request.getfixturevalue("sqlite_template")
    if durable and template is None:
        return

    async def open_quickly(path, **options):
        if not durable:
            options.setdefault("durable", False)
        if template is not None:
            templates.copy_if_new(path, template)
        return await _real_open(path, **options)

    monkeypatch.setattr(Storage, "open", staticmethod(open_quickly))


@pytest.fixture(autouse=True)
def commands_unknown():
    """Each test starts with no command ids known (a bot's start-up learns them), so what a
    message names a command as does not depend on which test ran before in the process."""
    remember_commands([])


@pytest.fixture(autouse=True, scope="session")
def simcord_settles_sooner():
    real = Env._settle_internal
    if "idle" not in inspect.signature(real).parameters:
        yield
        return

    @functools.wraps(real)
    async def settle(self, *args, idle: float = SETTLE_POLL, **kwargs):
        return await real(self, *args, idle=idle, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Env, "_settle_internal", settle)
        yield


@pytest.fixture(autouse=True, scope="session")
def simcord_copies_quickly():
    with pytest.MonkeyPatch.context() as patch:
        for module in (simcord.components, simcord.results):
            patch.setattr(module, "deepcopy", quick_copy.deepcopy)
        for module in (simcord.gateway, simcord.http.router):
            patch.setattr(module, "copy", quick_copy.as_copy_module)
        yield


@pytest.fixture(autouse=True, scope="session")
def commands_translated_once():
    with quick_sync.remembered_payloads():
        yield


@pytest.fixture(scope="session")
def postgres_templates():
    """This worker's migrated PostgreSQL template and the schemas made from it."""
    made = templates.Postgres()
    yield made
    made.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path):
    """A fresh database on each backend: a SQLite file path, or a PostgreSQL URL with a
    schema of its own, made from the worker's migrated template (migrated itself for a test
    marked fresh_schema): tests/support/backends.py, tests/support/templates.py."""
    if request.param == "sqlite":
        yield str(tmp_path / "data" / "steal.db")
        return
    backends.require_postgres()
    made = None if fresh_schema(request) else request.getfixturevalue("postgres_templates")
    own = made.new() if made is not None else None
    if made is not None and own is not None:
        url, name = own
        try:
            yield url
        finally:
            made.drop(name)
        return
    url, schema = backends.new_schema_url()
    try:
        yield url
    finally:
        backends.drop_schema(schema)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Once a run, in the process that ran it or started its workers: the server's catalogs
    vacuumed, so the next run is not slower for this one (tests/support/backends.py)."""
    if not hasattr(session.config, "workerinput"):
        from tests.support import backends

        backends.vacuum_catalogs()


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """One line when the PostgreSQL half was skipped, instead of a reason per test."""
    skipped = [
        r for r in terminalreporter.stats.get("skipped", [])
        if backends.SKIP_REASON in str(getattr(r, "longrepr", ""))
    ]  # fmt: skip
    if skipped:
        why = str(skipped[0].longrepr[2]) if isinstance(skipped[0].longrepr, tuple) else ""
        why = why.removeprefix("Skipped: ")
        terminalreporter.write_line(f"{len(skipped)} PostgreSQL tests skipped: {why}")


# Tests that take seconds of their own, by node id prefix (the slowest of a full run's
# --durations): subprocesses (the bot, the playground, pytest, the benches), Chromium, whole
# games on two processes. Kept here, not as marks in each file, so one list orders them.
SLOW = (
    "tests/bench/",
    "tests/support/test_backends.py",
    "tests/test_playground.py",
    "tests/test_playground_live.py",
    "tests/test_main.py",
    "tests/storage/test_lock.py",
    "tests/storage/test_upgrade.py",
    "tests/storage/test_crash.py",
    "tests/storage/test_concurrency.py",
    "tests/ui/test_picture.py::test_render_bench_runs",
    "tests/e2e/app/test_loading.py",
    "tests/e2e/app/test_processes.py",
    "tests/e2e/privacy/",
    "tests/e2e/tournament/test_tournament.py",
    "tests/engine/test_properties.py",
)


def cost(item: pytest.Item) -> int:
    """0 for a slow test, 1 for one on PostgreSQL (a schema of its own, migrated: about a second
    of set-up), 2 for the rest."""
    if item.get_closest_marker("slow") or item.nodeid.startswith(SLOW):
        return 0
    return 1 if "postgresql" in item.nodeid else 2


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slow tests first, then PostgreSQL's (the order is otherwise kept), dealt out among the
    workers: `--dist worksteal` hands each worker one contiguous share of the list, and an idle
    one steals from the end of another's. Each share then starts with its part of the slow
    tests and ends with quick ones, so no worker is left alone with a slow test at the end."""
    items.sort(key=cost)
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    if workers > 1:
        items[:] = [item for share in range(workers) for item in items[share::workers]]


def pytest_collection_finish(session: pytest.Session) -> None:
    """What imports and collection made (modules, test items) lives for the whole run: frozen,
    the cyclic garbage collector's full passes need not walk it again, as the bot does after
    start-up (bot/client.py). tests/e2e/play on 2 workers: 63.5 s of CPU against 66.8 s."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook; a run with -p no:xdist has none
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: a worker more than the cores. Some tests mostly wait (the playground's paced
    AI seats, subprocesses starting, PostgreSQL): meanwhile the other workers keep the cores
    busy."""
    return len(os.sched_getaffinity(0)) + 1
