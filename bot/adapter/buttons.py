"""The button and select families, one DynamicItem class per custom_id template, as in
discord.py's examples/views/dynamic_counter.py; made from the templates in bot/ui/ids.py, so a
new family is one template and one handler.

discord.py routes a click to the family whose template matches the whole custom_id and builds
it from the named groups (`ids.action_of`: typed fields); its callback hands the action to the
dispatch it was made with (`families`: the Registry makes them, bot/adapter/registry.py, and
the client adds those). An id no family matches is answered once, politely, by the Steal cog's
`on_interaction`.

The ui draws plain buttons; `dynamic` turns each into its family's item when a message is sent
and marks the view done, so discord.py keeps no per-message view (nor registers the sent
items' classes over the registry's) and a click works the same after a restart."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Self

import discord
from discord.ui import Button, DynamicItem
from discord.ui.select import BaseSelect

from bot.ui import ids

Dispatch = Callable[[discord.Interaction, ids.Action], Awaitable[None]]
Item = Button[discord.ui.View]
Menu = BaseSelect[discord.ui.LayoutView]
# The families whose items are selects (their picked values ride along, untrusted).
SELECT_KINDS = frozenset({"setting", "topics", "switches", "pick"})


class Family(DynamicItem[Item], template=r"(?!)"):
    """A family of buttons. Its own template matches nothing: only the families made from
    ids.TEMPLATES below are registered."""

    kind: ClassVar[str] = ""
    # The registry's dispatch, given when the family is made (`families`); the families
    # `dynamic` sends with have none: a sent view is never kept, so they are never called.
    dispatch: ClassVar[Dispatch | None] = None

    def __init__(self, item: Item, action: ids.Action) -> None:
        super().__init__(item)
        self.action = action

    @classmethod
    def of(cls, item: Item, match: re.Match[str]) -> Self:
        return cls(item, ids.action_of(cls.kind, match))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        assert isinstance(item, Button)  # the templates match only our buttons' ids
        return cls.of(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(type(self).dispatch, interaction, self.action)


class SelectFamily(DynamicItem[Menu], template=r"(?!)"):
    """A family of selects: as Family, with the values picked."""

    kind: ClassVar[str] = ""
    dispatch: ClassVar[Dispatch | None] = None  # as Family's

    def __init__(self, item: Menu, action: ids.Action) -> None:
        super().__init__(item)
        self.action = action

    @classmethod
    def of(cls, item: Menu, match: re.Match[str]) -> Self:
        return cls(item, ids.action_of(cls.kind, match))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        assert isinstance(item, BaseSelect)  # the templates match only our selects' ids
        return cls.of(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        picked = tuple(self.item.values)
        action = dataclasses.replace(self.action, values=picked)
        await _dispatch(type(self).dispatch, interaction, action)


async def _dispatch(
    dispatch: Dispatch | None, interaction: discord.Interaction, action: ids.Action
) -> None:
    if dispatch is None:
        raise RuntimeError(f"a {action.kind} item made without its dispatch was clicked")
    await dispatch(interaction, action)


def _family(kind: str, dispatch: Dispatch | None = None) -> type[Family] | type[SelectFamily]:
    base: type[Family] | type[SelectFamily] = SelectFamily if kind in SELECT_KINDS else Family
    name = "".join(part.title() for part in kind.split("_")) + base.__name__
    made = {"kind": kind, "dispatch": None if dispatch is None else staticmethod(dispatch)}
    return type(name, (base,), made, template=ids.TEMPLATES[kind])


def families(dispatch: Dispatch) -> tuple[type[Family] | type[SelectFamily], ...]:
    """A family per template, each answering its clicks through `dispatch`."""
    return tuple(_family(kind, dispatch) for kind in ids.TEMPLATES)


# The families messages are sent with: the parsing of `ids`, no dispatch (see Family).
SHOWN: tuple[type[Family] | type[SelectFamily], ...] = tuple(map(_family, ids.TEMPLATES))
_BY_KIND = {family.kind: family for family in SHOWN}


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
        _done(view)
        return fields
    made = discord.ui.View(timeout=None)
    for item in view.children:
        made.add_item(routed(item))
    _done(made)
    return {**fields, "view": made}


def _done(view: discord.ui.View | discord.ui.LayoutView) -> None:
    """Mark a view to be sent as finished: discord.py then keeps no view of it, so it never
    registers its items' classes (made without a dispatch) in place of the registry's."""
    view.stop()
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # not being sent (a test's view, off the loop)
        return
    if not view.is_finished():
        # Made off the event loop (a picture's message, drawn in a thread): discord.py gave
        # it no future to stop, so it is given a finished one.
        stopped = loop.create_future()
        stopped.set_result(False)
        view._BaseView__stopped = stopped  # type: ignore[union-attr]


def routed(item: discord.ui.Item[Any]) -> discord.ui.Item[Any]:
    """A button or select as its family's item; any other item (a link button) as it is."""
    if not isinstance(item, Button | BaseSelect) or not item.custom_id:
        return item
    action = ids.parse(item.custom_id)
    if action is None:
        return item
    family = _BY_KIND[action.kind]
    if isinstance(item, Button) and issubclass(family, Family):
        return family(item, action)
    if isinstance(item, BaseSelect) and issubclass(family, SelectFamily):
        return family(item, action)
    return item
