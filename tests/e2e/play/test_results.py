"""The end of a game as players see it: standings, ties, highlights, Rematch, Record, matches,
and stats that count exactly once."""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import BOTH_BACKENDS, make_bot
from tests.e2e.support.helpers import (
    description,
    fields,
    footer,
    is_over,
    labels,
    newest_table,
    play_one,
    play_to_end,
    start_game,
    table_text,
    title,
)
from tests.e2e.support.play import PLAYOFF_CLASSIC, with_seed

TIED_STANDARD = 20261142  # with the helpers' way of playing, these deals end in a tie


def field(message, name: str) -> str:
    return next(v for n, v in fields(message).items() if n.startswith(name))


async def stored_results(env, guild_id):
    return await env.bot.storage.history.by_guild(guild_id)


@BOTH_BACKENDS
async def test_a_finished_game_shows_its_standings_and_counts_once(
    simcord_env, guild, channel, players
):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])
    await play_to_end(table, [ann, bob])

    assert is_over(table) and title(table) == "Steal the Bundle: game over"
    (entry,) = await stored_results(simcord_env, guild.id)
    sizes = entry.record["result"]["bundle_sizes"]
    winner = ann if entry.winners == (str(ann.id),) else bob
    loser = bob if winner is ann else ann
    w, lost = (0, 1) if winner is ann else (1, 0)
    assert description(table).startswith(f"🏆 **{winner.name}** wins with {sizes[w]} cards!")
    assert field(table, "Final bundles").splitlines() == [
        f"🥇 {winner.name}: {sizes[w]} cards",
        f"🥈 {loser.name}: {sizes[lost]} cards",
    ]
    assert "Longest on top:" in field(table, "Highlights")
    assert labels(table) == ["Rematch", "Game file", "Replay"]
    assert "My hand" not in table_text(table)
    for member in (ann, bob):
        got = await simcord_env.bot.storage.stats.get(guild.id, str(member.id))
        assert got.games == 1 and got.wins == (1 if member is winner else 0)


async def test_a_tie_says_how_it_was_broken(simcord_env, db_path, channel, players):
    await with_seed(simcord_env, db_path, TIED_STANDARD)
    table = await start_game(channel, players[:2])
    await play_to_end(table, players[:2])
    lines = description(table).splitlines()
    assert lines[1].startswith("Tied on ") and "made the most recent capture." in lines[1]


async def test_a_classic_tie_is_played_off_in_the_channel(simcord_env, db_path, channel, players):
    await with_seed(simcord_env, db_path, PLAYOFF_CLASSIC)
    table = await start_game(channel, players[:2], rules="classic")
    seen_playoff = False
    hands: dict = {}
    while not is_over(table):
        seen_playoff |= "playoff" in (title(table) or "")
        await play_one(table, players[:2], hands)
    assert seen_playoff  # the table showed the playoff as it was played
    assert "settled by 1 playoff." in description(table)


@BOTH_BACKENDS
async def test_record_button_sends_the_game_record_privately(simcord_env, guild, channel, players):
    table = await start_game(channel, players[:2])
    await play_to_end(table, players[:2])
    outsider = players[3]
    result = await outsider.click(table, label="Game file")
    assert result.ephemeral
    (attachment,) = result.response.attachments
    data = json.loads(await attachment.read())
    assert data["format"] == "steal-the-bundle/1"
    assert data["seats"] == [str(p.id) for p in players[:2]] or set(data["seats"]) == {
        str(p.id) for p in players[:2]
    }
    assert data["result"] is not None


async def test_rematch_seats_the_same_players(simcord_env, channel, players):
    ann, bob, cat, _ = players
    table = await start_game(channel, [ann, bob, cat], rules="friendly")
    await play_to_end(table, [ann, bob, cat])

    refused = await players[3].click(table, label="Rematch")
    assert refused.ephemeral and "only the players" in refused.response.content.lower()

    result = await bob.click(table, label="Rematch")
    lobby = result.response
    assert not result.ephemeral and title(lobby) == "Steal the Bundle: new game"
    seats = field(lobby, "Players (3/3)")
    assert seats.split(" · ") == [  # one line
        f"1. **{bob.name}** (host)",
        f"2. **{ann.name}**",
        f"3. **{cat.name}**",
    ]
    assert footer(lobby).startswith("Friendly · ")  # the rules in one line
    await cat.click(lobby, label="Leave")  # anyone may leave before the start
    await bob.click(lobby, label="Start")
    assert labels(lobby) == ["My hand", "Rules"]
    assert cat.name not in table_text(lobby)


