"""The picture's look, shared by the table and the end screen: its sizes, colours and the
plates and frames drawn once."""

from __future__ import annotations

from .cards import BIG, SMALL, Rounded

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 (x1, y1 excluded)
RGB = tuple[int, int, int]

# Shown scaled to the message's width: about 235 px on a 360-px phone. At 480 px a 26-px word
# is shown 12.7 px tall there (words.READABLE), as tall as Discord's small print.
WIDTH = 480
MARGIN = 16
GAP = 12
CARD_GAP = 8
MIN_STEP = 48  # the narrowest overlap of pool cards that still shows a card's rank and suit

FELT = (27, 94, 58)
FELT_DARK = (20, 72, 44)
PANEL = (23, 79, 49)
PANEL_TURN = (40, 118, 74)
GOLD = (255, 202, 40)  # the player to act
CYAN = (84, 214, 236)  # the last move
INK = (18, 32, 40)  # text on the cyan marks
LIGHT = (240, 247, 240)
DIM = (178, 206, 186)
SLOT = (64, 130, 92)
# Each seat's colour: a dot before the name here, and the table message's accent colour
# (bot.ui.table), so the message's edge points at the player to act.
SEAT_RGB = ((52, 152, 219), (230, 126, 34), (155, 89, 182), (46, 204, 113))
DOT = 14  # the seat dot's diameter

TOP = SMALL  # a bundle's top card in a seat's panel: small, so four seats fit a phone
PANEL_H = 48 + TOP.h + 16  # a seat's panel: its name row, then its bundles and hand
PILL_H = 30  # a badge's height
# Antialiased plates and frames, their corners drawn once (supersampling them for every
# picture is slow).
PLATES = {turn: Rounded.make(14, PANEL_TURN if turn else PANEL) for turn in (False, True)}
TURN_FRAME = Rounded.make(15, GOLD, 4)
MARK = 5  # the last move's frame: this far around its card
MARK_FRAME = Rounded.make(BIG.radius + MARK, CYAN, 4)
PILLS = {c: Rounded.make(PILL_H // 2, c) for c in (FELT_DARK, CYAN, DIM)}  # badges
SLOT_FRAME = Rounded.make(BIG.radius, SLOT, 2)  # an empty pool or bundle
