"""The parts of the running bot the features at the Discord edge are built with: a plain
bundle the composition root (bot/app.py) makes and the client hands to each feature's
`setup`, which passes each of its objects only the parts it uses. Nothing looks it up."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.domain.server_settings import Setting
from bot.session import Sessions

from .edge import Edge
from .ephemera import Ephemera
from .presenter import Presenter
from .registry import Registry
from .tournament import TournamentDesk


@dataclass(frozen=True)
class Services:
    sessions: Sessions
    presenter: Presenter
    ephemera: Ephemera  # answers that go when untrue
    desk: TournamentDesk  # tournaments' threads, sign-up messages and announcements
    edge: Edge  # what every handler shares
    buttons: Registry  # each feature registers its button families here
    settings: Mapping[str, Setting]  # every server setting with its bot-wide default
