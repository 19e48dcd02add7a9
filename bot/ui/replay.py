"""A finished game, step by step: the states replayed from its stored record, each step's
picture (the table, every hand face up since the game is over) and the viewer message.

`replayed(game_id, record)` plays the record again once (pure engine); `ReplayCache` keeps
recent games' states and pictures, thread-safe, so the cog draws a step in a thread once.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.engine import RANK, BadState, EngineError, Event, Game, Move, apply, view
from bot.engine import replay as replay_record
from bot.engine.serialize import move_from_dict
from bot.i18n import t
from bot.i18n.cards import labels, rank_label
from bot.session.models import Table

from . import ids
from .picture import CardSpot, LastMove, Layout, Scene, draw, encode, layout
from .render import BLUE, Message
from .text import describe, in_text, join_names, names_of


@dataclass(frozen=True)
class Replayed:
    """Every state of a finished game: states[k] is the game after k moves (0: the deal),
    events[k - 1] what move k did."""

    game_id: int
    states: tuple[Game, ...]
    events: tuple[list[Event], ...]
    digest: bytes = b""  # of the record: with game_id, what the cache knows it by

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def clamp(self, step: int) -> int:
        return min(max(step, 0), self.last)

    @property
    def biggest_steal(self) -> int | None:
        """The step of the game's biggest steal (the first, if several tie), or None."""
        best, size = None, 0
        for number, events in enumerate(self.events, start=1):
            for e in events:
                if e["type"] == "stole" and e["n"] > size:
                    best, size = number, e["n"]
        return best


def replayed(game_id: int, record: Mapping[str, Any]) -> Replayed:
    """A record's states, move by move (its playoffs' moves follow the game's). Raises the
    engine's BadState if the record is not one it can play."""
    start = replay_record({**record, "moves": [], "playoffs": [], "result": None})
    states: list[Game] = [start]
    events: list[list[Event]] = []
    game = start
    try:
        moves = list(record["moves"]) + [m for p in record["playoffs"] for m in p["moves"]]
        for data in moves:
            seat, move, auto = move_from_dict(data)
            game, happened = apply(game, Move(*move), seat=seat, auto=auto)
            states.append(game)
            events.append(happened)
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        raise BadState(f"record of game {game_id} does not replay: {exc!r}") from exc
    return Replayed(game_id, tuple(states), tuple(events))


# ----- the picture


def scene(r: Replayed, step: int, names: Mapping[str, str], lang: str) -> Scene:
    table = Table(r.game_id, 0, 0, "", r.states[step], version=step)
    last = LastMove.of(r.events[step - 1]) if step else None
    return Scene.of(table, names, lang, last=last)


