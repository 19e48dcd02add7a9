"""The players' open hand messages: the newest one of each player in a game, with the
interaction token that can still edit it (for 15 minutes), and redrawing them.

The tokens are kept in storage too (with their expiry; never logged), so after a restart an
open hand still follows its game to its end screen. Storage hears of a hand when it is opened
(another message), or when the token it holds has used half its life: never at each edit or
click, so a move costs no write for the hands. Expired rows go in batches (`SWEEP_EVERY`).

A player's older hand message is deleted through its own token once the click that showed it
is answered: only the newest one is left.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

import discord

from bot.domain.values import HandToken
from bot.session import Sessions, Table
from bot.ui import hand_message as hand_ui

from ..buttons import as_sent
from ..hands import drawn
from ..language import reader_in_game, user_lang
from .channel import Channel
from .webhook import Hook

log = logging.getLogger(__name__)
# Interaction tokens last 15 minutes; one is used for 14, so a call never races its expiry.
HAND_TOKEN_LIFE = timedelta(minutes=14)
# A stored token is replaced by a click's newer one once it has less than this left: a restart
# then still finds a token with at least that long to live.
RESTORE_AT_LEAST = HAND_TOKEN_LIFE / 2
SWEEP_EVERY = 600.0  # seconds between two drops of expired tokens from storage
# Makes the interaction webhook of a token (the application's id is the webhook's).
Webhooks = Callable[[str], Hook]


def now() -> float:
    return discord.utils.utcnow().timestamp()


@dataclass(frozen=True)
class HandRef:
    """An open hand message and what can edit it: its token, and the click being answered
    with it (None once answered, or after a restart). Interaction webhook calls are not
    bound to the bot's global rate limit."""

    token: HandToken
    answering: asyncio.Task[Any] | None = None
    replaced: HandRef | None = None  # the player's hand before this one (see `gone`)

    @property
    def alive(self) -> bool:
        """It can still edit its message (a hand shown without a token never could)."""
        return bool(self.token.token) and now() < self.token.expires_at

    @property
    def shown(self) -> float:
        """When its interaction came (unix seconds)."""
        return self.token.expires_at - HAND_TOKEN_LIFE.total_seconds()

    @property
    def answered(self) -> bool:
        return self.answering is None or self.answering.done()

    @property
    def lang(self) -> str:
        return self.token.lang

    @property
    def origin(self) -> int:
        return self.token.origin


def origin_of(interaction: discord.Interaction, fresh: bool) -> int:
    """Which hand message an interaction shows: a new one (My hand, /steal hand) is known by
    the interaction that made it; a clicked one by the interaction that made the message."""
    message = interaction.message
    if fresh or message is None:
        return interaction.id
    meta = message.interaction_metadata
    return meta.id if meta is not None else message.id


