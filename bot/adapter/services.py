"""What the cogs and the adapter's handlers use of the running bot: a small protocol, so they
depend on the services, not on the composition root (bot/app.py) or the client."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, cast

import discord

from bot.domain.server_settings import Setting
from bot.session import Sessions

if TYPE_CHECKING:
    from .ephemera import Ephemera
    from .presenter import Presenter
    from .registry import Registry
    from .tournaments import TournamentDesk


class Services(Protocol):
    @property
    def sessions(self) -> Sessions: ...

    @property
    def presenter(self) -> Presenter: ...

    @property
    def ephemera(self) -> Ephemera: ...

    @property
    def settings(self) -> Mapping[str, Setting]: ...

    @property
    def buttons(self) -> Registry: ...

    @property
    def cooldowns(self) -> bool: ...

    @property
    def desk(self) -> TournamentDesk | None: ...


class Host(Protocol):
    """The client, as the handlers see it: its services once start-up has built them."""

    @property
    def app(self) -> Services | None: ...


def services_of(client: discord.Client) -> Services:
    app = cast("Host", client).app
    if app is None:  # an interaction before setup_hook finished: cannot happen once ready
        raise RuntimeError("the bot is still starting")
    return app


def app_of(interaction: discord.Interaction) -> Services:
    """The services an interaction is handled with."""
    return services_of(interaction.client)
