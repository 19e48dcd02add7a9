"""Places the bot is no member of, on top of SimCord (issue 36): a group DM, and a server where
only a person installed the app. SimCord models a server the bot is in and the DM with the bot;
Discord also sends interactions from these, and there the bot token reaches nothing.

    place = TokenPlace.group_dm(env, monkeypatch, [ann, bob, cat], installer=ann)
    lobby = (await place.slash(ann, "steal new")).response
    await place.click(bob, lobby, label="Join")      # bob never installed the app
    place.seen_by(bob)                               # what bob sees: public + his ephemerals
    assert place.refused == [] and place.over_cap == []

People are SimCord UserHandles (env.create_user) in a group DM, MemberActors in a server.
`slash` and `click` return SimCord's InteractionResult, as its own actors' verbs do.

The payload, as Discord sends it there (docs: Interactions, "Interaction Object"):
`context` 2 (0 in the server), `authorizing_integration_owners` {"1": installer} (no "0"), in a
group DM a channel of type 3 with its recipients, a `user` and no `member` nor `guild_id`, and
`app_permissions` ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE. A command runs only where it is
offered: `contexts` holds that context and `integration_types` holds 1 (user install).

What Discord answers there, and what the layer counts:
- `refused`: bot-token calls on the place (/channels/{id}/..., /guilds/{id}/...): 403, 50001
  Missing Access. A game there must leave it empty.
- `over_cap`: interactions whose token tried a sixth followup (changelog, June 2024: user
  installs get 5): 400, 40094. A followup that completes a deferred reply is an edit, not one.
- `expired`: calls with a token 15 minutes after its interaction: 401, 50027 Invalid Webhook
  Token (discord-api-docs#6851; SimCord answers 404 10015). Driven by `env.advance_time`.
- `bot_token_calls()`: every bot-token request since the place opened, wherever it went.
- `requests[interaction id]`: every call made with that token (callback, followups, edits,
  reads, deletes), refused ones included; `total` sums them. Keyed by id: tokens are never shown.
The bot gets no gateway event (MESSAGE_CREATE, ...) from the place, as it is not in it.

SimCord seams it uses, so it could move into SimCord: `simcord.interactions.base_payload` (the
payload), `simcord.http.router.dispatch` (every REST call of both transports, the bot's HTTP
client and the interaction webhook adapter), `Backend.emit` (gateway events), the Interaction
record (`expires_at`, `loading`), `actors._find_component`, and `Env._begin_operation` /
`_settle_internal` as the actors use them. Patches go through pytest's monkeypatch; several
places may share one env; they survive `env.restart_bot` (the backend stays).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import discord
import pytest
import simcord.actors as actors
import simcord.http.router as router
import simcord.interactions as interactions
from simcord.backend import serializers
from simcord.backend.errors import BackendError, SetupError
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult, ResponseMessage
from simcord.types import HttpLogEntry

GROUP_DM = 3  # discord.ChannelType.group: SimCord's ChannelType has no member for it
GROUP_DM_MAX = 10  # people in a group DM
PRIVATE_APP_PERMISSIONS = discord.Permissions(
    attach_files=True, embed_links=True, mention_everyone=True
).value
FOLLOWUP_CAP = 5
TOKEN_LIFE = 15 * 60  # seconds; SimCord stamps each Interaction record's expires_at with it


def server_installs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every SimCord interaction carries the server install that authorizes it, as Discord's
    do: owners {"0": server id} in a server, {"0": "0"} in the DM with the bot (SimCord sends
    {}, which reads as "not installed here"). A TokenPlace then sets its own owners."""
    real = interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = real(backend, **kwargs)
        payload["authorizing_integration_owners"] = {"0": str(kwargs.get("guild_id") or 0)}
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", base_payload)


