"""The lobby and the end screen as players see them: Components V2 cards in the table's
style. Start waits for a second player and says so; the end screen shows the final bundles as
a picture with medals, a playoff's score, and the Game file button with what it is for."""

from __future__ import annotations

from bot.ui.render import BLUE
from bot.ui.table import GOLD
from tests.e2e.support.helpers import (
    V2,
    accent,
    description,
    enabled,
    fields,
    footer,
    images,
    is_over,
    labels,
    play_one,
    play_to_end,
    start_game,
)
from tests.e2e.support.play import PLAYOFF_CLASSIC, with_seed

ALONE = "Start needs a second player: someone clicks Join, or the host adds a bot."


async def test_the_lobby_is_a_v2_card_and_start_waits_for_a_second_player(channel, players):
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new")).response

    assert lobby.flags.value & V2 and accent(lobby) == BLUE.value
    assert labels(lobby) == ["Start", "Join", "Leave", "Add bot", "Cancel"]
    assert "Start" not in [b["label"] for b in enabled(lobby)]
    assert ALONE in footer(lobby)

    await bob.click(lobby, label="Join")

    assert "Start" in [b["label"] for b in enabled(lobby)]
    assert ALONE not in footer(lobby)
    await ann.click(lobby, label="Start")
    assert labels(lobby) == ["My hand", "Rules"]  # the lobby card became the table card


async def test_the_lobby_says_why_start_waits_in_the_servers_language(
    simcord_env, guild, channel, players
):
    await simcord_env.bot.sessions.records.set_setting(guild.id, "language", "es")
    lobby = (await players[0].slash(channel, "steal new")).response

    assert footer(lobby).endswith(
        "Para empezar hace falta otro jugador: que alguien pulse Unirme, "
        "o que el anfitrión pulse Poner bot."
    )
    assert "Empezar" not in [b["label"] for b in enabled(lobby)]


def texts_of(message) -> list[str]:
    from simcord.components import walk_components

    return [c.get("content", "") for c in walk_components(message.components)]


async def test_the_end_screen_shows_the_bundles_picture_medals_and_the_game_file(
    simcord_env, channel, players
):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])
    await play_to_end(table, [ann, bob])

    assert table.flags.value & V2 and accent(table) == GOLD.value
    assert images(table) == ["final.png"]
    assert [a.filename for a in table.attachments] == ["final.png"]
    medals = [line.split()[0] for line in fields(table)["Final bundles"].splitlines()]
    assert medals == ["🥇", "🥈"]
    assert labels(table) == ["Rematch", "Game file", "Replay"]
    assert "Game file:" not in footer(table)  # the button says it: the end screen stays short
    sent = await bob.click(table, label="Game file")
    assert sent.ephemeral and sent.response.attachments  # the file, only for who asked
    replay = await ann.click(table, label="Replay")  # the viewer, at the deal, for ann only
    assert replay.ephemeral and replay.response.flags.value & V2
    assert "every hand is shown" in " ".join(texts_of(replay.response))


async def test_a_playoffs_end_screen_shows_its_score(simcord_env, db_path, channel, players):
    await with_seed(simcord_env, db_path, PLAYOFF_CLASSIC)
    two = players[:2]
    table = await start_game(channel, two, rules="classic")
    hands: dict = {}
    while not is_over(table):
        await play_one(table, two, hands)

    lines = description(table).splitlines()
    assert "settled by 1 playoff." in lines[1]
    (score,) = [line for line in lines if line.startswith("Playoff 1: ")]
    shown = {
        name: int(n)
        for name, n in (
            part.rsplit(" ", 1) for part in score.removeprefix("Playoff 1: ").split(" · ")
        )
    }
    assert set(shown) == {p.name for p in two}
    winner = lines[0].split("**")[1]
    assert shown[winner] == max(shown.values())