def replay_layout(r: Replayed, step: int, names: Mapping[str, str], lang: str) -> Layout:
    """The table at `step` with every hand face up (small cards where the backs would be)."""
    game = r.states[step]
    s = scene(r, step, names, lang)
    lay = layout(s)
    panels = []
    for panel in lay.panels:
        hand = view(game, panel.seat).hand
        if not panel.hand:
            panels.append(panel)
            continue
        # Faces side by side where the backs overlapped, as far as the panel has room.
        x0, y0 = panel.hand[0].rect[:2]
        room = panel.rect[2] - 12 - x0
        step = min(MINI_W + 4, (room - MINI_W) // max(1, len(hand) - 1))
        faces = tuple(
            CardSpot(
                (x0 + i * step, y0, x0 + i * step + MINI_W, y0 + MINI_H), card, "mini",
                rank_label(lang, RANK[card], s.rules),
            )
            for i, card in enumerate(hand)
        )  # fmt: skip
        panels.append(replace(panel, hand=faces))
    return replace(lay, panels=tuple(panels))


def picture(r: Replayed, step: int, names: Mapping[str, str], lang: str) -> bytes:
    return encode(draw(replay_layout(r, step, names, lang)))


MINI_W, MINI_H = 34, 46  # bot.ui.picture.cards.MINI_CARD


class ReplayCache:
    """Recent games' states and step pictures: bounded LRUs, safe to use from threads. A
    picture asked for twice at once may be drawn twice; both give the same bytes."""

    def __init__(self, games: int = 16, pictures: int = 256) -> None:
        self._games: OrderedDict[tuple[int, bytes], Replayed] = OrderedDict()
        self._pictures: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self._sizes = games, pictures
        self._lock = threading.Lock()
        self.renders = 0  # pictures drawn, for tests and figures

    def game(self, game_id: int, record: Mapping[str, Any]) -> Replayed:
        # Keyed by the record too: a game id names one game only within one database (tests,
        # or a database copied over, run several in one process).
        digest = hashlib.blake2b(json.dumps(record, sort_keys=True).encode()).digest()
        key = (game_id, digest)
        with self._lock:
            found = self._games.get(key)
            if found is not None:
                self._games.move_to_end(key)
                return found
        made = replace(replayed(game_id, record), digest=digest)
        with self._lock:
            self._games[key] = made
            while len(self._games) > self._sizes[0]:
                self._games.popitem(last=False)
        return made

    def picture(self, r: Replayed, step: int, names: Mapping[str, str], lang: str) -> bytes:
        key = (r.game_id, r.digest, step, lang, tuple(sorted(names.items())))
        with self._lock:
            found = self._pictures.get(key)
            if found is not None:
                self._pictures.move_to_end(key)
                return found
        png = picture(r, step, names, lang)
        with self._lock:
            self.renders += 1
            self._pictures[key] = png
            while len(self._pictures) > self._sizes[1]:
                self._pictures.popitem(last=False)
        return png


# ----- the viewer message (ephemeral: in the language of the member watching)


def filename(game_id: int, step: int) -> str:
    return f"replay-{game_id}-{step}.png"


def move_words(lang: str, r: Replayed, step: int, names: Mapping[str, str]) -> str:
    """What happened at `step`, in words: the deal, or the move and what followed it."""
    game = r.states[step]
    name = names_of(lang, game.seats, names)
    if step == 0:
        name = in_text(name)
        first = view(game, 0).turn
        return t(lang, "replay.deal", name=name(first) if first is not None else "?")
    lines = describe(lang, r.events[step - 1], game.rules, name)
    return "\n".join(lines)


def result_words(lang: str, game: Game, names: Mapping[str, str]) -> str:
    result = game.result
    if result is None:  # ended by forfeits: no result in the record
        return t(lang, "replay.no_result")
    name = in_text(names_of(lang, game.seats, names))
    winners = join_names(lang, [name(s) for s in result.winners])
    sizes = ", ".join(
        f"{name(s)} {n}" for s, n in sorted(enumerate(result.bundle_sizes), key=lambda x: -x[1])
    )
    return t(lang, "replay.result", winners=winners, sizes=sizes)


def hands_words(lang: str, game: Game, names: Mapping[str, str]) -> str:
    name = in_text(names_of(lang, game.seats, names))
    parts = []
    for seat in range(len(game.seats)):
        hand = view(game, seat).hand
        shown = labels(lang, hand, game.rules) if hand else t(lang, "replay.no_cards")
        parts.append(f"{name(seat)}: {shown}")
    return " · ".join(parts)


def viewer(lang: str, r: Replayed, step: int, names: Mapping[str, str], png: bytes) -> Message:
    """The replay at `step`: the picture, the move in words, and the buttons to move."""
    game = r.states[step]
    last = r.last
    image = filename(r.game_id, step)
    head = t(lang, "replay.title", game=r.game_id)
    where = t(lang, "replay.step", step=step, last=last)
    text = f"## {head}\n{where} · {t(lang, 'replay.all_hands')}"
    words = move_words(lang, r, step, names)
    if step == last:
        words += "\n" + result_words(lang, game, names)
    hands = t(lang, "replay.hands", hands=hands_words(lang, game, names))
    biggest = r.biggest_steal
    g = r.game_id

    def nav(
        name: str, to: int, emoji: str, disabled: bool, label: str | None = None
    ) -> discord.ui.Button[discord.ui.LayoutView]:
        return discord.ui.Button(
            custom_id=ids.replay(g, to, name), emoji=emoji, label=label,
            style=discord.ButtonStyle.secondary, disabled=disabled,
        )  # fmt: skip

    buttons = discord.ui.ActionRow(
        nav("first", 0, "⏮️", step == 0),
        nav("back", max(step - 1, 0), "◀️", step == 0),
        nav("next", min(step + 1, last), "▶️", step == last),
        nav("last", last, "⏭️", step == last),
        nav("steal", biggest or 0, "💥", biggest is None or biggest == step,
            t(lang, "replay.biggest_steal" if biggest else "replay.no_steal")),
    )  # fmt: skip
    view_ = discord.ui.LayoutView(timeout=None)
    view_.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay(text),
            discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{image}")),
            discord.ui.TextDisplay(f"{words}\n-# {hands}"),
            buttons,
            accent_colour=BLUE,
        )
    )
    return Message(view=view_, images=((image, png),))


def unknown(lang: str) -> str:
    """A game this server has no record of (or another server's: it stays private)."""
    return t(lang, "replay.unknown")


def none_yet(lang: str, new: str) -> str:
    return t(lang, "replay.none_yet", new=new)


def replay_button(lang: str, game_id: int) -> discord.ui.Button[discord.ui.View]:
    """The Replay button for a finished game (history entries, the end screen)."""
    return discord.ui.Button(
        custom_id=ids.replay(game_id, 0), label=t(lang, "replay.button"), emoji="🎬",
        style=discord.ButtonStyle.secondary,
    )  # fmt: skip


def step_names(seats: Sequence[str], names: Mapping[str, str]) -> dict[str, str]:
    """Only the seats' names: the cache key stays small and the same for every viewer."""
    return {s: names[s] for s in seats if s in names}
