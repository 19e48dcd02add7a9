"""Whose language a message is in: a French-speaking member plays in a Spanish server. What
only she sees (her hand, her errors) is in French; what everyone sees (the lobby, the table,
the log, the end screen) is in Spanish. Likewise for the boards and /steal-admin: replies in
the member's language, the public leaderboard in the server's."""

from __future__ import annotations

import random

import discord
import pytest
from simcord.components import walk_components

from bot.adapter.presenter.intake import NUDGE_AFTER
from bot.engine import new_game, preset, to_dict
from bot.engine.playout import play_out
from bot.ui import ids
from tests.e2e.support.admin_panel import panel_sections, panel_texts, picked
from tests.e2e.support.helpers import (
    alt_text,
    buttons,
    description,
    enabled,
    fields,
    gone,
    is_over,
    plain,
    play_one,
    table_text,
    text_of,
    title,
    whose_turn,
)
from tests.e2e.support.play import bot_message
from tests.e2e.support.screens import buttons as screen_buttons
from tests.e2e.support.screens import figures
from tests.e2e.support.screens import text as screen_text
from tests.storage.play import finish


@pytest.fixture
def guild(simcord_env):
    return simcord_env.create_guild(preferred_locale="es-ES")  # language setting: "follow"


async def test_a_french_player_in_a_spanish_server(simcord_env, channel, players, locales):
    ann, bob, cat = players[:3]
    locales.update({ann.id: "fr", bob.id: "es-ES", cat.id: "fr"})

    lobby = (await ann.slash(channel, "steal new")).response
    assert title(lobby) == "Casita Robada: partida nueva"
    assert "Unirme" in [b["label"] for b in buttons(lobby)]
    joined = await bob.click(lobby, label="Unirme")
    assert not joined.ephemeral and "Jugadores (2/4)" in table_text(lobby)
    refused = await cat.slash(channel, "steal start")  # the host starts, not Cat
    assert (
        refused.response.content == "Seule la personne qui organise peut faire ça ; demande-le-lui."
    )
    await ann.click(lobby, label="Empezar")
    table = lobby
    assert title(table) == "Casita Robada"
    assert description(table).startswith("🔵 Turno: **")
    assert [b["label"] for b in buttons(table)] == ["Mi mano", "Reglas"]

    # A foreign click: Cat is not playing. She reads why in French.
    foreign = await cat.click(table, label="Mi mano")
    assert foreign.ephemeral
    assert foreign.response.content.startswith("Tu ne joues pas dans cette partie. Attends")
    [go] = [b for row in foreign.response.components for b in row["components"]]
    assert go["label"] == "Aller à la table" and go["url"].endswith(f"/{table.id}")

    # Ann's hand is in French, and so are its notes: here, a hand left behind is stale.
    hands: dict = {}
    while whose_turn(table, [ann, bob]) is not ann:
        await play_one(table, [ann, bob], hands)
    old = (await ann.click(table, label="Mi mano")).response
    assert "### 🃏 Ta main\n**À toi de jouer** : un clic joue un coup." in text_of(old)
    assert alt_text(old).startswith("Tes cartes : ")  # its picture's description, in French
    hands[ann.id] = (await ann.click(table, label="Mi mano")).response  # the newest one
    assert gone(simcord_env, old)  # the older hand is deleted
    stale_move = next(b["custom_id"] for b in enabled(hands[ann.id]) if ":move:" in b["custom_id"])
    await play_one(table, [ann, bob], hands)
    while whose_turn(table, [ann, bob]) is not ann:
        await play_one(table, [ann, bob], hands)
    copy = bot_message(simcord_env, channel, [stale_move])
    stale = await ann.click(copy, custom_id=stale_move)
    assert text_of(stale.response).startswith(
        "### 🃏 Ta main\n⚠️ Cette main n'était plus à jour ; voici ta main actuelle.\n"
    ), text_of(stale.response)
    rules = await ann.click(table, label="Reglas")
    assert screen_text(rules.response).startswith("## 📖 Règles standard\n")

    # The log under the table is in Spanish.
    log = fields(table)["Últimas jugadas"]
    assert any(word in log for word in ("se llevó", "dejó", "robó")), log
    await simcord_env.advance_time(NUDGE_AFTER + 1)  # an idle open hand: its player is nudged
    pings = [m.content for m in channel.history() if "Casita Robada!" in (m.content or "")]
    assert pings and "¡te toca en Casita Robada! [Ir a la mesa](" in pings[-1]

    while not is_over(table):
        await play_one(table, [ann, bob], hands)
    assert title(table) == "Casita Robada: fin de la partida"
    assert "Montones finales" in fields(table)
    assert [b["label"] for b in buttons(table)] == [
        "Revancha",
        "Archivo",
        "Repetición",
    ]
    over = await cat.slash(channel, "steal hand")
    assert (
        plain(over.response.content)
        == "Il n'y a pas de partie en cours ici. Lances-en une avec /steal new."
    )
    # SimCord records errors that slash commands raised, answered or not: these were answered.
    assert [type(e.original).__name__ for e in simcord_env.errors] == ["NotHost", "NoGame"]


