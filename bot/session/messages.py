"""The messages that show a game: their stored ids, what ended games still owe Discord, and a
finished game as its end screen shows it. A collaborator Sessions owns; it reads storage only."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.domain.values import AnchorToken, HandToken
from bot.engine import replay
from bot.storage import Storage

from . import events as ev
from .models import CLOSED, SEASON, Table
from .restore import table_of


class GameMessages:
    def __init__(self, storage: Storage, *, owns: Callable[[int | None], bool]) -> None:
        self.storage = storage
        self.owns = owns

    async def messages(self, game_id: int) -> tuple[int | None, int | None, int | None]:
        """The ids of a game's lobby, table and turn ping messages, as stored."""
        row = await self.storage.games.get(game_id)
        if row is None:
            return None, None, None
        return row.lobby_message_id, row.table_message_id, row.ping_message_id

    async def keep_messages(self, game_id: int, **ids: int | None) -> None:
        """Store message ids (lobby, table, ping) so a restart finds the messages again."""
        columns = {f"{what}_message_id": value for what, value in ids.items()}
        await self.storage.games.update(game_id, **columns)

    async def keep_hand(self, hand: HandToken) -> None:
        """A player's open hand message and its token, so a restart can still edit it."""
        await self.storage.hand_tokens.keep(hand)

    async def forget_hands(self, game_id: int, user_id: str | None = None) -> None:
        await self.storage.hand_tokens.forget(game_id, user_id)

    async def drop_expired_hands(self) -> None:
        await self.storage.hand_tokens.drop_expired()

    async def open_hands(self) -> list[HandToken]:
        """Every open hand whose token still lives (the caller keeps its own games')."""
        return await self.storage.hand_tokens.live()

    async def keep_anchor(self, anchor: AnchorToken) -> None:
        """The token that edits a group DM game's table, so a restart can still show it."""
        await self.storage.anchor_tokens.keep(anchor)

    async def forget_anchor(self, game_id: int) -> None:
        await self.storage.anchor_tokens.forget(game_id)

    async def anchors(self) -> list[AnchorToken]:
        """Every anchor that still lives (the caller keeps its own games')."""
        return await self.storage.anchor_tokens.live()

    async def owed(self) -> list[ev.Owed]:
        """Messages that this process's games which ended still owe Discord: end screens
        (EndOwed) and closings (Closed, as the event said)."""
        # Every owed payload names its guild (ENDED and `closing` payloads); one that did not
        # is delivered, as before shards: showing it twice is harmless (see storage.outbox).
        return [
            ev.Closed.of(item.game_id, item.payload) if item.kind == CLOSED
            else ev.SeasonOver(item.id, item.game_id, int(item.payload["guild_id"]),
                               int(item.payload["channel_id"]), item.payload)
            if item.kind == SEASON
            else ev.EndOwed(item.game_id)
            for item in await self.storage.outbox.pending()
            if self._owned(item.payload)
        ]  # fmt: skip

    def _owned(self, payload: dict[str, Any]) -> bool:
        """Whether an owed item's game is this process's: its server's shard, or shard 0's
        for a game with no server (its place says so; its `guild_id` is then its board)."""
        place = payload.get("place")
        if place is not None and place.get("guild_id") is None:
            return self.owns(None)
        return payload.get("guild_id") is None or self.owns(int(payload["guild_id"]))

    async def delivered(self, game_id: int) -> None:
        """A game's owed message is shown: nothing is owed for it any more (a season's
        announcement owed to its channel stays until it is shown: `announced`)."""
        await self.storage.outbox.settle(game_id, keep=(SEASON,))

    async def announcement(self, item_id: int) -> dict[str, Any] | None:
        """A season's announcement as it is owed now (a forget may have changed its names);
        None once it is shown."""
        item = await self.storage.outbox.get(item_id)
        return None if item is None else dict(item.payload)

    async def announcing(self, item_id: int, at: float) -> None:
        """The announcement is about to be posted (`at`, Discord's clock): a restart then
        looks for it in the channel before posting it again."""
        await self.storage.outbox.note(item_id, tried_at=at)

    async def announced(self, item_id: int) -> None:
        """A season's announcement is shown (or can never be)."""
        await self.storage.outbox.done(item_id)

    async def ended_table(self, game_id: int) -> Table | None:
        """A finished game as its end screen shows it (after a restart)."""
        row = await self.storage.games.get(game_id)
        if row is None:
            return None
        entry = await self.storage.history.get(game_id)
        if entry is not None:  # a finished game keeps only its record: played again to its end
            game = await asyncio.to_thread(replay, entry.record)
            return table_of(row, [], game)
        if row.state is None:
            return None
        return table_of(row, await self.storage.games.moves(game_id))
