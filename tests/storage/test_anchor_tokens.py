"""Anchors: the token that edits a group DM game's table, one per game, kept until it expires
and deleted by forget and by the purge; and a game with no server stored with its place."""

from __future__ import annotations

from bot.domain.place import Kind, Place
from bot.domain.values import AnchorToken

GROUP_DM = Place(Kind.PRIVATE, None, 777, bot_member=False)


async def test_a_game_with_no_server_keeps_its_place(storage):
    lobby = await storage.games.create(None, 777, "3", {}, place=GROUP_DM.to_dict())
    row = await storage.games.get(lobby.id)
    assert row.guild_id is None and Place.from_dict(row.place) == GROUP_DM
    (head,) = await storage.games.heads()
    assert head.guild_id is None and Place.from_dict(head.place) == GROUP_DM
    server = await storage.games.create(5, 6, "3", {})  # every game before places: no place
    assert (await storage.games.get(server.id)).place is None


async def test_an_anchor_is_kept_replaced_and_dropped_once_expired(storage):
    now = [1000.0]
    storage.clock = lambda: now[0]
    game = await storage.games.create(None, 777, "3", {}, place=GROUP_DM.to_dict())
    other = await storage.games.create(None, 778, "4", {}, place=GROUP_DM.to_dict())
    first = AnchorToken(game.id, "secret-1", None, 1000.0 + 840)
    await storage.anchor_tokens.keep(first)
    newer = AnchorToken(game.id, "secret-2", 55, 1000.0 + 900, followups=2)
    await storage.anchor_tokens.keep(newer)  # one per game: the newest
    short = AnchorToken(other.id, "secret-3", None, 1000.0 + 60)
    await storage.anchor_tokens.keep(short)
    assert await storage.anchor_tokens.live() == [newer, short]
    now[0] += 61
    assert await storage.anchor_tokens.live() == [newer]
    assert len(await storage.fetchall("SELECT * FROM anchor_tokens")) == 1
    await storage.anchor_tokens.forget(game.id)
    assert await storage.anchor_tokens.live() == []


def test_an_anchor_is_never_in_its_repr():
    token = AnchorToken(1, "very-secret", None, 2000.0)
    assert "very-secret" not in repr(token) and "very-secret" not in str(token)


async def test_forget_and_the_purge_delete_anchors(storage):
    storage.clock = lambda: 1000.0
    mine = await storage.games.create(None, 777, "3", {}, place=GROUP_DM.to_dict())
    await storage.games.cancel(mine.id)
    guild = await storage.games.create(9, 10, "4", {})
    await storage.anchor_tokens.keep(AnchorToken(mine.id, "s1", None, 5000.0))
    await storage.anchor_tokens.keep(AnchorToken(guild.id, "s2", None, 5000.0))
    await storage.forgetting.forget("3")
    assert [a.game_id for a in await storage.anchor_tokens.live()] == [guild.id]
    await storage.games.cancel(guild.id)
    await storage.forgetting.purge_guild(9)
    assert await storage.anchor_tokens.live() == []
