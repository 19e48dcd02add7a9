"""An interaction's webhook, from its token alone (so it still works after a restart): it edits
and deletes the interaction's first answer ("@original") and its follow-ups, and sends new
follow-ups. These calls are not bound to the bot's global rate limit (docs/operations.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

if TYPE_CHECKING:
    from discord.types.webhook import Webhook as WebhookPayload


class Hook:
    def __init__(self, client: discord.Client, token: str) -> None:
        if client.application_id is None:
            raise TypeError("an interaction webhook needs the application's id")
        self.client, self.token, self.app_id = client, token, client.application_id

    @property
    def webhook(self) -> discord.Webhook:
        data: WebhookPayload = {"id": self.app_id, "type": 3, "token": self.token}
        return discord.Webhook.from_state(data, self.client._connection)  # as Interaction.followup

    def _http(self) -> dict[str, Any]:
        http = self.client.http
        session = getattr(http, "_HTTPClient__session", None)  # the one Interaction uses
        return {"session": session, "proxy": http.proxy, "proxy_auth": http.proxy_auth}

    async def edit(self, message: int | None, **fields: Any) -> None:
        """Edit a follow-up by its id, or the first answer (None)."""
        if message is not None:
            await self.webhook.edit_message(message, **fields)
            return
        mentions = self.client._connection.allowed_mentions
        with handle_message_parameters(previous_allowed_mentions=mentions, **fields) as params:
            await async_context.get().edit_original_interaction_response(
                self.app_id, self.token, payload=params.payload, multipart=params.multipart,
                files=params.files, **self._http(),
            )  # fmt: skip

    async def delete(self, message: int | None) -> None:
        """Delete a follow-up by its id, or the first answer (None)."""
        if message is not None:
            await self.webhook.delete_message(message)
            return
        await async_context.get().delete_original_interaction_response(
            self.app_id, self.token, **self._http()
        )

    async def send(self, content: str, **fields: Any) -> int:
        """A new public follow-up; its message id."""
        sent = await self.webhook.send(content, wait=True, **fields)
        return sent.id

    async def post(self, **fields: Any) -> int:
        """A new public follow-up made of `fields` (a whole message: its layout, its files);
        its message id."""
        sent = await self.webhook.send(wait=True, **fields)
        return sent.id
