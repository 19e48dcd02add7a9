"""The settings panel of `/steal-admin settings`: its topic menu, toggles and selects. A click
is no command, so the cog's check never sees it: admin.py registers these handlers behind
the same check (admin_common.is_admin)."""

from __future__ import annotations

from typing import Any, cast

import discord

from bot.adapter.interactions import guild_of, tell, update
from bot.adapter.language import user_lang
from bot.domain.server_settings import Setting
from bot.engine import PRESETS
from bot.i18n import t
from bot.ui.admin import (
    TOPIC_KEYS,
    channel_list,
    effective,
    select_values,
    settings_panel,
    switch_keys,
    topic_of,
    value_words,
)

from . import _common as common
from ._common import Common


def picked_role(interaction: discord.Interaction, values: list[Any]) -> tuple[bool, int | None]:
    """Whether the pick is none or one of this server's roles, and the role (None: none)."""
    if not values:
        return True, None
    guild = interaction.guild
    role_id = getattr(values[0], "id", None)
    if len(values) != 1 or guild is None or not isinstance(role_id, int):
        return False, None
    return guild.get_role(role_id) is not None, role_id


def _new(spec: Setting, on: bool, current: Any) -> bool | None:
    """An on/off value to store: None (follow the preset) when it is what the preset says,
    so a change of preset carries it along."""
    if spec.follows_preset and getattr(PRESETS[current["preset"]], spec.key) == on:
        return None
    return on


class Panel:
    def __init__(self, common: Common) -> None:
        self.common = common

    async def refresh(
        self, interaction: discord.Interaction, topic: str, note: str | None = None
    ) -> None:
        current = await self.common.current(interaction)
        lang = user_lang(interaction)
        panel = settings_panel(self.common.specs, current, lang, topic, note)
        await update(interaction, **panel.kwargs())

    async def on_topic(self, interaction: discord.Interaction, values: list[str]) -> None:
        topic = values[0] if len(values) == 1 and values[0] in TOPIC_KEYS else "rules"
        await self.refresh(interaction, topic)

    async def on_pick(self, interaction: discord.Interaction, key: str, values: list[Any]) -> None:
        """A select's values are untrusted: only what the panel offered passes."""
        lang = user_lang(interaction)
        if key == "channels":
            await self.pick_channels(interaction, values)
            return
        spec = self.common.specs[key]
        if spec.kind == "role":
            ok, new = picked_role(interaction, values)
        else:
            ok = len(values) == 1 and values[0] in select_values(spec)
            new = spec.parse(values[0]) if ok else None
        if not ok:
            await tell(interaction, t(lang, "panel.bad_value"))
            return
        await self.panel_change(interaction, spec, new)

    async def on_toggle(self, interaction: discord.Interaction, key: str, on: bool) -> None:
        """A toggle button of a panel from before the on/off menus: it still sets its setting."""
        spec = self.common.specs[key]
        await self.panel_change(
            interaction, spec, _new(spec, on, await self.common.current(interaction))
        )

    async def on_switches(
        self, interaction: discord.Interaction, topic: str, values: list[str]
    ) -> None:
        """The topic's on/off menu: the picked settings on, the others off. Untrusted: only the
        topic's own on/off settings pass."""
        lang = user_lang(interaction)
        specs = self.common.specs
        keys = switch_keys(topic, specs)
        if not keys or not set(values) <= set(keys):
            await tell(interaction, t(lang, "panel.bad_value"))
            return
        current = await self.common.current(interaction)
        notes = []
        for key in keys:
            spec, on = specs[key], key in values
            if effective(spec, current) == on:
                continue
            notes.append(await self._set(interaction, spec, current[key], _new(spec, on, current)))
        await self.refresh(interaction, topic, "✅ " + " ".join(notes) if notes else None)

    async def _set(
        self, interaction: discord.Interaction, spec: Setting, old: object, new: object
    ) -> str:
        """Store a setting changed in the panel and log it; what the panel then says of it."""
        lang = user_lang(interaction)
        key = spec.key
        await self.common.sessions.records.set_setting(guild_of(interaction), key, new)
        common.changed(interaction, f"set {key} to {spec.show(new)} (was {spec.show(old)}) by menu")
        # "From the next lobby" is the panel's intro already; a role applies at once.
        when = t(lang, "admin.applies_now") if key in ("manager_role", "season_length") else ""
        return t(lang, "panel.set_done", setting=spec.label(lang),
                 value=value_words(lang, spec, new), old=value_words(lang, spec, old),
                 when=when).strip()  # fmt: skip

    async def panel_change(
        self, interaction: discord.Interaction, spec: Setting, new: object
    ) -> None:
        old = (await self.common.current(interaction))[spec.key]
        note = await self._set(interaction, spec, old, new)
        await self.refresh(interaction, topic_of(spec.key), f"✅ {note}")

    async def pick_channels(self, interaction: discord.Interaction, values: list[Any]) -> None:
        lang = user_lang(interaction)
        guild = interaction.guild
        picked = [getattr(v, "id", None) for v in values]
        if guild is None or any(
            not isinstance(c, int) or guild.get_channel_or_thread(c) is None for c in picked
        ):
            await tell(interaction, t(lang, "panel.bad_value"))
            return
        allowed = list(dict.fromkeys(cast(list[int], picked)))[: common.MAX_CHANNELS]
        old = (await self.common.current(interaction))["channels"]
        await self.common.set_channels(interaction, allowed)
        common.changed(interaction, f"allowed games in channels {allowed} (was {old}) by menu")
        removed = set(old) - set(allowed)
        games_there = any(self.common.sessions.live_in(c) is not None for c in removed)
        key = "admin.channels.now_carry_on" if games_there else "admin.channels.now"
        note = t(lang, key, channels=channel_list(lang, allowed))
        await self.refresh(interaction, "channels", f"✅ {note}")
