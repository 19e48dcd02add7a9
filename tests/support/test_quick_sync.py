from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n.commands import CommandTranslator
from tests.support.quick_sync import remembered_payloads


def tree_with(description: str) -> tuple[app_commands.CommandTree, app_commands.Group]:
    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)
    steal = app_commands.Group(name="steal", description="Steal the Bundle")

    @steal.command(name="new", description=description)
    async def new(interaction: discord.Interaction) -> None: ...

    tree.add_command(steal)
    return tree, steal


async def test_a_remembered_payload_is_the_real_one_and_a_copy():
    translator = CommandTranslator()
    tree, steal = tree_with("Open a lobby")
    real = await steal.get_translated_payload(tree, translator)
    assert real["name_localizations"]  # translated: the check below compares something
    with remembered_payloads() as memo:
        first = await steal.get_translated_payload(tree, translator)
        first["name"] = "changed"
        again = await steal.get_translated_payload(tree, translator)
    assert again == real
    assert [kind for kind, *_ in memo].count(app_commands.Group) == 1  # worked out once


async def test_a_command_declared_differently_gets_its_own_payload():
    translator = CommandTranslator()
    with remembered_payloads() as memo:
        tree, steal = tree_with("Open a lobby")
        one = await steal.get_translated_payload(tree, translator)
        tree, steal = tree_with("Open a lobby here")
        other = await steal.get_translated_payload(tree, translator)
    assert one["options"][0]["description"] == "Open a lobby"
    assert other["options"][0]["description"] == "Open a lobby here"
    assert [kind for kind, *_ in memo].count(app_commands.Group) == 2


async def test_another_translator_is_asked_every_time():
    class Recorder(CommandTranslator):
        asked = 0

        async def translate(self, string, locale, context):
            Recorder.asked += 1
            return await super().translate(string, locale, context)

    tree, steal = tree_with("Open a lobby")
    with remembered_payloads() as memo:
        await steal.get_translated_payload(tree, Recorder())
        once = Recorder.asked
        await steal.get_translated_payload(tree, Recorder())
    assert once > 0 and Recorder.asked == 2 * once and not memo
