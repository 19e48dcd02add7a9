"""Open hands' interaction tokens: one per player and game, kept until they expire."""

from __future__ import annotations

from bot.domain.values import HandToken


async def test_a_token_is_kept_replaced_and_dropped_once_expired(storage):
    now = [1000.0]
    storage.clock = lambda: now[0]
    game = await storage.games.create(1, 2, "3", {})
    first = HandToken(game.id, "3", "secret-1", None, 11, "en", 1000.0 + 840)
    await storage.hand_tokens.keep(first)
    newer = HandToken(game.id, "3", "secret-2", 77, 12, "fr", 1000.0 + 900)
    await storage.hand_tokens.keep(newer)  # the player's newest hand replaces the older
    other = HandToken(game.id, "4", "secret-3", None, 13, "es", 1000.0 + 60)
    await storage.hand_tokens.keep(other)
    assert await storage.hand_tokens.live() == [newer, other]

    now[0] += 61  # the other player's token expired: dropped from storage, not only unread
    assert await storage.hand_tokens.live() == [newer]
    assert len(await storage.fetchall("SELECT * FROM hand_tokens")) == 1
    await storage.hand_tokens.forget(game.id)
    assert await storage.hand_tokens.live() == []


def test_a_token_is_never_in_its_repr():
    token = HandToken(1, "3", "very-secret", None, 11, "en", 2000.0)
    assert "very-secret" not in repr(token) and "very-secret" not in str(token)


async def test_expired_tokens_are_dropped_in_batches(storage, monkeypatch):
    from bot.storage import hand_tokens

    monkeypatch.setattr(hand_tokens, "BATCH", 3)
    now = [1000.0]
    storage.clock = lambda: now[0]
    game = await storage.games.create(1, 2, "3", {})
    for user in range(8):  # expired: more than two batches
        await storage.hand_tokens.keep(HandToken(game.id, str(user), "s", None, user, "en", 999.0))
    live = HandToken(game.id, "99", "s", None, 99, "en", 2000.0)
    await storage.hand_tokens.keep(live)
    await storage.hand_tokens.drop_expired()
    assert len(await storage.fetchall("SELECT * FROM hand_tokens")) == 1
    assert await storage.hand_tokens.live() == [live]
