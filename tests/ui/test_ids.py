"""Button custom_ids: `parse` is the bot's door for untrusted input.

It must never raise, must refuse (None) anything the bot could not have written, and must read
back every id the bot writes.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.engine import ACTIONS, RANK, Move
from bot.ui import ids

MAX_ID = 10**18 - 1  # 18 digits: the most `parse` reads
numbers = st.integers(min_value=0, max_value=MAX_ID)
cards = st.sampled_from(sorted(RANK))
slots = st.one_of(st.none(), st.integers(min_value=0, max_value=3))
moves = st.builds(Move, cards, st.sampled_from(ACTIONS), slots, slots, slots)
KINDS = (
    "lobby", "table", "card", "move", "back", "hint", "confirm", "board", "record", "rematch",
    "admin", "tour",
)  # fmt: skip


def written(action: ids.Action) -> str:
    """The custom_id the bot writes for an action: the inverse of parse."""
    if action.kind == "lobby":
        return ids.lobby(action.op, action.game_id)
    if action.kind == "table":
        return ids.table(action.op, action.game_id)
    if action.kind == "confirm":
        return ids.confirm(action.op, action.game_id, action.yes)
    if action.kind == "card":
        return ids.card(action.game_id, action.version, action.card)
    if action.kind == "back":
        return ids.back(action.game_id, action.version)
    if action.kind == "hint":
        return ids.hint(action.game_id, action.version)
    if action.kind == "board":
        return ids.board(action.op, action.game_id)
    if action.kind == "record":
        return ids.record(action.game_id)
    if action.kind == "rematch":
        return ids.rematch(action.game_id)
    if action.kind == "admin":
        return ids.admin(action.op, action.expires, action.game_id, action.yes)
    if action.kind == "tour":
        return ids.tour(action.op, action.game_id)
    assert action.kind == "move" and action.move is not None
    return ids.move(action.game_id, action.version, action.move)


# Every id the bot can write, by kind.
bot_ids = st.one_of(
    st.builds(ids.lobby, st.sampled_from(ids.LOBBY_OPS), numbers),
    st.builds(ids.table, st.sampled_from(ids.TABLE_OPS), numbers),
    st.builds(ids.card, numbers, numbers, cards),
    st.builds(ids.move, numbers, numbers, moves),
    st.builds(ids.back, numbers, numbers),
    st.builds(ids.hint, numbers, numbers),
    st.builds(ids.confirm, st.sampled_from(ids.CONFIRM_OPS), numbers, st.booleans()),
    st.builds(ids.board, st.sampled_from(ids.SORTS), numbers),
    st.builds(ids.record, numbers),
    st.builds(ids.rematch, numbers),
    st.builds(ids.admin, st.sampled_from(ids.ADMIN_OPS), numbers, numbers, st.booleans()),
    st.builds(ids.tour, st.sampled_from(ids.TOUR_OPS), numbers),
)

# Fields that look like the real ones, and junk.
junk_field = st.one_of(
    st.text(max_size=6),
    st.from_regex(r"-?\d{1,25}", fullmatch=True),  # any digits, Unicode ones included
    cards,
    st.sampled_from(
        [
            *ids.LOBBY_OPS,
            *ids.TABLE_OPS,
            *ids.CONFIRM_OPS,
            *ids.SORTS,
            *ids.TOUR_OPS,
            *"cst-",
            "yes",
            "no",
        ]
    ),
    st.sampled_from(["", " ", "0", "00", "01", "4", "9" * 18, "9" * 19, "1e3", "0x1", "²", "٣"]),
)
prefixed_junk = st.builds(
    lambda prefix, kind, fields: ":".join([prefix, kind, *fields]),
    st.sampled_from([ids.PREFIX, ids.PREFIX, "STB", "stb ", ""]),
    st.one_of(st.sampled_from(KINDS), st.text(max_size=5)),
    st.lists(junk_field, max_size=9),
)


# ----- never raises


@given(st.text())
@example("")
@example("stb:")
@example("stb:card:")
@example("stb:\x00")
def test_parse_never_raises_on_any_text(custom_id):
    assert ids.parse(custom_id) is None or isinstance(ids.parse(custom_id), ids.Action)


@given(prefixed_junk)
def test_parse_never_raises_on_junk_with_real_prefixes(custom_id):
    result = ids.parse(custom_id)
    assert result is None or isinstance(result, ids.Action)


@pytest.mark.parametrize("value", [None, 7, b"stb:table:hand:1", ["stb:table:hand:1"]])
def test_parse_refuses_what_is_not_a_string(value):
    assert ids.parse(value) is None


# ----- round trips


@given(bot_ids)
def test_every_id_the_bot_writes_reads_back(custom_id):
    action = ids.parse(custom_id)
    assert action is not None, custom_id
    assert written(action) == custom_id
    assert len(custom_id) <= 100  # Discord's custom_id limit


@given(numbers, numbers, cards)
def test_card_round_trip(game, version, card):
    assert ids.parse(ids.card(game, version, card)) == ids.Action(
        "card", game, version=version, card=card
    )


@given(numbers, numbers, moves)
def test_move_round_trip(game, version, move):
    action = ids.parse(ids.move(game, version, move))
    assert action == ids.Action("move", game, version=version, card=move.card, move=move)


@given(numbers, numbers)
def test_back_round_trip(game, version):
    assert ids.parse(ids.back(game, version)) == ids.Action("back", game, version=version)


@given(st.sampled_from(ids.LOBBY_OPS), numbers)
def test_lobby_round_trip(op, game):
    assert ids.parse(ids.lobby(op, game)) == ids.Action("lobby", game, op=op)


@given(st.sampled_from(ids.TABLE_OPS), numbers)
def test_table_round_trip(op, game):
    assert ids.parse(ids.table(op, game)) == ids.Action("table", game, op=op)


@given(st.sampled_from(ids.CONFIRM_OPS), numbers, st.booleans())
def test_confirm_round_trip(op, game, yes):
    assert ids.parse(ids.confirm(op, game, yes)) == ids.Action("confirm", game, op=op, yes=yes)


@given(st.sampled_from(ids.ADMIN_OPS), numbers, numbers, st.booleans())
def test_admin_round_trip(op, expires, game, yes):
    action = ids.Action("admin", game, op=op, expires=expires, yes=yes)
    assert ids.parse(ids.admin(op, expires, game, yes)) == action


# ----- malformed ids are None


@given(prefixed_junk)
@example("stb:back:0:00")
@example("stb:table:hand:٣")
def test_anything_accepted_is_exactly_what_the_bot_writes(custom_id):
    """parse's contract: None unless the bot could have sent it. So whatever it accepts must
    be written back, character for character, by the bot's own formatter."""
    action = ids.parse(custom_id)
    if action is not None:
        assert written(action) == custom_id


