"""`/steal`: the one cog of the group (_commands.py), built with each feature it hands its
subcommands to, each feature with only the services it uses."""

from __future__ import annotations

from discord.ext import commands

from bot.adapter.services import Services
from cogs.boards import Boards
from cogs.play import Play
from cogs.tournament import Tournaments

from ._commands import Steal

__all__ = ["Steal", "build", "setup"]


def build(services: Services) -> Steal:
    """The cog and its features, each given the parts it uses."""
    sessions, edge = services.sessions, services.edge
    play = Play(sessions, services.presenter, services.ephemera, edge)
    boards = Boards(sessions, edge)
    tournaments = Tournaments(sessions, services.desk, edge)
    return Steal(play, boards, tournaments, edge, services.buttons)


async def setup(bot: commands.Bot, services: Services) -> None:
    await bot.add_cog(build(services))
