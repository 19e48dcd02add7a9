"""The sign-up: a new tournament, joining, checking in, leaving, AI entrants."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from bot.domain import tournament as tour
from bot.domain.tournament import RUNNING, SIGNUP, Tournament
from bot.engine import Rules

from ..errors import NotHost, SaveFailed
from .core import Core, check_in_opens
from .refusals import Refusal, Refused

MAX_ENTRANTS = 512
MAX_AI_FILL = 256  # AI entrants one `fill` may add
NAME_LENGTH = 60


def entrant_rating(mu_sigma: tuple[float, float] | None) -> float:
    """Seeding strength: the openskill ordinal (mu - 3 sigma), as the leaderboard ranks."""
    return 0.0 if mu_sigma is None else mu_sigma[0] - 3 * mu_sigma[1]


class SignUp(Core):
    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: str | int,
        name: str,
        *,
        format: str = "swiss",
        table_size: int = 4,
        rounds: int | None = None,
        preset: str = "standard",
        rules: Rules | None = None,
        turn_seconds: int | None = None,
        signup_ends: float | None = None,
        starts_at: float | None = None,
        counted: bool = True,
        check_in: bool = False,
        options: Mapping[str, Any] | None = None,
    ) -> Tournament:
        """A new tournament in sign-up. `rounds` None: as many as the domain advises for the
        entrants at the start (Swiss); a knockout has as many as it needs. `rules`: the
        preset with the server's rule options (stored, so a change of settings never alters
        a tournament under way); `options`: the tables' options (the server's settings)."""
        name = " ".join(name.split())[:NAME_LENGTH]
        if not name:
            raise Refused(Refusal.NO_NAME)
        if format not in ("swiss", "knockout"):
            raise Refused(Refusal.FORMAT)
        if not tour.MIN_TABLE <= table_size <= tour.MAX_TABLE:
            raise Refused(Refusal.TABLE_SIZE)
        if rounds is not None and not 1 <= rounds <= 20:
            raise Refused(Refusal.ROUNDS)
        now = self.clock()
        for moment in (signup_ends, starts_at):
            if moment is not None and moment <= now:
                raise Refused(Refusal.PAST)
        if signup_ends is not None and starts_at is not None and starts_at < signup_ends:
            raise Refused(Refusal.START_BEFORE_SIGNUP)
        for other in await self.storage.tournaments.by_guild(guild_id):
            if other.channel_id == channel_id and other.status in (SIGNUP, RUNNING):
                raise Refused(Refusal.ALREADY_OPEN)
        settings: dict[str, Any] = {
            "rules": None if rules is None else rules.to_dict(),
            "options": dict(options or {}),
            "advised": rounds is None,
        }
        try:
            row = await self.storage.tournaments.create(
                guild_id, channel_id, name, host_id, format=format, table_size=table_size,
                rounds=rounds or 0, preset=preset, seed=self.seed_source(),
                turn_seconds=turn_seconds, signup_ends=signup_ends, starts_at=starts_at,
                check_in=check_in, counted=counted, settings=settings,
            )  # fmt: skip
        except Exception as exc:
            raise SaveFailed("tourop.error.save") from exc
        self._arm_start(row)
        return row

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """The sign-up message, so a restart edits it rather than posting another."""
        await self.storage.tournaments.set_message(tournament_id, message_id)

    async def join(self, tournament_id: int, user_id: str | int, guild_id: int) -> Tournament:
        user = str(user_id)
        row = await self.get(tournament_id, guild_id)
        if row.status != SIGNUP:
            raise Refused(Refusal.SIGNUP_CLOSED)
        have = await self.storage.tournaments.entrants(tournament_id)
        if sum(not e.dropped for e in have) >= MAX_ENTRANTS:
            raise Refused(Refusal.FULL)
        rating = entrant_rating((await self.storage.stats.ratings(guild_id, [user])).get(user))
        checked = row.check_in and self.check_in_open(row)  # joining in the window checks in
        try:
            added = await self.storage.tournaments.join(
                tournament_id, user, rating, checked_in=checked
            )
        except Exception as exc:
            raise SaveFailed("tourop.error.save") from exc
        if not added:  # signed up already, or the sign-up closed since `row` was read
            now = await self.get(tournament_id)
            raise Refused(Refusal.ALREADY_JOINED if now.status == SIGNUP else Refusal.SIGNUP_CLOSED)
        known = self.live.names_in(guild_id)
        if user in known:  # a person is stored once they sign up (docs/privacy.md)
            with contextlib.suppress(Exception):
                await self.storage.stats.set_name(guild_id, user, known[user])
        return row

    async def check_in(self, tournament_id: int, user_id: str | int, guild_id: int) -> Tournament:
        """Check in for a tournament made with check-in, during its window (see
        check_in_opens): whoever has not checked in by the start is not seated."""
        row = await self.get(tournament_id, guild_id)
        if row.status != SIGNUP:
            raise Refused(Refusal.SIGNUP_CLOSED)
        if not row.check_in:
            raise Refused(Refusal.NO_CHECK_IN)
        opens = check_in_opens(row)
        if opens is not None and self.clock() < opens:
            raise Refused(Refusal.CHECK_IN_LATER, when=f"<t:{int(opens)}:R>")
        entrant = str(user_id)
        mine = [e for e in await self.storage.tournaments.entrants(tournament_id)
                if e.entrant == entrant]  # fmt: skip
        if not mine:
            raise Refused(Refusal.NOT_JOINED)
        if mine[0].checked_in:
            raise Refused(Refusal.CHECKED_IN_ALREADY)
        try:
            done = await self.storage.tournaments.check_in(tournament_id, entrant)
        except Exception as exc:
            raise SaveFailed("tourop.error.save") from exc
        if not done:
            raise Refused(Refusal.SIGNUP_CLOSED)
        return row

    async def leave(
        self, tournament_id: int, user_id: str | int, guild_id: int, *, by: str | int | None = None,
        manager: bool = False,
    ) -> Tournament:  # fmt: skip
        """Leave (or, `by` a manager, remove): during the sign-up the entrant is gone; once
        running, dropped from the later rounds (a game under way plays on: its turns run out
        as any absent player's)."""
        entrant = str(user_id)
        if by is not None and str(by) != entrant and not manager:
            raise NotHost(Refusal.MANAGERS_ONLY)
        row = await self.get(tournament_id, guild_id)
        if row.status not in (SIGNUP, RUNNING):
            raise Refused(Refusal.OVER)
        try:
            left = await self.storage.tournaments.leave(tournament_id, entrant)
        except Exception as exc:
            raise SaveFailed("tourop.error.save") from exc
        if not left:
            raise Refused(Refusal.NOT_JOINED)
        return row

    async def fill_with_ai(
        self, tournament_id: int, guild_id: int, count: int, level: str = "medium"
    ) -> int:
        """Sign up `count` AI entrants of this difficulty (managers). How many were added."""
        row = await self.get(tournament_id, guild_id)
        settings = (await self.storage.settings.get(guild_id)).values
        if not settings.get("ai_allowed", True):  # True: the setting's default
            raise Refused(Refusal.NO_AI)
        if row.status != SIGNUP:
            raise Refused(Refusal.SIGNUP_CLOSED)
        if not 1 <= count <= MAX_AI_FILL:
            raise Refused(Refusal.FILL, n=MAX_AI_FILL)
        have = await self.storage.tournaments.entrants(tournament_id)
        room = MAX_ENTRANTS - sum(not e.dropped for e in have)
        taken = {e.entrant for e in have}
        made: list[tuple[str, float]] = []
        n = 1
        while len(made) < min(count, room):
            entrant = tour.ai_entrant(level, n)
            if entrant not in taken:
                made.append((entrant, 0.0))
            n += 1
        try:
            return await self.storage.tournaments.join_many(tournament_id, made)
        except Exception as exc:
            raise SaveFailed("tourop.error.save") from exc
