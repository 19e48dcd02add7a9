"""Buttons inside a Components V2 layout become their families' items, wherever they sit."""

import discord

from bot.adapter.buttons import Family, dynamic
from bot.ui import ids
from bot.ui.render import Message
from bot.ui.widgets import button


def test_buttons_in_rows_and_sections_are_routed_to_their_family() -> None:
    layout = discord.ui.LayoutView(timeout=None)
    row = discord.ui.ActionRow(button(ids.lobby("join", 5), "Join"))
    section = discord.ui.Section(
        discord.ui.TextDisplay("lobby"), accessory=button(ids.lobby("leave", 5), "Leave")
    )
    layout.add_item(discord.ui.Container(row, section))
    dynamic({"view": layout})
    routed = [i for i in layout.walk_children() if isinstance(i, Family) and i.kind == "lobby"]
    assert [(b.action.op, b.action.game_id) for b in routed] == [("join", 5), ("leave", 5)]
    assert all(b.view is layout for b in routed)
    ids_sent = [c["custom_id"] for c in layout.to_components()[0]["components"][0]["components"]]
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
