"""/steal-admin export: the leaderboard as CSV and the finished games as JSON lines, matching
what /steal stats and the table show."""

from __future__ import annotations

import csv
import io
import json

from tests.e2e.support.admin_panel import (
    make_admin,
)
from tests.e2e.support.helpers import (
    fields,
    is_over,
    play_to_end,
    start_game,
)
from tests.e2e.support.screens import figures


def stats_fields(result) -> dict[str, str]:
    return figures(result.response)


async def test_export_has_the_leaderboard_and_the_finished_games(
    simcord_env, guild, channel, players
):
    env = simcord_env
    ann, bob, cat, _ = players
    admin = make_admin(env, guild)
    mods = guild.create_text_channel("mods")
    table = await start_game(channel, [ann, bob])
    await play_to_end(table, [ann, bob])
    assert is_over(table)
    unfinished = await start_game(guild.create_text_channel("later"), [cat, ann])  # not exported
    assert not is_over(unfinished)
    final = fields(table)["Final bundles"].splitlines()  # "🥇 ann: 27 cards", ...
    history = (await ann.slash(channel, "steal history")).response.embeds[0]
    game_id = int(history.fields[0].name.removeprefix("Game #"))

    result = await admin.slash(mods, "steal-admin export")

    assert result.ephemeral
    reply = result.response
    assert reply.content == "2 players on the leaderboard, 1 finished game."
    files = {a.filename: await a.read() for a in reply.attachments}
    assert list(files) == ["leaderboard.csv", "games.jsonl"]

    rows = list(csv.reader(io.StringIO(files["leaderboard.csv"].decode("utf-8"))))
    assert rows[0] == [
        "rank", "user_id", "name", "games", "wins", "win_rate", "cards", "steals",
        "biggest_steal", "rating", "mu", "sigma",
    ]  # fmt: skip
    board = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    assert sorted(r["user_id"] for r in board) == sorted([str(ann.id), str(bob.id)])
    assert [r["rank"] for r in board] == ["1", "2"]
    for member in (ann, bob):
        row = next(r for r in board if r["user_id"] == str(member.id))
        shown = stats_fields(await member.slash(channel, "steal stats"))
        assert row["name"] == member.name
        assert row["games"] == shown["Games"] == "1"
        assert row["wins"] == shown["Wins"]
        assert f"{float(row['win_rate']):.0%}" == shown["Win rate"]
        assert row["cards"] == shown["Cards collected"]
        assert row["steals"] == shown["Steals"]
        biggest = "none yet" if row["biggest_steal"] == "0" else f"{row['biggest_steal']} cards"
        assert shown["Biggest steal"] in (biggest, biggest.removesuffix("s"))
        assert round(float(row["rating"])) == int(shown["Rating"].replace(",", ""))
        assert shown["Rank"] == f"#{row['rank']} of 2"
        assert f"{member.name}: {row['cards']} card" in "\n".join(final)

    lines = files["games.jsonl"].decode("utf-8").splitlines()
    assert len(lines) == 1  # the finished game only
    game = json.loads(lines[0])
    assert game["game_id"] == game_id
    assert game["channel_id"] == str(channel.id)
    assert sorted(p["id"] for p in game["players"]) == sorted([str(ann.id), str(bob.id)])
    assert {p["id"]: p["name"] for p in game["players"]} == {
        str(ann.id): ann.name, str(bob.id): bob.name,
    }  # fmt: skip
    winner = next(m for m in (ann, bob) if final[0].startswith(f"🥇 {m.name}:"))
    assert game["winners"] == [str(winner.id)]
    places = dict(zip([p["id"] for p in game["players"]], game["places"], strict=True))
    assert places == {str(winner.id): 0, str((bob if winner is ann else ann).id): 1}  # 0: first
    assert game["forfeited"] == []
    record = game["record"]
    assert record["format"] == "steal-the-bundle/1"
    assert record["seats"] == [p["id"] for p in game["players"]]
    sizes = dict(zip(record["seats"], record["result"]["bundle_sizes"], strict=True))
    for member in (ann, bob):
        assert any(line.endswith(f"{member.name}: {sizes[str(member.id)]} cards") for line in final)
    assert record == (await env.bot.storage.history.get(game_id)).record
