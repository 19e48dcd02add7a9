"""One DynamicItem class per button family, as in discord.py's examples/views/dynamic_counter.py.

Each family's template is its strict pattern from bot/ui/ids.py; discord.py routes a click to
the family whose template matches the whole custom_id, builds it with `from_custom_id` (typed
fields from the named groups) and calls its `callback`. An id no family matches is answered
once, politely, by the Steal cog's `on_interaction`.

The ui draws plain buttons; `dynamic` turns each into its family's item when a message is sent,
so discord.py keeps no per-message view and a click works the same after a restart.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Self

import discord
from discord.ui import Button, DynamicItem
from discord.ui.select import BaseSelect

from bot.engine import Move
from bot.ui import ids

from . import admin, boards, hands, lobbies, replay, rules, steal
from .common import answer

if TYPE_CHECKING:
    from discord.ext import commands

Item = Button[discord.ui.View]


class Family(DynamicItem[Item], template=r"(?!)"):
    """What the families share: built from the button as drawn (or as clicked), and a
    callback that answers within the 3-second budget, in servers only. Its own template
    matches nothing: only the families below are registered."""

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        assert isinstance(item, Button)  # every family's template matches only our buttons' ids
        return cls.of(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:  # ours live in servers only: on_interaction answers
            return
        await answer(interaction, self.clicked(interaction))

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        raise NotImplementedError


class LobbyButton(Family, template=ids.TEMPLATES["lobby"]):
    def __init__(self, item: Item, op: str, game_id: int) -> None:
        super().__init__(item)
        self.op, self.game_id = op, game_id

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, match["op"], int(match["game"]))

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return lobbies.lobby_op(interaction, self.op, self.game_id)


class TableButton(Family, template=ids.TEMPLATES["table"]):
    def __init__(self, item: Item, op: str, game_id: int) -> None:
        super().__init__(item)
        self.op, self.game_id = op, game_id

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, match["op"], int(match["game"]))

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return hands.table_button(interaction, self.op, self.game_id)


class CardButton(Family, template=ids.TEMPLATES["card"]):
    def __init__(self, item: Item, game_id: int, version: int, card: str) -> None:
        super().__init__(item)
        self.game_id, self.version, self.card = game_id, version, card

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, int(match["game"]), int(match["version"]), match["card"])

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return hands.card(interaction, self.game_id, self.version, self.card)


class MoveButton(Family, template=ids.TEMPLATES["move"]):
    def __init__(self, item: Item, game_id: int, version: int, move: Move) -> None:
        super().__init__(item)
        self.game_id, self.version, self.move = game_id, version, move

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, int(match["game"]), int(match["version"]), ids.move_of(match))

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return hands.move(interaction, self.game_id, self.version, self.move)


class BackButton(Family, template=ids.TEMPLATES["back"]):
    def __init__(self, item: Item, game_id: int, version: int) -> None:
        super().__init__(item)
        self.game_id, self.version = game_id, version

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, int(match["game"]), int(match["version"]))

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return hands.back(interaction, self.game_id, self.version)


class HintButton(Family, template=ids.TEMPLATES["hint"]):
    def __init__(self, item: Item, game_id: int, version: int) -> None:
        super().__init__(item)
        self.game_id, self.version = game_id, version

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, int(match["game"]), int(match["version"]))

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return hands.hint(interaction, self.game_id, self.version)


class ConfirmButton(Family, template=ids.TEMPLATES["confirm"]):
    def __init__(self, item: Item, op: str, game_id: int, yes: bool) -> None:
        super().__init__(item)
        self.op, self.game_id, self.yes = op, game_id, yes

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, match["op"], int(match["game"]), match["answer"] == "yes")

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return steal.confirmed(interaction, self.op, self.game_id, self.yes)


class BoardButton(Family, template=ids.TEMPLATES["board"]):
    def __init__(self, item: Item, sort: str, page: int) -> None:
        super().__init__(item)
        self.sort, self.page = sort, page

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, match["sort"], int(match["page"]))

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return boards.turn_page(interaction, self.sort, self.page)


class RecordButton(Family, template=ids.TEMPLATES["record"]):
    def __init__(self, item: Item, game_id: int) -> None:
        super().__init__(item)
        self.game_id = game_id

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, int(match["game"]))

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return boards.send_record(interaction, self.game_id)


class RematchButton(Family, template=ids.TEMPLATES["rematch"]):
    def __init__(self, item: Item, game_id: int) -> None:
        super().__init__(item)
        self.game_id = game_id

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, int(match["game"]))

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return lobbies.rematch(interaction, self.game_id)


class AdminButton(Family, template=ids.TEMPLATES["admin"]):
    def __init__(self, item: Item, op: str, expires: int, game_id: int, yes: bool) -> None:
        super().__init__(item)
        self.op, self.expires, self.game_id, self.yes = op, expires, game_id, yes

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        yes = match["answer"] == "yes"
        return cls(item, match["op"], int(match["expires"]), int(match["game"]), yes)

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return admin.answered(interaction, self.op, self.expires, self.game_id, self.yes)


FAMILIES: tuple[type[Family], ...] = (
    LobbyButton,
    TableButton,
    CardButton,
    MoveButton,
    BackButton,
    HintButton,
    ConfirmButton,
    BoardButton,
    RecordButton,
    RematchButton,
    AdminButton,
)


def family_of(custom_id: str) -> type[Family] | None:
    for family in FAMILIES:
        if family.__discord_ui_compiled_template__.fullmatch(custom_id):
            return family
    return None


def dynamic(fields: dict[str, Any]) -> dict[str, Any]:
    """Message fields with the view's buttons made into their families' items."""
    view = fields.get("view")
    if view is None:
        return fields
    if isinstance(view, discord.ui.LayoutView):
        # Buttons sit inside rows and sections: each is swapped in its own parent, in place.
        for item in list(view.walk_children()):
            new = routed(item)
            if new is not item:
                parent = item.parent or view
                parent._swap_item(item, new, item.custom_id)  # type: ignore[attr-defined,arg-type]
                new._parent = item.parent
                new._view = view
        return fields
    made = discord.ui.View(timeout=None)
    for item in view.children:
        made.add_item(routed(item))
    return {**fields, "view": made}


def routed(item: discord.ui.Item[Any]) -> discord.ui.Item[Any]:
    """A button or select as its family's item; any other item (a link button) as it is."""
    if isinstance(item, Button) and item.custom_id:
        for family in FAMILIES:
            match = family.__discord_ui_compiled_template__.fullmatch(item.custom_id)
            if match:
                return family.of(item, match)
    if isinstance(item, BaseSelect):
        for select in SELECT_FAMILIES:
            match = select.__discord_ui_compiled_template__.fullmatch(item.custom_id)
            if match:
                return select.of(item, match)
    return item


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*FAMILIES, *SELECT_FAMILIES)


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*FAMILIES, *SELECT_FAMILIES)


