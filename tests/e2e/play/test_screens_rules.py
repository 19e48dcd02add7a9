"""/steal rules teaches the game: illustrated How to play, the full rules and the options
that differ, behind page buttons, titled with the rules in play, in the reader's language."""

from __future__ import annotations

from tests.e2e.support.helpers import start_game
from tests.e2e.support.screens import buttons, images, text

PICTURES = [f"rules-{a}.png" for a in ("capture", "steal", "trail")]


def tabs(message) -> dict[str, bool]:
    """Page button label -> enabled."""
    return {b["label"]: not b.get("disabled") for b in buttons(message)}


async def test_rules_pages_in_english(simcord_env, channel, players):
    ann = players[0]
    result = await ann.slash(channel, "steal rules")

    assert result.ephemeral
    shown = result.response
    assert text(shown).startswith("## 📖 Standard rules\n🎯 The biggest **bundle**")
    said = ("**1. Capture.**", "**2. Steal.**", "**3. Trail.**", "(**My hand** on the table)")
    for words in said:
        assert words in text(shown), words
    assert images(shown) == PICTURES
    files = sorted(a.filename for a in shown.attachments)
    assert files == ["rules-capture.png", "rules-steal.png", "rules-trail.png"]
    assert all(a.size > 5000 for a in shown.attachments)  # real pictures
    assert tabs(shown) == {"How to play": False, "Full rules": True, "Options & presets": True}
    assert "README" not in text(shown)

    await ann.click(shown, label="Full rules")
    full = text(shown)
    assert full.startswith("## 📖 Standard rules\n• Everyone gets 4 cards")
    # What How to play showed is not said again: capturing, stealing, a turn.
    for told in ("to steal the whole bundle", "to capture every card", "On your turn"):
        assert told not in full, told
    assert "• The biggest bundle wins;" in full  # one word for the winning bundle: biggest
    assert images(shown) == [] and shown.attachments == []
    assert tabs(shown) == {"How to play": True, "Full rules": False, "Options & presets": True}

    await ann.click(shown, label="Options & presets")
    assert "These are the **Standard** preset's rules, unchanged." in text(shown)
    assert "**classic**: " in text(shown) and "/steal-admin" in text(shown)
    # The presets' words are explained once, under them.
    for word in ("Forced play", "Pool refill", "Leftovers", "Playoff"):
        assert f"-# **{word}**: " in text(shown), word

    await ann.click(shown, label="How to play")
    assert images(shown) == PICTURES and len(shown.attachments) == 3


async def test_rules_pages_in_spanish_say_which_server_rules(
    simcord_env, guild, channel, players, locales
):
    ann = players[0]
    locales[ann.id] = "es-ES"
    storage = simcord_env.bot.storage
    await storage.settings.set(guild.id, "preset", "classic")
    await storage.settings.set(guild.id, "wild_jacks", True)

    shown = (await ann.slash(channel, "steal rules")).response

    assert text(shown).startswith("## 📖 Reglas de este servidor: Clásica, Jotas comodín\n")
    assert "**1. Capturar.**" in text(shown) and "(**Mi mano** en la mesa)" in text(shown)
    assert tabs(shown) == {
        "Cómo se juega": False,
        "Reglas": True,
        "Opciones y modos": True,
    }
    await ann.click(shown, label="Opciones y modos")
    options = text(shown)
    assert "Estas reglas cambian respecto al modo **Clásica** en:" in options
    assert "• Jotas comodín: una Jota puede robar cualquier montón." in options
    await ann.click(shown, label="Reglas")
    assert "• Cada jugador recibe 4 cartas" in text(shown)

    # a preset asked for by name is titled as that preset
    casita = (await ann.slash(channel, "steal rules", preset="casita")).response
    assert text(casita).startswith("## 📖 Reglas de Casita Robada")


async def test_the_tables_rules_button_shows_this_games_rules(simcord_env, channel, players):
    ann, bob, *_ = players
    table = await start_game(channel, [ann, bob], rules="friendly")
    mine = next(
        b["custom_id"]
        for b in buttons(table)
        if b["custom_id"].endswith(f":{b['custom_id'].rsplit(':', 1)[1]}")
        and ":table:rules:" in b["custom_id"]
    )

    shown = (await bob.click(table, custom_id=mine)).response

    assert text(shown).startswith("## 📖 Friendly rules\n")
    assert "**2. Steal.** Not in these rules" in text(shown)
    assert images(shown) == [PICTURES[0], PICTURES[2]]  # no stealing: no steal picture


async def test_page_buttons_still_work_after_a_restart(simcord_env, db_path, channel, players):
    from tests.e2e.conftest import make_bot

    ann = players[0]
    shown = (await ann.slash(channel, "steal rules", preset="classic")).response
    await simcord_env.restart_bot(make_bot(db_path))

    await ann.click(shown, label="Full rules")  # what to show is in the button's id

    assert text(shown).startswith("## 📖 Classic rules\n• Everyone gets 4 cards")
    assert "• You must capture or steal when you can." in text(shown)
