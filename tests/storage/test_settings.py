import pytest

from bot.storage import Storage, UnknownSetting

DEFAULTS = {"turn_seconds": 120, "preset": "standard", "roles": [], "pings": True}


async def test_settings_read_as_defaults_until_set_and_reset(database):
    storage = await Storage.open(database, setting_defaults=DEFAULTS)
    try:
        fresh = await storage.settings.get(1)
        assert fresh.values == DEFAULTS and fresh.changed == frozenset()
        await storage.settings.set(1, "turn_seconds", 30)
        await storage.settings.set(1, "roles", [{"id": 5, "name": "é"}])
        await storage.settings.set(1, "turn_seconds", 45)  # set again: replaced
        await storage.settings.set(2, "pings", False)
        got = await storage.settings.get(1)
        assert got["turn_seconds"] == 45 and got["roles"] == [{"id": 5, "name": "é"}]
        assert got.changed == {"turn_seconds", "roles"}
        assert (await storage.settings.get(2)).values == {**DEFAULTS, "pings": False}
    finally:
        await storage.close()

    storage = await Storage.open(database, setting_defaults=DEFAULTS)
    try:
        assert (await storage.settings.get(1))["turn_seconds"] == 45  # kept across a restart
        await storage.settings.reset(1, "turn_seconds")
        got = await storage.settings.get(1)
        assert got["turn_seconds"] == 120 and got.changed == {"roles"}
        await storage.settings.reset(1)
        assert (await storage.settings.get(1)).values == DEFAULTS
        assert (await storage.settings.get(2))["pings"] is False  # other guilds untouched
    finally:
        await storage.close()


async def test_unknown_settings_are_refused(storage):
    with pytest.raises(UnknownSetting, match="preset, turn_seconds"):
        await storage.settings.set(1, "turn_secs", 5)
    with pytest.raises(UnknownSetting):
        await storage.settings.reset(1, "nope")


async def test_a_setting_dropped_from_the_defaults_is_ignored(database):
    storage = await Storage.open(database, setting_defaults={"old": 1, "kept": 2})
    await storage.settings.set(1, "old", 5)
    await storage.close()
    storage = await Storage.open(database, setting_defaults={"kept": 2})
    try:
        assert (await storage.settings.get(1)).values == {"kept": 2}
    finally:
        await storage.close()