class OpenHands:
    """The open hand of each player, by (game id, player id)."""

    def __init__(
        self, sessions: Sessions, webhooks: Webhooks, answering: Callable[[], Any]
    ) -> None:
        self.sessions = sessions
        self.webhooks = webhooks
        self.current = answering  # the task answering the current click, if any
        # (game id, player id) -> the newest hand message of that player, and its token
        self.tokens: dict[tuple[int, str], HandRef] = {}
        # game id -> its players in `tokens` (changed only by `_put` and `_pop`): a move asks
        # for its game's hands, and a scan of every game's grows with the bot's games.
        self.players: dict[int, set[str]] = {}
        self.edits: set[asyncio.Task[None]] = set()  # older hands being deleted; tokens saved
        # (game id, player id) -> the token storage holds (or is being given) for that hand
        self.stored: dict[tuple[int, str], HandToken] = {}
        self._saving = asyncio.Lock()
        self._swept = now()
        # (game id, player id, origin) of hand messages deleted, or being deleted: a click
        # made on one before its delete landed must not make it the player's hand again.
        self.deleted: set[tuple[int, str, int]] = set()

    def remember(
        self,
        game_id: int,
        user_id: str,
        interaction: discord.Interaction,
        followup: int | None = None,
        *,
        fresh: bool = False,
    ) -> bool:
        """`interaction` shows the player's hand now: a new message (`fresh`; `followup` its id
        if it was sent as a follow-up) or a clicked one. The hand message they had before, if it
        is another, is deleted (while its token lives) once this click and its own are answered.
        False if the clicked message is a copy deleted already (`deleted`): it is not the
        player's hand, and its click must be answered with a new message."""
        origin = origin_of(interaction, fresh)
        if (game_id, user_id, origin) in self.deleted:
            return False
        # Without a token nothing can edit the message: it is still the player's hand (the
        # older copy goes, its ping offers My hand), redrawn by their next click.
        secret = getattr(interaction, "token", None) or ""
        expires = (interaction.created_at + HAND_TOKEN_LIFE).timestamp()
        token = HandToken(
            game_id, user_id, secret, followup, origin, user_lang(interaction), expires
        )
        task = self.current()
        old = self.tokens.get((game_id, user_id))
        # The hand this one replaces, one level back (what `gone` goes back to).
        before = old if old is None or old.origin != origin else old.replaced
        before = None if before is None else replace(before, replaced=None)
        ref = HandRef(token, task if isinstance(task, asyncio.Task) else None, before)
        self._put(game_id, user_id, ref)
        if secret:
            self._store(game_id, user_id, token)
        else:
            self._unstore(game_id, user_id)
        if old is not None and old.origin != ref.origin and old.alive:
            self._spawn(self._retire(game_id, user_id, old, ref), f"hand-retired-{game_id}")
        return True

    def gone(self, game_id: int, user_id: str, interaction: discord.Interaction) -> bool:
        """The clicked hand message turned out to be gone (Discord said so): it is not the
        player's hand; the one it replaced is again, if it can still be edited. Whether the
        player still has a hand that can be edited."""
        origin = origin_of(interaction, False)
        self.deleted.add((game_id, user_id, origin))
        ref = self.tokens.get((game_id, user_id))
        if ref is not None and ref.origin == origin:
            before = ref.replaced
            if before is None or before.origin == origin or not before.alive:
                self._pop(game_id, user_id)
                self._unstore(game_id, user_id)
                return False
            self._put(game_id, user_id, replace(before, answering=None))
            self._store(game_id, user_id, before.token)
        return self.alive(game_id, user_id)

    def _store(self, game_id: int, user_id: str, token: HandToken) -> None:
        """Storage is told of the hand only if a restart would otherwise miss it: another
        message (or language) than the stored one, or a stored token past half its life."""
        held = self.stored.get((game_id, user_id))
        if (
            held is not None
            and (held.origin, held.message_id, held.lang)
            == (token.origin, token.message_id, token.lang)
            and held.expires_at - now() > RESTORE_AT_LEAST.total_seconds()
        ):
            return
        self.stored[(game_id, user_id)] = token
        self._spawn(self._save(game_id, user_id), f"hand-saved-{game_id}")

    def _unstore(self, game_id: int, user_id: str) -> None:
        if self.stored.pop((game_id, user_id), None) is not None:
            self._spawn(self._save(game_id, user_id), f"hand-dropped-{game_id}")

    def _spawn(self, work: Any, name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self.edits.add(task)
        task.add_done_callback(self.edits.discard)

    async def _retire(self, game_id: int, user_id: str, old: HandRef, new: HandRef) -> None:
        """Delete an older hand message, once the click it answers has its answer (deleting
        it before would leave that answer, a frozen copy, in its place), and the click that
        showed the newer one has its own (its message may turn out to be gone: `gone`). Not
        if a click on the older made it the newest again meanwhile."""
        waits = {r.answering for r in (old, new) if r.answering is not None}
        if waits:
            await asyncio.wait(waits)
        now_shown = self.tokens.get((game_id, user_id))
        if not old.alive or (now_shown is not None and now_shown.origin == old.origin):
            return
        key = (game_id, user_id, old.origin)
        self.deleted.add(key)  # before the call: a click on it from now on finds it gone
        try:
            await self.webhooks(old.token.token).delete(old.token.message_id)
        except discord.NotFound:
            pass  # gone already
        except discord.HTTPException as exc:
            self.deleted.discard(key)  # still there: a click on it may make it current again
            log.debug("an older hand was not deleted (%s)", exc.status)

    async def _save(self, game_id: int, user_id: str) -> None:
        """Store the player's hand as `stored` says now (in order: the last save wins)."""
        async with self._saving:
            token = self.stored.get((game_id, user_id))
            messages = self.sessions.game_messages
            try:
                if token is None:
                    await messages.forget_hands(game_id, user_id)
                else:
                    await messages.keep_hand(token)
                if now() - self._swept > SWEEP_EVERY:
                    self._swept = now()
                    await messages.drop_expired_hands()
            except Exception:
                log.warning("game %s: could not store an open hand", game_id, exc_info=True)

    async def _forget_game(self, game_id: int) -> None:
        """Drop a done game's stored tokens. The database may be down: they are left to
        expire (every read drops expired tokens, and a restart keeps only its live games')."""
        try:
            await self.sessions.game_messages.forget_hands(game_id)
        except Exception:
            log.warning("game %s: could not drop its open hands", game_id, exc_info=True)

    async def restore(self, games: set[int]) -> None:
        """After a restart: the open hands of `games` (this process's) whose tokens live."""
        try:
            stored = await self.sessions.game_messages.open_hands()
        except Exception:
            log.warning("could not read the open hands; they wait for My hand", exc_info=True)
            return
        for token in stored:
            if token.game_id in games:
                if (token.game_id, token.user_id) not in self.tokens:
                    self._put(token.game_id, token.user_id, HandRef(token))
                self.stored.setdefault((token.game_id, token.user_id), token)

    def _put(self, game_id: int, user: str, ref: HandRef) -> None:
        self.tokens[(game_id, user)] = ref
        self.players.setdefault(game_id, set()).add(user)

    def _pop(self, game_id: int, user: str) -> HandRef | None:
        ref = self.tokens.pop((game_id, user), None)
        users = self.players.get(game_id)
        if users is not None:
            users.discard(user)
            if not users:
                del self.players[game_id]
        return ref

    def _of(self, game_id: int) -> list[tuple[str, HandRef]]:
        """The game's players and their hands."""
        return [(user, self.tokens[(game_id, user)]) for user in self.players.get(game_id, ())]

    def open(self, game_id: int, but: str | None = None) -> set[str]:
        """The players of a game whose hand message can still be edited."""
        return {user for user, ref in self._of(game_id) if user != but and ref.alive}

    def fresh(self, game_id: int, user: str, since: float) -> bool:
        """The player's hand can be edited and was shown after `since` (unix seconds)."""
        ref = self.tokens.get((game_id, user))
        return ref is not None and ref.alive and ref.shown > since

    def voices(self, game_id: int) -> list[tuple[str, float]]:
        """The game's hand tokens that live, with their expiry: a ping can go through one."""
        return [
            (ref.token.token, ref.token.expires_at) for _, ref in self._of(game_id) if ref.alive
        ]

    def answering(self, game_id: int, user: str) -> bool:
        """The player's open hand is a click's still being answered: its answer draws it."""
        ref = self.tokens.get((game_id, user))
        return ref is not None and not ref.answered

    def alive(self, game_id: int, user: str) -> bool:
        ref = self.tokens.get((game_id, user))
        return ref is not None and ref.alive

    def move_on(self, game_id: int, nxt: Table) -> None:
        """A match's next game: its players' open hands are its hands now."""
        for user in nxt.seats:
            ref = self._pop(game_id, user)
            self.stored.pop((game_id, user), None)
            if ref is not None:
                moved = HandRef(replace(ref.token, game_id=nxt.game_id), ref.answering)
                self._put(nxt.game_id, user, moved)
                self._store(nxt.game_id, user, moved.token)
        self._forget_stored(game_id)
        self._spawn(self._forget_game(game_id), f"hands-gone-{game_id}")

    async def refresh(self, ch: Channel, user: str) -> None:
        """Redraw a player's open hand as the game is now; at its end, the result."""
        ref = self.tokens.get((ch.game_id, user))
        table = ch.table
        if ref is None or table is None:
            return
        if not ref.alive:
            self.drop(ch.game_id, user, ref, stored=False)
            return
        if not ref.answered:
            return  # a click still being answered: its answer draws this hand as it is now
        seat = table.seat_of(user)
        if seat is None:
            return
        # A hand is ephemeral: in the language of the player who opened it, its cards in the
        # game's (reader_in_game), or the game's alone where its server fixed one.
        lang = reader_in_game(ref.lang, table)
        if ch.closing is not None:  # cancelled or ended by an admin: no game to play any more
            message = hand_ui.closed(lang)
        elif table.game.over:
            message = hand_ui.ended(lang, table, seat, self.names(ch))
        else:
            message = await drawn(lang, table, seat, self.names(ch))
        try:
            await self.webhooks(ref.token.token).edit(
                ref.token.message_id, **as_sent(message.kwargs())
            )
        except discord.HTTPException as exc:
            log.debug("game %s: hand of %s not refreshed (%s)", ch.game_id, user, exc.status)
            self.drop(ch.game_id, user, ref)

    def drop(self, game_id: int, user: str, ref: HandRef, *, stored: bool = True) -> None:
        """A hand that can no longer be edited is forgotten (unless a newer one came); in
        storage too (`stored`), unless only its token expired: expired rows go in batches."""
        if self.tokens.get((game_id, user)) is ref:
            self._pop(game_id, user)
            if stored:
                self._unstore(game_id, user)
            else:
                self.stored.pop((game_id, user), None)

    def names(self, ch: Channel) -> dict[str, str]:
        return self.sessions.names_in(ch.guild_id)

    def forget(self, game_id: int) -> None:
        """A game's end is shown: its hands are done, here and in storage."""
        for user, _ in self._of(game_id):
            self._pop(game_id, user)
        self._forget_stored(game_id)
        self._spawn(self._forget_game(game_id), f"hands-gone-{game_id}")

    def _forget_stored(self, game_id: int) -> None:
        for key in [k for k in self.stored if k[0] == game_id]:
            del self.stored[key]
        self.deleted = {k for k in self.deleted if k[0] != game_id}
