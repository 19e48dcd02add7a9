"""Whose language a message is in (docs/playing.md, "Languages").

- A server that fixes a language (`/steal-admin`'s language setting) gets it in every message,
  ephemeral ones included: `Edge.settle` reads the setting when an interaction comes in, and
  `user_lang` then answers with it.
- A server that follows its members' languages keeps public messages (lobby, table, end
  screen) in the server's own locale and ephemeral ones in the language of the member who acted.
- A game has one language, the server's when it opened (the lobby's options: "lang", and
  "lang_fixed" when the server fixed it): its cards and AI seats read the same on the table
  and in every hand (`game_lang`), and a game keeps its language if the setting changes later.
"""

from __future__ import annotations

import discord

from bot.i18n import GameLang, language_of
from bot.session import Lobby, Table
from bot.ui.render import public_lang

_SETTLED = "lang"  # interaction.extras: the server's fixed language, read by settle


def settled(interaction: discord.Interaction) -> bool:
    """Whether the server's language setting was read for this interaction (Edge.settle)."""
    return _SETTLED in interaction.extras


def fix(interaction: discord.Interaction, configured: str) -> None:
    """The server's language setting, as read at the interaction's entry (Edge.settle): a
    fixed language answers every reply."""
    interaction.extras[_SETTLED] = None if configured == "follow" else configured


def user_lang(interaction: discord.Interaction) -> str:
    """The language of an ephemeral reply: the server's if it fixes one (`settle`), else the
    member's own (English if unsupported)."""
    return interaction.extras.get(_SETTLED) or language_of(interaction.locale)


def game_lang(interaction: discord.Interaction, game: Lobby | Table) -> str:
    """The language of an ephemeral reply about a lobby or game (a hand, a hint, an error):
    the game's in a game whose server fixed its language; else the reader's words with the
    game's cards and AI names (GameLang)."""
    return reader_in_game(user_lang(interaction), game)


def reader_in_game(reader: str, game: Lobby | Table) -> str:
    """`game_lang` for a reader whose language is known (a stored open hand's)."""
    public = public_lang(game)
    if game.setup.lang_fixed:
        return public
    return GameLang(reader, public)


def public_in(interaction: discord.Interaction, configured: str) -> str:
    """The language of public messages in the interaction's server, whose language setting
    is `configured` (Edge.guild_lang reads it)."""
    if configured != "follow":
        return configured
    guild = interaction.client.get_guild(interaction.guild_id or 0)
    locale = guild.preferred_locale if guild is not None else None
    if locale is None:
        locale = interaction.guild_locale
    return language_of(locale)