# ----- the settings panel and the replay viewer


class ToggleButton(Family, template=ids.TEMPLATES["toggle"]):
    """Sets an on/off setting from the settings panel."""

    def __init__(self, item: Item, key: str, on: bool) -> None:
        super().__init__(item)
        self.key, self.on = key, on

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, match["key"], match["value"] == "on")

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return admin.panel_toggle(interaction, self.key, self.on)


class ReplayButton(Family, template=ids.TEMPLATES["replay"]):
    """Shows a finished game's replay at a step: the game and step are all its state."""

    def __init__(self, item: Item, nav: str, game_id: int, step: int) -> None:
        super().__init__(item)
        self.nav, self.game_id, self.step = nav, game_id, step

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, match["nav"], int(match["game"]), int(match["step"]))

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return replay.clicked(interaction, self.nav, self.game_id, self.step)


Menu = BaseSelect[discord.ui.LayoutView]


class SelectFamily(DynamicItem[Menu], template=r"(?!)"):
    """A family of selects: as Family, with the values picked (untrusted, like the id)."""

    @classmethod
    def of(cls, item: Menu, match: re.Match[str]) -> Self:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        assert isinstance(item, BaseSelect)  # the templates match only our selects' ids
        return cls.of(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:  # ours live in servers only: on_interaction answers
            return
        await answer(interaction, self.picked(interaction, list(self.item.values)))

    def picked(self, interaction: discord.Interaction, values: list[Any]) -> Awaitable[None]:
        raise NotImplementedError


class SettingSelect(SelectFamily, template=ids.TEMPLATES["setting"]):
    """A settings panel menu: a value, a role or channels for one setting."""

    def __init__(self, item: Menu, key: str) -> None:
        super().__init__(item)
        self.key = key

    @classmethod
    def of(cls, item: Menu, match: re.Match[str]) -> Self:
        return cls(item, match["key"])

    def picked(self, interaction: discord.Interaction, values: list[Any]) -> Awaitable[None]:
        return admin.panel_set(interaction, self.key, values)


class TopicSelect(SelectFamily, template=ids.TEMPLATES["topics"]):
    """Which topic's menus the settings panel shows."""

    @classmethod
    def of(cls, item: Menu, match: re.Match[str]) -> Self:
        return cls(item)

    def picked(self, interaction: discord.Interaction, values: list[Any]) -> Awaitable[None]:
        return admin.panel_topic(interaction, [str(v) for v in values])


FAMILIES += (ToggleButton, ReplayButton)


class PickMenu(SelectFamily, template=ids.TEMPLATES["pick"]):
    """A menu of one card's moves, on a hand with too many moves for buttons."""

    def __init__(self, item: Menu, game_id: int, version: int, card: str) -> None:
        super().__init__(item)
        self.game_id, self.version, self.card = game_id, version, card

    @classmethod
    def of(cls, item: Menu, match: re.Match[str]) -> Self:
        return cls(item, int(match["game"]), int(match["version"]), match["card"])

    def picked(self, interaction: discord.Interaction, values: list[Any]) -> Awaitable[None]:
        chosen = ids.choice_of(self.card, str(values[0]) if values else "")
        return hands.picked(interaction, self.game_id, self.version, chosen)


SELECT_FAMILIES: tuple[type[SelectFamily], ...] = (SettingSelect, TopicSelect, PickMenu)


# ----- /steal rules pages (kept at the end of the file: added with the rules pages)


class RulesButton(Family, template=ids.TEMPLATES["rules"]):
    def __init__(self, item: Item, source: str, tab: str) -> None:
        super().__init__(item)
        self.source, self.tab = source, tab

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, match["op"], match["tab"])

    def clicked(self, interaction: discord.Interaction) -> Awaitable[None]:
        return rules.turn(interaction, self.source, self.tab)


FAMILIES += (RulesButton,)
