"""Every message of a game renders in every language: lobby, table, hands, choices, the log,
the end screen, the errors and the replies. No raw keys, no missing catalog entries, nothing
over Discord's limits; and the other languages are really translated."""

from __future__ import annotations

import dataclasses
import inspect
import logging
import random
from functools import cache
from string import Formatter

import discord
import pytest

import bot.session.errors as errors
from bot.domain.match import Match
from bot.engine import PRESETS, Move, Rules, apply, legal_moves, new_game, view
from bot.engine.playout import random_game
from bot.i18n import LANGUAGES, LOCALES, key_of, read_catalog, read_file, t, tn
from bot.session import Lobby, SessionError, Table
from bot.session.results import standing
from bot.ui import hand_message as hand_ui
from bot.ui import render
from bot.ui.end_screen import final
from bot.ui.highlights import highlights
from bot.ui.table import table as table_card
from bot.ui.text import describe, error_text, names_of
from tests.ui.helpers import rules_embed

KEYS = {key_of(m) for m in read_catalog("en") if m.id}
NAMES = {"1": "Ann", "2": "Bob", "3": "Cat"}
SEATS = ("1", "2", "ai:medium:1")
PLAY = LOCALES / "en" / "LC_MESSAGES" / "play.po"
ENGLISH = {key_of(m): m for m in read_file(PLAY, "en") if m.id}
PLAY_KEYS = sorted(ENGLISH)  # the game's own keys


def texts(message: render.Message | discord.Embed) -> list[str]:
    """Every string a message shows, checking Discord's length limits on the way."""
    embed = message if isinstance(message, discord.Embed) else message.embed
    out = [] if isinstance(message, discord.Embed) else [message.content or ""]
    if embed is not None:
        assert len(embed.title or "") <= 256
        out += [embed.title or "", embed.description or "", embed.footer.text or ""]
        for f in embed.fields:
            assert 0 < len(f.name) <= 256 and 0 < len(f.value) <= 1024, (f.name, f.value)
            out += [f.name, f.value]
    if isinstance(message, render.Message) and message.v2:
        assert isinstance(message.view, discord.ui.LayoutView)
        assert len(list(message.view.walk_children())) <= 40
        shown = [i.content for i in message.view.walk_children()
                 if isinstance(i, discord.ui.TextDisplay)]  # fmt: skip
        assert sum(len(text) for text in shown) <= 4000
        out += shown
        for item in message.view.walk_children():
            if isinstance(item, discord.ui.Button):
                assert 0 < len(item.label or "") <= 80, item.label
                out.append(item.label or "")
            elif isinstance(item, discord.ui.Select):
                out += [item.placeholder or ""] + [o.label for o in item.options]
    elif not isinstance(message, discord.Embed) and message.view is not None:
        for item in message.view.children:
            assert 0 < len(item.label) <= 80, item.label
            out.append(item.label)
    return out


def in_playoff() -> Table:
    """Three players, two of them tied and playing it off (seat 0 sits out), mid-playoff."""
    rules = Rules(tiebreak="playoff")
    rng = random.Random(12)
    game = new_game(rules, ("1", "2", "3"), seed=12)
    while not view(game, 0).playoff:
        game, _ = apply(game, rng.choice(legal_moves(game)))
    return Table(7, 10, 100, "1", game, version=len(game.moves), away={1}, deadline=2e9)


def mid_game(rules: Rules | None = None) -> Table:
    game = new_game(rules or Rules(double_bundles=True), SEATS, seed=1)
    rng = random.Random(1)
    for _ in range(7):
        game, _ = apply(game, rng.choice(legal_moves(game)))
    match = Match(games=3, scoring="cards", number=2)
    return Table(8, 10, 100, "1", game, version=7, forfeited={1}, away={0}, match=match)


def finished(rules: Rules, players: int, seed: int, **extra) -> Table:
    game = random_game(rules, players, seed)
    game.seats = tuple(str(i + 1) for i in range(players))
    placed = standing(game, extra.get("forfeited", ()))  # as the session sets it at the end
    return Table(9, 10, 100, "1", game, version=len(game.moves), standing=placed, **extra)