# ----- boards and /steal-admin: whose language


async def test_a_spanish_admin_sees_spanish(simcord_env, guild, channel, locales):
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(simcord_env.create_user("ana"), roles=[mods])
    locales[admin.id] = "es-ES"

    shown = await admin.slash(channel, "steal-admin settings")
    assert shown.ephemeral
    head, *_ = panel_texts(shown.response)
    assert head.startswith("## Casita Robada: ajustes\n")
    assert panel_sections(shown.response) == {"Reglas": ""}  # nothing differs from defaults
    switches = next(
        c for c in walk_components(shown.response.components)
        if c.get("custom_id") == ids.switches("rules")
    )  # fmt: skip
    assert "Robo" in [o["label"] for o in switches["options"]]
    await admin.select(shown.response, ["timers"], custom_id=ids.topics())
    assert picked(shown.response, ids.setting("turn_timer")) == ["Por turno: 2 min"]
    assert "</steal-admin set:" in head  # shown as "/robar-admin cambiar" in her client

    bad = await admin.slash(channel, "steal-admin set", setting="turn_timer", value="5 s")
    assert bad.ephemeral
    assert bad.response.content == (
        "`turn_timer` no puede ser '5 s'; puede ser off, o de 15 s a 24 h."
    )
    good = await admin.slash(channel, "steal-admin set", setting="pings", value="desactivado")
    assert good.response.content == (
        "Nuevo valor de `pings`: **desactivado** (antes: activado). "
        "Se aplica a partir de la próxima sala."
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
    shown = screen_text(stats.response)
    assert shown.startswith("## 📊 ann (toi) : stats de Steal the Bundle\n")
    assert set(figures(stats.response)) >= {"Parties", "Victoires", "Niveau", "Rang", "Tendance"}
    assert "</steal leaderboard:" in shown

    board = await bob.slash(channel, "steal leaderboard")  # public: the server's Spanish
    assert screen_text(board.response).startswith("### 🏆 Clasificación de Casita Robada\n")
    history = await ann.slash(channel, "steal history")  # ephemeral: Ann's French
    assert title(history.response) == "Steal the Bundle : dernières parties ici"

    # A server that fixes its language has it everywhere, ephemeral answers included.
    await simcord_env.bot.sessions.records.set_setting(guild.id, "language", "it")
    board = await bob.slash(channel, "steal leaderboard")
    assert not board.ephemeral
    shown = screen_text(board.response)
    assert shown.startswith("### 🏆 Classifica di Rubamazzo\n-# Ordinata per **livello**")
    assert "1 partita" in shown and "-# Livello: si parte da 1000," in shown
    assert "👉 __bob__" in shown  # Bob asked: his row
    assert screen_buttons(board.response) == []  # one page: no pager

    history = await bob.slash(channel, "steal history")  # ephemeral, and Italian too
    assert title(history.response).startswith("Rubamazzo: ")
    record = history.response.components[0]["components"][0]
    assert not record["label"].startswith("Archivo")
