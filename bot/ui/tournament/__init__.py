"""A tournament's screens: the sign-up, a round's tables, the standings (a picture), the
champion, the server's tournaments, and the errors only tournaments have.

Pure functions of the tournament's values (bot.domain.tournament) and the names the bot knows
(entrant id -> display name): no API calls. Each returns a Message whose view is a Components
V2 layout (`Message.files()` gives the discord.Files of its picture). Names people chose are
escaped (bot/ui/names.py); every word is in the catalogs (tour.* keys, tournament_ui.po).
Within Discord's limits with 256 entrants: the sign-up lists the first SIGNUP_SHOWN names,
the standings picture the top STANDINGS_SHOWN rows and the reader's own, a round as many
tables as its text has room for.

By job: `words` (names, numbers, limits), `signup`, `rounds`, `standings` (and the
champion) and `listing` (the server's tournaments, and the errors).
"""

from .listing import ERRORS, tournament_error, tournaments_list_view
from .rounds import blocked_view, round_title, round_view
from .signup import signup_view
from .standings import (
    alt_text,
    champion_view,
    shown_rows,
    standings_scene,
    standings_title,
    standings_view,
)
from .words import (
    ALT_LIMIT,
    GOLDEN,
    LIST_SHOWN,
    MEDALS,
    NAME_CHARS,
    ROUND_NAME_CHARS,
    SIGNUP_SHOWN,
    STANDINGS_PNG,
    STANDINGS_SHOWN,
    TEXT_BUDGET,
    entrant_name,
    entrant_shown,
    format_words,
    number,
    tournament_name,
)

__all__ = [
    "ALT_LIMIT",
    "ERRORS",
    "GOLDEN",
    "LIST_SHOWN",
    "MEDALS",
    "NAME_CHARS",
    "ROUND_NAME_CHARS",
    "SIGNUP_SHOWN",
    "STANDINGS_PNG",
    "STANDINGS_SHOWN",
    "TEXT_BUDGET",
    "alt_text",
    "blocked_view",
    "champion_view",
    "entrant_name",
    "entrant_shown",
    "format_words",
    "number",
    "round_title",
    "round_view",
    "shown_rows",
    "signup_view",
    "standings_scene",
    "standings_title",
    "standings_view",
    "tournament_error",
    "tournament_name",
    "tournaments_list_view",
]
