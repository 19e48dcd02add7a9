"""The registry makes the button families with its own dispatch (nothing looks the bot up),
and a sent view is marked done so discord.py never registers the sent items' classes."""

from __future__ import annotations

import asyncio
import re

import discord

from bot.adapter.buttons import as_sent
from bot.adapter.registry import Registry
from bot.ui import ids
from bot.ui.widgets import button, view_of


class Click:
    guild_id = 1


def test_each_registry_makes_families_that_dispatch_to_it():
    answered: list[tuple[str, str]] = []

    def registry(name: str) -> Registry:
        async def answer(interaction, work):
            answered.append((name, "answered"))
            await work

        made = Registry(lambda game_id: None, answer, cooldowns=False)

        async def handler(interaction, action):
            answered.append((name, action.op))

        made.register({"lobby": handler})
        return made

    first, second = registry("first"), registry("second")
    assert [f.kind for f in first.families] == list(ids.TEMPLATES)
    family = next(f for f in second.families if f.kind == "lobby")
    custom_id = ids.lobby("join", 5)
    match = re.fullmatch(family.__discord_ui_compiled_template__, custom_id)
    assert match is not None
    item = family.of(discord.ui.Button(custom_id=custom_id), match)
    asyncio.run(item.callback(Click()))
    assert answered == [("second", "answered"), ("second", "join")]
    first.unregister(["lobby"])


async def test_a_sent_view_is_done_so_it_is_never_kept():
    sent = as_sent({"view": view_of(button(ids.lobby("join", 5), "Join"))})["view"]
    assert sent.is_finished()
    [item] = sent.children
    assert isinstance(item, discord.ui.Button) and item.custom_id == "stb:lobby:join:5"


async def test_a_layout_made_off_the_loop_is_done_when_sent():
    """A picture's message (a replay's step) is drawn in a thread: discord.py gives its view
    no future to stop, and it is finished all the same."""

    def layout() -> discord.ui.LayoutView:
        made = discord.ui.LayoutView(timeout=None)
        made.add_item(discord.ui.ActionRow(button(ids.replay(5, 1, "next"), "Next")))
        return made

    made = await asyncio.to_thread(layout)
    made.stop()
    assert not made.is_finished()  # what discord.py alone leaves
    assert as_sent({"view": made})["view"].is_finished()
