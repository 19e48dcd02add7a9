"""Playing a game in a group DM by clicks through the group-DM layer (tests/e2e/support/
group_dm.py): the table is whichever public message shows it last (it is reposted)."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from tests.e2e.support.group_dm import TokenPlace
from tests.e2e.support.helpers import buttons, gone, is_over, moves_of, table_text, whose_turn


def table_of(gdm: TokenPlace, user: Any) -> Any:
    """The newest public card with the table's buttons (My hand) or the end screen's (a turn
    ping may carry My hand too, but it is no card)."""
    public = [m for m in gdm.seen_by(user) if not m.ephemeral and table_text(m)]
    return next(
        m for m in reversed(public)
        if any(":table:hand:" in (b.get("custom_id") or "") or ":record:" in
               (b.get("custom_id") or "") for b in buttons(m))
    )  # fmt: skip


async def start(gdm: TokenPlace, people: list[Any], lang: str = "en", **options: Any) -> Any:
    """The first person opens a lobby, the others join, the first starts it (its buttons in
    `lang`, the host's)."""
    host, *others = people
    lobby = (await gdm.slash(host, "steal new", **options)).response
    for person in others:
        await gdm.click(person, lobby, label=t(lang, "lobby.button.join"))
    await gdm.click(host, lobby, label=t(lang, "lobby.button.start"))
    return lobby


async def play_one(gdm: TokenPlace, people: list[Any], hands: dict[int, Any]) -> None:
    """The player to act clicks the first move their hand offers; My hand first if they have
    no hand that is current."""
    table = table_of(gdm, people[0])
    player = whose_turn(table, people)
    assert player is not None, table_text(table)
    hand = hands.get(player.id)
    if hand is None or gone(hand._env, hand) or not moves_of(hand):
        mine = next(b["custom_id"] for b in buttons(table) if ":table:hand:" in b["custom_id"])
        hand = hands[player.id] = (await gdm.click(player, table, custom_id=mine)).response
    move = next((b for b in moves_of(hand) if not b.get("disabled")), None)
    assert move is not None, table_text(hand)
    await gdm.click(player, hand, custom_id=move["custom_id"])


async def play_to_end(
    gdm: TokenPlace, people: list[Any], *, pace: float = 0.0, limit: int = 400
) -> int:
    """Moves until the game is over, `pace` seconds of virtual time between two."""
    hands: dict[int, Any] = {}
    moves = 0
    while not is_over(table_of(gdm, people[0])):
        await play_one(gdm, people, hands)
        moves += 1
        if pace:
            await gdm.env.advance_time(pace)
        assert moves < limit, "the game did not end"
    return moves


def bot_token_calls(gdm: TokenPlace) -> list[str]:
    """The bot-token requests since the place opened, but a start-up's own (the application,
    the command sync): after a restart, those are no game's."""
    startup = ("GET /oauth2/applications/@me", "/commands")
    return [
        c for c in gdm.bot_token_calls() if not c.startswith(startup[0]) and startup[1] not in c
    ]
