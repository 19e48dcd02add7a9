"""Whose language a message is in: a French-speaking member plays in a Spanish server. What
only she sees (her hand, her errors) is in French; what everyone sees (the lobby, the table,
the log, the end screen) is in Spanish."""

from __future__ import annotations

import pytest
import simcord.interactions as interactions

from .helpers import buttons, enabled, is_over, play_one, table_text, whose_turn

LOCALES: dict[int, str] = {}  # user id -> the Discord locale their client sends


@pytest.fixture
def locales(monkeypatch):
    """SimCord sends every interaction as en-US; send each member's own locale instead."""
    real = interactions.base_payload

    def base_payload(backend, **kwargs):
        record, payload = real(backend, **kwargs)
        payload["locale"] = LOCALES.get(int(kwargs["user_id"]), "en-US")
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", base_payload)
    yield LOCALES
    LOCALES.clear()


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