@pytest.mark.slow  # three whole games
# Both scorings on SQLite; on PostgreSQL one (what a match stores is the same for both).
@pytest.mark.parametrize(
    ("scoring", "database"),
    [("cards", "sqlite"), ("wins", "sqlite"), ("cards", "postgresql")],
    indirect=["database"],
)
async def test_a_three_game_match_passes_the_deal_and_names_a_winner(
    simcord_env, database, guild, channel, players, scoring
):
    ann, bob = players[:2]
    first = await start_game(channel, [ann, bob], games=3, scoring=scoring)
    assert title(first) == "Steal the Bundle: game 1 of 3"
    tables = [first]
    for number in (1, 2, 3):
        await play_to_end(tables[-1], [ann, bob])
        over = tables[-1]
        assert title(over) == f"Steal the Bundle: game {number} of 3 over"
        match = field(over, "Match")
        if number < 3:
            assert f"Game {number + 1} is starting below." in match
            assert labels(over) == ["Game file", "Replay"]  # no rematch in the middle of a match
            tables.append(newest_table(simcord_env, channel))
            assert tables[-1].id != over.id
            assert title(tables[-1]) == f"Steal the Bundle: game {number + 1} of 3"
        else:
            assert "🏆 Match winner:" in match
            assert labels(over) == ["Rematch", "Game file", "Replay"]
    entries = await stored_results(simcord_env, guild.id)
    assert len(entries) == 3
    dealers = [e.record["dealer"] for e in sorted(entries, key=lambda e: e.game_id)]
    assert dealers[1] == (dealers[0] + 1) % 2 and dealers[2] == (dealers[1] + 1) % 2
    totals = {str(p.id): 0 for p in (ann, bob)}
    wins = {str(p.id): 0 for p in (ann, bob)}
    for e in entries:
        for seat, size in zip(e.seats, e.record["result"]["bundle_sizes"], strict=True):
            totals[seat] += size
        for seat in e.winners:
            wins[seat] += 1
    score = totals if scoring == "cards" else wins
    how = "total cards" if scoring == "cards" else "games won"
    assert f"Match: 3 games, scored by {how}" in fields(tables[-1])
    top = max(score.values())
    best = [p.name for p in (ann, bob) if score[str(p.id)] == top]
    if len(best) == 1:
        assert f"🏆 Match winner: **{best[0]}**" in field(tables[-1], "Match")
    for p in (ann, bob):
        n = wins[str(p.id)]
        line = f"{p.name}: {n} win{'' if n == 1 else 's'} · {totals[str(p.id)]} cards"
        assert line in field(tables[-1], "Match").splitlines()


@BOTH_BACKENDS
async def test_stats_count_once_when_the_bot_restarts_at_the_end(
    simcord_env, db_path, guild, channel, players, monkeypatch
):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])
    games = simcord_env.bot.storage.games
    real = games.finish
    calls = []

    async def crash_once(*args, **kwargs):  # the process dies between the last move and this
        calls.append(1)
        if len(calls) == 1:
            raise OSError("power cut")
        return await real(*args, **kwargs)

    monkeypatch.setattr(games, "finish", crash_once)
    await play_to_end(table, [ann, bob])  # the last move is saved; the finish is not
    assert await stored_results(simcord_env, guild.id) == []

    await simcord_env.restart_bot(make_bot(db_path))  # restore finishes it
    await simcord_env.restart_bot(make_bot(db_path))  # and a second restart changes nothing
    assert len(await stored_results(simcord_env, guild.id)) == 1
    for member in (ann, bob):
        got = await simcord_env.bot.storage.stats.get(guild.id, str(member.id))
        assert got.games == 1
    assert title(table) == "Steal the Bundle: game over"