EVENTS = [
    {"type": "played", "seat": 0, "card": "13H", "auto": True},
    {"type": "captured", "seat": 0, "card": "13H", "n": 2, "sweep_bonus": True},
    {"type": "played", "seat": 1, "card": "5C", "auto": False},
    {"type": "captured", "seat": 1, "card": "5C", "n": 1},
    {"type": "played", "seat": 2, "card": "5D", "auto": False},
    {"type": "stole", "seat": 2, "card": "5D", "from_seat": 1, "n": 4},
    {"type": "played", "seat": 0, "card": "7S", "auto": False},
    {"type": "trailed", "seat": 0, "card": "7S"},
    {"type": "pool_refilled"},
    {"type": "hands_dealt", "sizes": [4, 4, 4]},
    {"type": "leftovers_awarded", "seat": 1, "n": 1},
    {"type": "leftovers_awarded", "seat": 2, "n": 3},
    {"type": "playoff_started", "number": 1, "seats": [0, 2]},
    {"type": "game_over"},
]


def session_errors() -> list[SessionError]:
    """One of each SessionError class, and every key the session layer and cogs raise."""
    made: list[SessionError] = []
    for cls in vars(errors).values():
        if inspect.isclass(cls) and issubclass(cls, SessionError):
            params = inspect.signature(cls.__init__).parameters
            if "game_id" in params or "channel_id" in params:
                made.append(cls(5))
            elif "limit" in params:
                made += [cls(1), cls(6)]
            elif "reason" in params:
                made.append(cls("7S is not in your hand"))
            else:
                made.append(cls())
    # take values: made on their own
    filled = {"error.bad_match", "error.too_many_games", "error.game_in_thread"}
    made += [
        SessionError(key) for key in PLAY_KEYS if key.startswith("error.") and key not in filled
    ]
    made.append(SessionError("error.bad_match", games=9))
    made.append(SessionError("error.game_in_thread", thread="<#5>"))
    return made


def rendered(lang: str) -> list[str]:
    out: list[str] = []
    seated = ["1", "ai:easy:1", "ai:easy:2"]
    match = Match(games=3, scoring="wins")
    lobby = Lobby(3, 10, 100, "1", PRESETS["casita"], seated, deadline=2e9, match=match)
    out += texts(render.lobby(lang, lobby, NAMES))
    lobby.seats.append("3")
    lobby.match = Match(games=2, scoring="cards")
    out += texts(render.lobby(lang, lobby, NAMES))
    out += texts(render.bot_choice(lang, 3))
    out += texts(render.lobby_expired(lang, 5400)) + texts(render.lobby_emptied(lang))
    for what in ("lobby", "game"):
        for admin in (False, True):
            out += texts(render.cancelled(lang, what, "1", NAMES, admin))
        out += texts(render.ended_by_admin(lang, what, "4", ["1", "2"]))
    out += texts(render.table_moved(lang, 10, 100, 5))

    log = describe(lang, EVENTS, PRESETS["standard"], names_of(lang, SEATS, NAMES))
    assert len(log) == len([e for e in EVENTS if e["type"] != "played"])
    out += log
    for table in (in_playoff(), mid_game()):
        out += texts(table_card(lang, table, NAMES, log))
        for seat in range(len(table.seats)):
            hand = table.hand(seat)
            out += texts(hand_ui.hand(lang, hand, table, NAMES, note="⚠️", picture=b"png"))
    table = mid_game(Rules())
    table.match = None
    out += texts(table_card(lang, table, NAMES, []))
    match = Match(games=3, scoring="wins")
    out += texts(table_card(lang, dataclasses.replace(in_playoff(), match=match), NAMES, []))

    ended = [
        finished(Rules(tiebreak="shared"), 2, 3),  # a shared tie, with leftovers
        finished(Rules(tiebreak="playoff", leftovers="nobody"), 2, 22),  # settled by a playoff
        finished(Rules(), 2, 3),  # a tie, won by the last capturer
        finished(Rules(), 3, 1, forfeited={0}),
        finished(Rules(), 2, 1, forfeited={0, 1}),
        finished(Rules(), 2, 2, match=Match.from_dict({"games": 3, "scoring": "wins",
            "number": 1, "results": [
                {"game_id": 1, "sizes": [30, 22], "places": [0, 1], "forfeited": []}]})),
        finished(Rules(), 2, 2, match=Match.from_dict({"games": 2, "scoring": "cards",
            "number": 2, "winners": [0, 1], "results": [
                {"game_id": 1, "sizes": [26, 26], "places": [0, 0], "forfeited": []}] * 2})),
    ]  # fmt: skip
    for table in ended:
        out += texts(final(lang, table, NAMES, highlights(table.game)))
        out += texts(hand_ui.ended(lang, table, 0, NAMES))
    out += texts(hand_ui.moved(lang)) + texts(hand_ui.closed(lang))
    for rules in (PRESETS["rubamazzo"], Rules(wild_jacks=True)):
        out += texts(rules_embed(lang, rules))
    out += [error_text(lang, error) for error in session_errors()]
    out += choice_buttons(lang)
    out += [filled(lang, key) for key in PLAY_KEYS]  # and any message not reached above
    return out


