"""Every command's options, checked by the bot itself before the command runs.

Discord's own client keeps an option within what the command declares (a range, a length,
its choices); a modified client or a raw request does not, and discord.py checks only the
choices (with an error nobody reads). So the command tree checks each option against its
declaration (`CheckedTree.interaction_check`) and refuses what is outside privately, naming
the option as the member's client shows it and what it takes. A text option must also show
something once its invisible and direction-changing characters are dropped.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord import AppCommandOptionType as Kind
from discord import app_commands

from bot.i18n import lookup, t
from bot.ui.names import plain

from .language import user_lang

log = logging.getLogger(__name__)

_NESTED = (Kind.subcommand.value, Kind.subcommand_group.value)
# Options whose value is a snowflake that discord.py resolves (a bad one: TransformerError).
_SNOWFLAKES = (Kind.user, Kind.channel, Kind.role, Kind.mentionable, Kind.attachment)


@dataclass(frozen=True)
class Refusal:
    """Why an option's value is refused: `why` names the catalog message (reply.option.*)."""

    option: str
    why: str  # "range", "length", "choice", "empty", "missing", "bad"
    low: Any = None
    high: Any = None
    choices: tuple[str, ...] = ()


def leaf_options(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The options of the subcommand run (below its groups)."""
    options = list(data.get("options") or [])
    while len(options) == 1 and options[0].get("type") in _NESTED:
        options = list(options[0].get("options") or [])
    return options


def _number(value: Any, kind: Kind) -> bool:
    if isinstance(value, bool):
        return False
    if kind is Kind.integer:
        return isinstance(value, int)
    return isinstance(value, int | float) and math.isfinite(value)


def check_value(param: app_commands.Parameter, value: Any) -> Refusal | None:
    """`value` against what `param` declares: its type, choices, range or length."""
    name, kind = param.display_name, param.type
    if param.choices:
        if value not in {c.value for c in param.choices}:
            return Refusal(name, "choice", choices=tuple(c.name for c in param.choices))
        return None
    low, high = param.min_value, param.max_value
    if kind in (Kind.integer, Kind.number):
        if not _number(value, kind):
            return Refusal(name, "bad")
        if (low is not None and value < low) or (high is not None and value > high):
            return Refusal(name, "range", low, high)
    elif kind is Kind.string:
        if not isinstance(value, str):
            return Refusal(name, "bad")
        if (low is not None and len(value) < low) or (high is not None and len(value) > high):
            return Refusal(name, "length", low, high)
        if not plain(value):  # only spaces, zero-width or bidi characters: shows nothing
            return Refusal(name, "empty")
    elif kind is Kind.boolean:
        if not isinstance(value, bool):
            return Refusal(name, "bad")
    elif kind in _SNOWFLAKES and not (isinstance(value, str) and value.isdigit()):
        return Refusal(name, "bad")
    return None


def check_options(
    command: app_commands.Command[Any, ..., Any], data: Mapping[str, Any]
) -> Refusal | None:
    """The first option of the interaction's `data` that `command` would not take."""
    params = {p.display_name: p for p in command.parameters}
    given: set[str] = set()
    for option in leaf_options(data):
        name = option.get("name")
        param = params.get(name) if isinstance(name, str) else None
        if param is None:
            return Refusal("?", "bad")  # an option it does not have: never echoed
        given.add(param.display_name)
        refusal = check_value(param, option.get("value"))
        if refusal is not None:
            return refusal
    for param in command.parameters:
        if param.required and param.display_name not in given:
            return Refusal(param.display_name, "missing")
    return None


def option_name(lang: str, command: app_commands.Command[Any, ..., Any], option: str) -> str:
    """The option as the member's client shows it (commands are translated per locale)."""
    path = command.qualified_name.replace(" ", ".")
    return lookup(lang, f"cmd.{path}.{option}.name") or option


def choice_name(lang: str, name: str) -> str:
    return lookup(lang, "choice." + name.lower().replace(" ", "_")) or name


def refusal_text(lang: str, command: app_commands.Command[Any, ..., Any], r: Refusal) -> str:
    option = f"`{option_name(lang, command, r.option)}`"
    if r.why == "choice":
        listed = ", ".join(f"`{choice_name(lang, c)}`" for c in r.choices)
        return t(lang, "reply.option.choice", option=option, choices=listed)
    if r.why in ("range", "length") and r.low is not None and r.high is not None:
        return t(lang, f"reply.option.{r.why}", option=option, low=r.low, high=r.high)
    if r.why in ("empty", "missing"):
        return t(lang, f"reply.option.{r.why}", option=option)
    return t(lang, "reply.option.bad", option=option)


def bad_value_text(interaction: discord.Interaction, error: app_commands.AppCommandError) -> str:
    """The answer to an option discord.py could not turn into its value (TransformerError:
    an unknown choice, a member or channel it cannot find) or to options that do not match
    the command (CommandSignatureMismatch): told, never logged as the bot's error."""
    lang = user_lang(interaction)
    command = interaction.command
    name = "?"
    if isinstance(error, app_commands.TransformerError) and isinstance(
        command, app_commands.Command
    ):
        for option in leaf_options(interaction.data or {}):
            if option.get("value") == error.value:
                name = option_name(lang, command, str(option.get("name")))
                break
    return t(lang, "reply.option.bad", option=f"`{name}`")


Settle = Callable[[discord.Interaction], Awaitable[None]]


class CheckedTree(app_commands.CommandTree):
    """The command tree: every command's options are checked before any command runs.
    `settle` reads the server's language setting, so a refusal is in a server's fixed
    language too; discord.py makes the tree with the client (`tree_cls`), so the client hands
    it over then: see `tree_with`."""

    def __init__(self, client: discord.Client, *, settle: Settle, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        self.settle = settle

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.type is not discord.InteractionType.application_command:
            return True  # autocomplete: a value being typed; buttons: their families check
        command = interaction.command
        if not isinstance(command, app_commands.Command):
            return True  # not ours (discord.py answers nothing) or a context menu
        refusal = check_options(command, interaction.data or {})
        if refusal is None:
            return True
        log.info("refused option %s (%s) of %s in guild %s", refusal.option, refusal.why,
                 command.qualified_name, interaction.guild_id)  # fmt: skip
        await self.settle(interaction)
        lang = user_lang(interaction)
        await interaction.response.send_message(
            refusal_text(lang, command, refusal), ephemeral=True
        )
        return False


def tree_with(settle: Settle) -> type[CheckedTree]:
    """The tree class discord.py's Bot makes its tree with (`tree_cls`), `settle` handed in at
    construction."""

    class Tree(CheckedTree):
        def __init__(self, client: discord.Client, **kwargs: Any) -> None:
            super().__init__(client, settle=settle, **kwargs)

    return Tree
