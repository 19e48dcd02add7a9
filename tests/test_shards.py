"""SHARD_COUNT and SHARD_IDS: which shards one process runs."""

import pytest

from bot.config import ConfigError, load
from bot.shards import Shards


def shards(**env: str) -> Shards:
    return load({"DISCORD_TOKEN": "t", **env}).shards


def test_no_settings_is_one_shard_as_before():
    assert shards() == Shards(1, (0,)) and shards().everything and shards().syncs


def test_count_alone_runs_every_shard_and_ids_pick_some():
    assert shards(SHARD_COUNT="4") == Shards(4, (0, 1, 2, 3))
    picked = shards(SHARD_COUNT="4", SHARD_IDS=" 3, 2 ")
    assert picked == Shards(4, (2, 3)) and not picked.everything and not picked.syncs
    assert shards(SHARD_COUNT="4", SHARD_IDS="0,1").syncs  # shard 0's process syncs


def test_which_guilds_a_process_holds():
    first, second = Shards(4, (0, 1)), Shards(4, (2, 3))
    for guild_id in (0, 1 << 22, 2 << 22, 3 << 22, 4 << 22, 1234567890123456789):
        assert first.holds(guild_id) != second.holds(guild_id)  # exactly one of the two
    assert Shards(4, (2, 3)).holds(2 << 22) and not Shards(4, (2, 3)).holds(5 << 22)


@pytest.mark.parametrize(
    "env, message",
    [
        ({"SHARD_COUNT": "four"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be 1 or more"),
        ({"SHARD_IDS": "0,1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0;1"}, "SHARD_IDS must be whole numbers"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,,1"}, "SHARD_IDS must be whole numbers"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "1,1"}, "lists a shard twice"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,4"}, r"from 0 to 3 \(SHARD_COUNT=4\), not 4"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "-1"}, "from 0 to 3"),
    ],
)
def test_bad_values_say_what_is_wrong(env, message):
    with pytest.raises(ConfigError, match=message):
        load({"DISCORD_TOKEN": "t", **env})


def test_a_game_with_no_server_is_shard_0s():
    """Interactions from a group DM or another DM carry no guild: Discord sends them to
    shard 0, so only the process holding it runs those games."""
    assert Shards(4, (0, 2)).holds(None) and not Shards(4, (1, 3)).holds(None)
    assert Shards(4, (1,)).shard_of(None) == 0
