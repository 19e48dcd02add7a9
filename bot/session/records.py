"""What the cogs read and change besides games: a server's settings, a board's leaderboard,
stats and history (a board is keyed by Place.board_id: the server's id, or the channel's
outside a server), the global ladder and the profile. The cogs' only way to storage, so
every path to the database passes the session layer (and the import contracts can say so)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection
from typing import Any

from bot.domain import ratings as stats
from bot.domain.seats import is_ai
from bot.domain.values import GuildSettings, HistoryEntry, LadderEntry, PlayerStats, Standing
from bot.storage import Storage

log = logging.getLogger(__name__)


class Records:
    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        # Each server's language setting, read once: every click asks it (whose language an
        # answer is in), and only set_setting and reset_settings change it. A server's clicks
        # all come to the one process that runs its shard, which is also the one that sets it.
        self._languages: dict[int, str] = {}
        # Told of every change of a setting (guild, key; None: all of them): Sessions wakes
        # the timed seasons' job when a season length changes.
        self.setting_changed: Callable[[int, str | None], None] = lambda guild_id, key: None
        # The guilds whose stats card rows are still worked out (`backfill`, in the
        # background after start-up); None until it has looked.
        self._backfilling: set[int] | None = None

    # ----- settings

    async def settings(self, guild_id: int) -> GuildSettings:
        settings = await self._storage.settings.get(guild_id)
        self._languages[guild_id] = settings["language"]
        return settings

    async def language(self, guild_id: int) -> str:
        """The server's language setting ("follow" or a language), cached."""
        known = self._languages.get(guild_id)
        if known is None:
            known = (await self.settings(guild_id))["language"]
        return known

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None:
        self._languages.pop(guild_id, None)
        await self._storage.settings.set(guild_id, key, value)
        self._languages.pop(guild_id, None)
        self.setting_changed(guild_id, key)

    async def reset_settings(self, guild_id: int, key: str | None = None) -> None:
        self._languages.pop(guild_id, None)
        await self._storage.settings.reset(guild_id, key)
        self._languages.pop(guild_id, None)
        self.setting_changed(guild_id, key)

    # ----- leaderboard and stats

    async def players(self, guild_id: int) -> int:
        """How many players the guild's leaderboard has."""
        return await self._storage.stats.count(guild_id)

    async def board(self, guild_id: int, sort: str, limit: int, offset: int) -> list[Standing]:
        return await self._storage.stats.leaderboard(guild_id, sort, limit, offset)

    async def whole_board(self, guild_id: int) -> list[Standing]:
        return await self._storage.stats.all(guild_id)

    async def player(self, guild_id: int, user_id: str) -> PlayerStats | None:
        return await self._storage.stats.get(guild_id, user_id)

    async def rank(self, guild_id: int, user_id: str, sort: str = "rating") -> int | None:
        return await self._storage.stats.rank(guild_id, user_id, sort)

    async def standing(self, guild_id: int, user_id: str, sort: str) -> Standing | None:
        """A player's place and totals on the board sorted by `sort`, if they are on it."""
        player = await self.player(guild_id, user_id)
        if player is None or player.games == 0:
            return None
        rank = await self.rank(guild_id, user_id, sort)
        return None if rank is None else Standing(rank, player)

    async def figures(self, player: PlayerStats, deck: str) -> stats.Figures:
        """The stats card's rating trend and favourite capture, from the player's last counted
        games as storage keeps them (one index range: never the server's history), the
        favourite named in `deck`, the server's."""
        games = await self._storage.tallies.recent(
            player.guild_id, player.user_id, stats.FAVOURITE_GAMES
        )
        return stats.figures(games, player.rating, deck)

    async def played(self, guild_id: int, user_id: str) -> bool:
        """Whether the member finished any game here, counted or not."""
        return bool(await self._storage.history.by_player(user_id, board_id=guild_id, limit=1))

    async def stats_pending(self, guild_id: int) -> bool:
        """Whether the guild's stats card rows are still to be worked out (`backfill`): the
        card then says its trend and favourite capture leave out older games."""
        if self._backfilling is None:
            return guild_id in await self._storage.tallies.pending()
        return guild_id in self._backfilling

    async def backfill(self, owns: Callable[[int], bool]) -> list[int]:
        """Work out the stats card's rows (storage's rated_games) of the guilds that had
        finished games before storage kept them (revision 11 marks them): once, after
        start-up, in the background, from their history, as the card used to on every use.
        Which games counted is read from their seats and the server's `ai_counts` now (a
        history keeps no hints). A game that finishes meanwhile has the guild worked out
        again. The guilds done; another process's guilds (`owns`) are left to it."""
        pending = [g for g in await self._storage.tallies.pending() if owns(g)]
        self._backfilling = set(pending)
        done = []
        for guild_id in pending:
            while True:
                entries = await self._storage.history.all(guild_id)  # oldest first
                ai_counts = (await self.settings(guild_id)).values["ai_counts"]
                board = await self._storage.stats.all(guild_id)
                totals = {s.player.user_id: s.player.games for s in board}

                def replayed(
                    entries: list[HistoryEntry] = entries,
                    ai: bool = ai_counts,
                    totals: dict[str, int] = totals,
                ) -> Any:
                    counted = [
                        (e.game_id, e.seats, e.places, e.record)
                        for e in entries
                        if ai or not any(is_ai(s) for s in e.seats)
                    ]
                    return stats.replayed_games(counted, totals, is_ai)

                rows = await asyncio.to_thread(replayed)
                read = [e.game_id for e in entries]
                made = await self._storage.tallies.backfill(
                    guild_id, list(rows.items()), read, sum(totals.values())
                )
                if made is not None:
                    break  # None: a game finished meanwhile; worked out again
            self._backfilling.discard(guild_id)
            if made:
                done.append(guild_id)
                log.info("stats of guild %s worked out from its %d games", guild_id, len(entries))
        return done

    async def names(self, guild_id: int, user_ids: Collection[str]) -> dict[str, str]:
        return await self._storage.stats.names(guild_id, user_ids)

    async def reset_board(self, guild_id: int) -> int:
        return await self._storage.stats.reset(guild_id)

    # ----- the global ladder (every rated game anywhere) and the profile that names you on it

    async def ladder(self, limit: int, offset: int) -> list[LadderEntry]:
        return await self._storage.ladder.page(limit, offset)

    async def ladder_size(self) -> int:
        return await self._storage.ladder.count()

    async def on_ladder(self, user_id: str) -> LadderEntry | None:
        return await self._storage.ladder.entry(user_id)

    async def profile(self, user_id: str) -> tuple[bool, str] | None:
        return await self._storage.ladder.profile(user_id)

    async def set_profile(self, user_id: str, show: bool, name: str) -> None:
        await self._storage.ladder.set_profile(user_id, show, name)

    # ----- history

    async def finished(self, game_id: int) -> HistoryEntry | None:
        return await self._storage.history.get(game_id)

    async def history(
        self, guild_id: int, user_id: str | None = None, limit: int = 10
    ) -> list[HistoryEntry]:
        """The guild's last finished games, or only those `user_id` played."""
        if user_id is None:
            return await self._storage.history.by_guild(guild_id, limit=limit)
        return await self._storage.history.by_player(user_id, board_id=guild_id, limit=limit)

    async def whole_history(self, guild_id: int) -> list[HistoryEntry]:
        return await self._storage.history.all(guild_id)
