"""Buttons inside a Components V2 layout, wherever they sit, are their families' buttons, sent
as they are."""

import discord

from bot.adapter.buttons import Family, as_sent, routed
from bot.ui import ids
from bot.ui.render import Message
from bot.ui.widgets import button


async def test_buttons_in_rows_and_sections_are_their_familys_and_sent_as_drawn() -> None:
    layout = discord.ui.LayoutView(timeout=None)
    row = discord.ui.ActionRow(button(ids.lobby("join", 5), "Join"))
    section = discord.ui.Section(
        discord.ui.TextDisplay("lobby"), accessory=button(ids.lobby("leave", 5), "Leave")
    )
    layout.add_item(discord.ui.Container(row, section))
    drawn = layout.to_components()
    buttons = [i for i in layout.walk_children() if isinstance(i, discord.ui.Button)]
    assert as_sent({"view": layout})["view"] is layout and layout.is_finished()
    assert [i for i in layout.walk_children() if isinstance(i, discord.ui.Button)] == buttons
    families = [routed(b) for b in buttons]
    assert all(isinstance(f, Family) and f.kind == "lobby" for f in families)
    assert [(f.action.op, f.action.game_id) for f in families] == [("join", 5), ("leave", 5)]  # type: ignore[attr-defined]
    assert layout.to_components() == drawn
    ids_sent = [c["custom_id"] for c in drawn[0]["components"][0]["components"]]
    assert ids_sent == ["stb:lobby:join:5"]


def test_a_layout_message_sends_no_content_and_its_images_as_files() -> None:
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.TextDisplay("table"))
    message = Message(view=layout, images=(("table.png", b"\x89PNG"),))
    edit = message.kwargs()
    assert edit["content"] is None and edit["embed"] is None
    assert [f.filename for f in edit["attachments"]] == ["table.png"]
    sent = message.send_kwargs()
    assert "content" not in sent and "attachments" not in sent
    assert [f.filename for f in sent["files"]] == ["table.png"]
    # A retried edit gets fresh files: a discord.File is read once.
    assert message.kwargs()["attachments"][0].fp.read() == b"\x89PNG"