def choice_buttons(lang: str) -> list[str]:
    """Plays a double-bundles game, rendering every hand on the way, until captures and
    steals (into either bundle) have both been offered."""
    game = new_game(Rules(double_bundles=True), SEATS, seed=4)
    rng = random.Random(4)
    out, seen = [], set()
    while not game.over and len(seen) < 2:
        table = Table(9, 10, 100, "1", game, version=len(game.moves))
        hand = table.hand(table.turn)
        out += texts(hand_ui.hand(lang, hand, table, NAMES))
        for m in hand.legal:
            if m.action != "trail":
                seen.add(m.action)
        game, _ = apply(game, rng.choice(legal_moves(game)))
    assert seen == {"capture", "steal"}
    return out


def filled(lang: str, key: str) -> str:
    """A catalog message with every placeholder given a sample value."""
    message = ENGLISH[key]
    source = message.string[1] if message.pluralizable else message.string
    values = {name: "x" for _, name, _, _ in Formatter().parse(source) if name and name != "n"}
    return tn(lang, key, 2, **values) if message.pluralizable else t(lang, key, **values)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_message_renders(lang, caplog):
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        shown = rendered(lang)
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    raw = sorted({key for text in shown for key in KEYS if key in text})
    assert not raw, f"raw keys in {lang} output: {raw}"
    assert all("{" not in text for text in shown), [text for text in shown if "{" in text]


# Entries that read the same in a language and in English (names, numbers, punctuation).
SAME = {
    "lobby.seat", "hand.other", "final.standing", "final.match_row", "log.auto",
    "table.title", "lobby.match_title", "final.turns", "table.pool",
}  # fmt: skip


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_game_messages_are_translated(lang):
    assert len(PLAY_KEYS) > 150
    same = [
        key for key in PLAY_KEYS
        if key not in SAME and lookup_plain(lang, key) == lookup_plain("en", key)
    ]  # fmt: skip
    assert not same, f"{lang} still English: {same}"


@cache
def catalog_of(lang: str) -> dict:
    return {key_of(m): m for m in read_catalog(lang) if m.id}


def lookup_plain(lang: str, key: str):
    message = catalog_of(lang)[key]
    return message.string if isinstance(message.string, str) else tuple(message.string)[:1]


def test_errors_read_in_the_readers_language():
    """A session error carries a key; the ui writes it in the reader's language."""
    assert error_text("en", errors.NotYourTurn()).startswith("It's not your turn. ")
    assert error_text("fr", errors.NotYourTurn()).startswith("Ce n'est pas ton tour. ")
    assert error_text("es", errors.NoGame()).endswith("con `/robar nueva`.")
    assert error_text("es", errors.TooManyGames(1)).startswith("Este servidor ya tiene 1 sala ")
    assert "nothing changed" in error_text("en", errors.SaveFailed())
    refused = errors.MoveRefused("7S is not in your hand")
    assert "7S is not in your hand" in str(refused) and "7S" not in error_text("it", refused)


def test_english_choices_and_names():
    rules = Rules(double_bundles=True)
    assert names_of("es", ("1", "ai:hard:2"), NAMES)(1) == "🤖 Bot difícil 2"
    name = names_of("fr", ("1", "ai:hard:2"), NAMES)
    assert names_of("en", ("5",), {})(0) == "Player 1"
    assert render.command("es", "new") == "`/robar nueva`"
    move = Move("13H", "steal", 1, 1, 0)
    from bot.engine import BundleView
    from bot.ui.text import move_label

    bundles = ((BundleView(None, 0),) * 2, (BundleView("2S", 1), BundleView("13S", 5)))
    assert move_label("fr", move, rules, (), bundles, name) == (
        "R♡ → vole le tas 2 de 🤖 Bot difficile 2 (5) → ton tas 1"
    )