class TokenPlace:
    """A group DM, or a server where only `installer` installed the app."""

    def __init__(
        self, env: Any, monkeypatch: pytest.MonkeyPatch, *, channel_id: int,
        guild_id: int | None, installer: Any, people: list[Any],
    ) -> None:  # fmt: skip
        self.env = env
        self.channel_id = channel_id
        self.guild_id = guild_id
        self.context = 2 if guild_id is None else 0
        self.installer = installer
        self.people = {p.id: p for p in people}
        self.ids: dict[str, int] = {}  # token -> id of the interactions made here
        self.refused: list[str] = []
        self.over_cap: list[int] = []
        self.expired: list[int] = []
        self.requests: Counter[int] = Counter()
        self.followups: Counter[int] = Counter()
        self.opened = len(env.backend.http_requests)
        monkeypatch.setattr(router, "dispatch", self._dispatch(router.dispatch))
        monkeypatch.setattr(env.backend, "emit", self._emit(env.backend.emit))

    @classmethod
    def group_dm(
        cls, env: Any, monkeypatch: pytest.MonkeyPatch, users: list[Any], *,
        installer: Any, name: str | None = None,
    ) -> TokenPlace:  # fmt: skip
        """A group DM of `users` (UserHandles); `installer` installed the app to their account."""
        if not 1 <= len(users) <= GROUP_DM_MAX or installer not in users:
            raise SetupError("a group DM holds 1 to 10 people, the installer among them")
        channel = env.backend.create_channel(None, name, type=GROUP_DM)
        channel.recipient_ids = [u.id for u in users]
        channel.owner_id = users[0].id
        return cls(env, monkeypatch, channel_id=channel.id, guild_id=None, installer=installer,
                   people=users)  # fmt: skip

    @classmethod
    def user_server(
        cls, env: Any, monkeypatch: pytest.MonkeyPatch, channel: Any, members: list[Any], *,
        installer: Any,
    ) -> TokenPlace:  # fmt: skip
        """A server channel where only `installer` installed the app (no server install): the
        bot token reaches no channel of that server. `members` are its MemberActors. SimCord's
        bot still has the server in its cache, and app_permissions stay SimCord's."""
        return cls(env, monkeypatch, channel_id=channel.id, guild_id=channel.guild.id,
                   installer=installer, people=members)  # fmt: skip

    # ----- what people do and see

    async def slash(self, user: Any, name: str, /, **options: Any) -> InteractionResult:
        """`user` runs `/name` ("steal new") with these options, as SimCord's actors do."""
        parts = name.split()
        root = self.env.backend.find_command(parts[0], self.guild_id)
        if root is None or not self.offers(root):
            raise SetupError(f"/{parts[0]} is not offered here (contexts, integration_types)")
        leaf, nesting = interactions.walk_to_subcommand(root, parts[1:])
        built, resolved = interactions.build_options(
            user, name, leaf, options, channel_id=self.channel_id
        )
        data: dict[str, Any] = {
            "id": root["id"], "name": root["name"], "type": root.get("type", 1),
            "options": interactions.nest_options(root, nesting, built),
        }  # fmt: skip
        if resolved:
            data["resolved"] = resolved
        return await self._interact(user, InteractionType.APPLICATION_COMMAND, data)

    async def click(
        self, user: Any, message: Any, *, label: str | None = None, custom_id: str | None = None
    ) -> InteractionResult:
        """`user` clicks a button of a message they see (public, or one of their ephemerals)."""
        backend = self.env.backend
        stored = backend.get_message(self.channel_id, message.id)
        if not stored.visible_to(user.id):
            raise SetupError("that message is not visible to this user")
        button = actors._find_component(
            stored.components, types=(ComponentType.BUTTON,), custom_id=custom_id, label=label
        )
        if button.get("style") in (5, 6) or not button.get("custom_id"):
            raise SetupError("that button is a link or premium button")
        data: dict[str, Any] = {"custom_id": button["custom_id"], "component_type": 2}
        if button.get("id") is not None:
            data["id"] = button["id"]
        extra = {"message": dict(serializers.message_payload(backend, stored))}
        kind = InteractionType.MESSAGE_COMPONENT
        return await self._interact(user, kind, data, extra=extra, source=stored.id)

    def seen_by(self, user: Any) -> list[ResponseMessage]:
        """The channel as `user` sees it, oldest first: every public message and their own
        ephemeral ones."""
        messages = self.env.backend.messages.get(self.channel_id, {})
        return [ResponseMessage(self.env, m) for _, m in sorted(messages.items())
                if m.visible_to(user.id)]  # fmt: skip

    def ephemerals(self, user: Any) -> list[ResponseMessage]:
        return [m for m in self.seen_by(user) if m.ephemeral]

    def offers(self, command: Mapping[str, Any]) -> bool:
        """Whether Discord offers this synced command here (to a user install)."""
        return self.context in (command.get("contexts") or []) and 1 in (
            command.get("integration_types") or []
        )

    @property
    def total(self) -> int:
        return sum(self.requests.values())

    def bot_token_calls(self) -> list[str]:
        """Every bot-token request since the place opened, anywhere, refused ones included."""
        return [f"{r.method} {r.path}" for r in self.env.backend.http_requests[self.opened :]
                if r.path.split("/")[1] not in ("webhooks", "interactions")]  # fmt: skip

    # ----- the interaction, as Discord sends it here

    async def _interact(
        self, user: Any, kind: int, data: dict[str, Any], *,
        extra: dict[str, Any] | None = None, source: int | None = None,
    ) -> InteractionResult:  # fmt: skip
        if user.id not in self.people:
            raise SetupError("that user is not in this place")
        env = self.env
        env._begin_operation("TokenPlace.interact")
        try:
            record, payload = interactions.base_payload(
                env.backend, type=kind, channel_id=self.channel_id, guild_id=self.guild_id,
                user_id=user.id, data=data,
            )  # fmt: skip
            payload["context"] = self.context
            payload["authorizing_integration_owners"] = {"1": str(self.installer.id)}
            if self.guild_id is None:
                payload["channel"] = self._channel_payload()
                payload["app_permissions"] = str(PRIVATE_APP_PERMISSIONS)
            payload.update(extra or {})
            record.source_message_id = source
            self.ids[record.token] = record.id
            env._notify_dispatch_observers(record)
            env.backend.emit("INTERACTION_CREATE", payload)
            await env._settle_internal(dispatch="INTERACTION_CREATE")
            return InteractionResult(env, record)
        finally:
            env._end_operation()

    def _channel_payload(self) -> dict[str, Any]:
        backend = self.env.backend
        channel = backend.get_channel(self.channel_id)
        last = channel.last_message_id
        return {
            "id": str(channel.id), "type": GROUP_DM, "name": channel.name, "icon": None,
            "owner_id": str(channel.owner_id), "flags": 0,
            "last_message_id": str(last) if last else None,
            "recipients": [dict(serializers.user_payload(backend.get_user(i)))
                           for i in channel.recipient_ids],
        }  # fmt: skip

    # ----- what Discord answers here

    def _in_place(self, channel_id: Any) -> bool:
        channel = self.env.backend.channels.get(int(channel_id)) if channel_id else None
        if channel is None:
            return False
        return channel.id == self.channel_id or (
            self.guild_id is not None and channel.guild_id == self.guild_id
        )

    def _dispatch(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            parts = path.strip("/").split("/")
            if backend is not self.env.backend or len(parts) < 2:
                return real(backend, method, path, **kwargs)
            if parts[0] in ("webhooks", "interactions") and len(parts) > 2:
                if parts[2] in self.ids:
                    return self._token_call(real, backend, method, path, parts, **kwargs)
            elif (parts[0] == "channels" and parts[1].isdigit() and self._in_place(parts[1])) or (
                parts[0] == "guilds" and parts[1] == str(self.guild_id)
            ):
                self.refused.append(f"{method} {path}")
                entry = HttpLogEntry(method, path, {}, kwargs.get("json"), None)
                backend.http_requests.append(entry)  # as SimCord logs a refused call
                raise BackendError(403, 50001, "Missing Access")
            return real(backend, method, path, **kwargs)

        return dispatch

    def _token_call(
        self, real: Callable[..., Any], backend: Any, method: str, path: str, parts: list[str],
        **kwargs: Any,
    ) -> Any:  # fmt: skip
        record = backend.interactions[self.ids[parts[2]]]
        self.requests[record.id] += 1
        if parts[0] == "webhooks" and backend.now_iso() >= record.expires_at:
            self.expired.append(record.id)
            raise BackendError(401, 50027, "Invalid Webhook Token")
        followup = parts[0] == "webhooks" and method == "POST" and len(parts) == 3
        followup = followup and not record.loading  # completing a deferred reply is an edit
        if followup and self.followups[record.id] >= FOLLOWUP_CAP:
            self.over_cap.append(record.id)
            raise BackendError(
                400, 40094, "This interaction has hit the maximum number of follow up messages"
            )
        result = real(backend, method, path, **kwargs)
        if followup:
            self.followups[record.id] += 1
        return result

    def _emit(self, real: Callable[..., None]) -> Callable[..., None]:
        def emit(event: str, payload: Mapping[str, Any]) -> None:
            channel = payload.get("channel_id") if isinstance(payload, Mapping) else None
            if event != "INTERACTION_CREATE" and self._in_place(channel):
                self.env.backend.transcript.append(("GATEWAY", event, payload))
                return  # the bot is not in the place: Discord sends it nothing from there
            real(event, payload)

        return emit
