"""Whose language a message is in: a French-speaking member plays in a Spanish server. What
only she sees (her hand, her errors) is in French; what everyone sees (the lobby, the table,
the log, the end screen) is in Spanish. Likewise for the boards and /steal-admin: replies in
the member's language, the public leaderboard in the server's."""

from __future__ import annotations

import random

import discord
import pytest

from bot.engine import new_game, preset, to_dict
from bot.engine.playout import play_out
from tests.storage.play import finish

from .helpers import buttons, enabled, is_over, play_one, table_text, whose_turn


@pytest.fixture
def guild(simcord_env):
    return simcord_env.create_guild(preferred_locale="es-ES")  # language setting: "follow"


async def test_a_french_player_in_a_spanish_server(simcord_env, channel, players, locales):
    ann, bob, cat = players[:3]
    locales.update({ann.id: "fr", bob.id: "es-ES", cat.id: "fr"})

    lobby = (await ann.slash(channel, "steal new")).response
    assert lobby.embeds[0].title == "Casita Robada: partida nueva"
    assert "Unirme" in [b["label"] for b in buttons(lobby)]
    joined = await bob.click(lobby, label="Unirme")
    assert not joined.ephemeral and "Jugadores (2/4)" in table_text(lobby)
    refused = await cat.slash(channel, "steal start")  # the host starts, not Cat
    assert refused.response.content == "Seule la personne qui organise peut faire ça."
    await ann.click(lobby, label="Empezar")
    table = lobby
    assert table.embeds[0].title == "Casita Robada"
    assert table.embeds[0].description.startswith("Turno: **")
    assert [b["label"] for b in buttons(table)] == ["Mi mano", "Reglas"]

    # A foreign click: Cat is not playing. She reads why in French.
    foreign = await cat.click(table, label="Mi mano")
    assert foreign.ephemeral
    assert foreign.response.content == "Tu ne joues pas dans cette partie."

    # Ann's hand is in French, and so are its notes: here, a hand left behind is stale.
    hands: dict = {}
    while whose_turn(table, [ann, bob]) is not ann:
        await play_one(table, [ann, bob], hands)
    old = (await ann.click(table, label="Mi mano")).response
    assert "**Ta main** : " in old.content and "\nTable : " in old.content
    assert "**À toi de jouer** : choisis une carte." in old.content
    hands[ann.id] = (await ann.click(table, label="Mi mano")).response  # the newest one
    await play_one(table, [ann, bob], hands)
    while whose_turn(table, [ann, bob]) is not ann:
        await play_one(table, [ann, bob], hands)
    card = next(b["custom_id"] for b in enabled(old) if ":card:" in b["custom_id"])
    stale = await ann.click(old, custom_id=card)
    assert stale.response.content.startswith(
        "⚠️ Cette main n'était plus à jour ; voici ta main actuelle.\n**Ta main** : "
    ), stale.response.content
    rules = await ann.click(table, label="Reglas")
    assert rules.response.embeds[0].title == "Règles standard"

    # The log under the table is in Spanish.
    log = next(f.value for f in table.embeds[0].fields if f.name == "Últimas jugadas")
    assert any(word in log for word in ("se llevó", "dejó", "robó")), log
    pings = [m.content for m in channel.history() if "Casita Robada!" in (m.content or "")]
    assert pings and "¡te toca en Casita Robada! [Ir a la mesa](" in pings[-1]

    while not is_over(table):
        await play_one(table, [ann, bob], hands)
    end = table.embeds[0]
    assert end.title == "Casita Robada: fin de la partida"
    assert "Montones finales" in [f.name for f in end.fields]
    assert [b["label"] for b in buttons(table)] == ["Revancha", "Registro"]
    over = await cat.slash(channel, "steal hand")
    assert over.response.content == "Il n'y a pas de partie en cours ici."
    # SimCord records errors that slash commands raised, answered or not: these were answered.
    assert [type(e.original).__name__ for e in simcord_env.errors] == ["NotHost", "NoGame"]


# ----- boards and /steal-admin: whose language


async def test_a_spanish_admin_sees_spanish(simcord_env, guild, channel, locales):
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(simcord_env.create_user("ana"), roles=[mods])
    locales[admin.id] = "es-ES"

    shown = await admin.slash(channel, "steal-admin settings")
    assert shown.ephemeral
    (embed,) = shown.response.embeds
    assert embed.title == "Casita Robada: ajustes"
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Tiempos"].splitlines()[0] == (
        "`turn_timer` (Tiempo por turno): 2 min (por defecto)"
    )
    assert (
        fields["Rivales IA"].splitlines()[0]
        == "`ai_allowed` (IA permitida): activado (por defecto)"
    )
    assert fields["Canales"] == "En todas partes (no se eligió ningún canal)"
    assert "`/robar-admin cambiar`" in embed.description

    bad = await admin.slash(channel, "steal-admin set", setting="turn_timer", value="5 s")
    assert bad.ephemeral
    assert bad.response.content == (
        "`turn_timer` no puede ser '5 s'; puede ser off, o de 15 s a 24 h."
    )
    good = await admin.slash(channel, "steal-admin set", setting="pings", value="desactivado")
    assert good.response.content == (
        "`pings` ahora es **desactivado** (antes: activado). Se aplica a partir de la próxima sala."
    )
    asked = await admin.slash(channel, "steal-admin reset-leaderboard")
    assert asked.response.content.startswith("¿Reiniciar la clasificación de este servidor?")
    assert [b["label"] for b in asked.response.components[0]["components"]] == [
        "Sí, reiniciar la clasificación",
        "Cancelar",
    ]


async def finish_game(storage, guild_id: int, channel_id: int, seats, names, seed: int) -> None:
    game = play_out(new_game(preset("standard"), list(seats), seed=seed), random.Random(seed))
    row = await storage.games.create(guild_id, channel_id, seats[0], {}, state=to_dict(game))
    assert await finish(storage, row.id, game, names=names)


async def test_stats_follow_the_member_and_the_board_the_server(
    simcord_env, guild, channel, players, locales
):
    ann, bob = players[:2]
    storage = simcord_env.bot.storage
    seats = (str(ann.id), str(bob.id))
    await finish_game(storage, guild.id, channel.id, seats, {seats[0]: "ann", seats[1]: "bob"}, 3)
    locales.update({ann.id: "fr", bob.id: "es-419"})

    stats = await ann.slash(channel, "steal stats")
    assert stats.ephemeral
    (embed,) = stats.response.embeds
    assert embed.title == "ann : stats de Steal the Bundle"
    assert {f.name for f in embed.fields} >= {"Parties", "Victoires", "Niveau", "Rang"}
    assert "/voler classement" in embed.footer.text

    await storage.settings.set(guild.id, "language", "it")  # public messages in Italian
    board = await bob.slash(channel, "steal leaderboard")
    assert not board.ephemeral
    (embed,) = board.response.embeds
    assert embed.title == "Classifica di Rubamazzo"
    assert embed.description.startswith("Ordinata per **livello**")
    assert "1 partita" in embed.description and "Livello:" in embed.footer.text
    assert [b["label"] for b in board.response.components[0]["components"]] == [
        "Precedente",
        "Successiva",
    ]

    history = await bob.slash(channel, "steal history")  # ephemeral again: Bob's Spanish
    assert history.response.embeds[0].title == "Casita Robada: últimas partidas en este servidor"
    record = history.response.components[0]["components"][0]
    assert record["label"].startswith("Registro #")