@given(bot_ids, st.integers(min_value=10**18, max_value=10**40))
def test_huge_numbers_are_refused(custom_id, huge):
    fields = custom_id.split(":")
    numeric = [i for i, f in enumerate(fields) if f.isascii() and f.isdigit()]
    for i in numeric:
        changed = [*fields[:i], str(huge), *fields[i + 1 :]]
        assert ids.parse(":".join(changed)) is None


@given(numbers, numbers, st.text(min_size=1, max_size=4).filter(lambda c: c not in RANK))
def test_unknown_cards_are_refused(game, version, card):
    assert ids.parse(ids.card(game, version, card)) is None
    assert ids.parse(f"stb:move:{game}:{version}:{card}:t:-:-:-") is None


@given(bot_ids, st.text(max_size=8))
def test_extra_fields_are_refused(custom_id, extra):
    assert ids.parse(f"{custom_id}:{extra}") is None


@given(bot_ids)
def test_missing_fields_are_refused(custom_id):
    fields = custom_id.split(":")
    for n in range(len(fields)):
        assert ids.parse(":".join(fields[:n])) is None


@pytest.mark.parametrize(
    "custom_id",
    [
        "stb:card:1:0:ZZ",
        "stb:card:1:0:14H",  # no such rank
        "stb:card:1:0:9X",  # no such suit
        "stb:move:1:0:9H:x:-:-:-",  # no such action
        "stb:move:1:0:9H:t:4:-:-",  # no such seat
        "stb:move:1:0:9H:t:-:-",  # a slot missing
        "stb:card:-1:0:9H",
        "stb:card:1.0:0:9H",
        "stb:card: 1:0:9H",
        "stb:lobby:JOIN:1",
        "stb:lobby:explode:1",
        "stb:table:hand:",
        "stb:confirm:cancel:1:maybe",
        "stb:table:hand:1\n",
        "STB:table:hand:1",
        "stb:table:hand:1234567890123456789",  # 19 digits
        "stb::table:hand:1",
    ],
)
def test_malformed_examples_are_refused(custom_id):
    assert ids.parse(custom_id) is None


@pytest.mark.parametrize(
    "custom_id",
    [
        "stb:table:hand:01",  # a leading zero: the bot writes "1"
        "stb:card:1:007:9H",
        "stb:table:hand:٣",  # ARABIC-INDIC DIGIT THREE: int() reads it as 3
        "stb:card:１:0:9H",  # FULLWIDTH DIGIT ONE
        "stb:back:𝟙:0",  # MATHEMATICAL DOUBLE-STRUCK DIGIT ONE
    ],
)
def test_numbers_the_bot_never_writes_are_refused(custom_id):
    assert ids.parse(custom_id) is None
