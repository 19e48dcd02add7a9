"""Acting as players: open a lobby, join, start, and play through the buttons people see."""

from __future__ import annotations

import re
from typing import Any

# "Turn: **ann**", "Turno: **ann**", "Tour : **ann**": the bold name after the first colon of
# a line (the table's turn line).
TURN = re.compile(r"^[^:\n]*:\s*\*\*(.+?)\*\*", re.MULTILINE)
V2 = 1 << 15  # discord.MessageFlags.components_v2


def components(message) -> list[dict[str, Any]]:
    """Every component of a message (discord.Message or SimCord ResponseMessage) as Discord's
    JSON, nested ones included (a V2 layout's rows, sections and texts), in order."""
    roots = [c if isinstance(c, dict) else c.to_dict() for c in message.components]
    out: list[dict[str, Any]] = []

    def walk(items) -> None:
        for c in items:
            out.append(c)
            walk(c.get("components") or [])
            if isinstance(c.get("accessory"), dict):
                walk([c["accessory"]])

    walk(roots)
    return out


def gone(env, message) -> bool:
    """The message was deleted (an ephemeral one too)."""
    from simcord.backend.errors import BackendError

    try:
        env.backend.get_message(message.channel_id, message.id)
    except BackendError as exc:
        return exc.code == 10008
    return False


def buttons(message) -> list[dict[str, Any]]:
    """Every button of a message, in order, wherever it sits."""
    return [c for c in components(message) if c.get("type") == 2]


def text_of(message) -> str:
    """A message's words: its content, or its layout's text displays."""
    texts = [c["content"] for c in components(message) if c.get("type") == 10]
    return "\n".join(texts) if texts else (message.content or "")


def hand_cards(hand) -> list[str]:
    """The cards a hand holds: as its picture's description says ("Your cards: 9♡ 4♡ ...") on
    the player's turn, else its greyed card buttons (a waiting hand has no picture)."""
    said = [item.get("description") or "" for c in components(hand) if c.get("type") == 12
            for item in c["items"]]  # fmt: skip
    lines = [x for d in said for x in d.splitlines() if x.startswith("Your cards: ")]
    if lines:
        return lines[0].removeprefix("Your cards: ").split()
    return [b["label"] for b in cards_of(hand)]


def moves_of(message) -> list[dict[str, Any]]:
    """A hand's move buttons (each plays its move in one click)."""
    return [b for b in buttons(message) if ":move:" in (b.get("custom_id") or "")]


def labels(message) -> list[str]:
    return [b.get("label") for b in buttons(message)]


def cards_of(message) -> list[dict[str, Any]]:
    """A hand's greyed card buttons (shown while it is not the player's turn)."""
    return [b for b in buttons(message) if ":card:" in (b.get("custom_id") or "")]


def enabled(message) -> list[dict[str, Any]]:
    return [b for b in buttons(message) if not b.get("disabled")]


def texts(message) -> list[str]:
    """The text displays of a V2 message, in order."""
    return [c["content"] for c in components(message) if c.get("type") == 10]


def title(message) -> str:
    """A V2 card's title: its first line, without the heading marks (an embed's title)."""
    shown = texts(message)
    if not shown and message.embeds:
        return message.embeds[0].title or ""
    return shown[0].splitlines()[0].lstrip("#").strip() if shown else ""


def description(message) -> str:
    """The lines under a V2 card's title, in its first text display (an embed's
    description)."""
    shown = texts(message)
    if not shown and message.embeds:
        return message.embeds[0].description or ""
    return "\n".join(shown[0].splitlines()[1:]) if shown else ""


def alt_text(message) -> str:
    """What a V2 message's pictures say to a screen reader: their descriptions (alt text)."""
    return "\n".join(
        item.get("description") or ""
        for c in components(message)
        if c.get("type") == 12
        for item in c["items"]
    )


def fields(message) -> dict[str, str]:
    """A V2 card's sections: each text display that starts with a bold line, name -> the
    lines under it (small print without its "-# "); and in a picture's description, a line
    ending with a colon and the lines after it (the table's "Last moves:")."""
    out = {}
    for shown in texts(message):
        first, _, rest = shown.partition("\n")
        if first.startswith("**") and first.endswith("**"):
            out[first[2:-2]] = "\n".join(line.removeprefix("-# ") for line in rest.splitlines())
    for alt in alt_text(message).split("\n\n"):
        lines = alt.splitlines()
        for i, line in enumerate(lines):
            if line.endswith(":"):
                out[line[:-1].strip()] = "\n".join(lines[i + 1 :])
                break
    return out


# The pool's line: "-# Pool: 9♡ 4♡ · Stock: 36 cards" in words, or in the picture's
# description (without the "-# ").
POOL = re.compile(r"^(?:-# )?[^:\n]+: (.*) · ([^·\n]+)$", re.MULTILINE)


def table_facts(table) -> str:
    """What a table says of the pool and seats: its picture's description, or, when it has
    no picture, its words."""
    return alt_text(table) or table_text(table)


def pool_cards(table) -> list[str]:
    """The pool's cards, as the table lists them."""
    match = POOL.search(table_facts(table))
    assert match, table_facts(table)
    return match.group(1).split()


def stock_text(table) -> str:
    """The table's "Stock: n cards"."""
    match = POOL.search(table_facts(table))
    assert match, table_facts(table)
    return match.group(2)


def seat_field(table, member) -> tuple[str, str]:
    """A player's seat on the table, as (name with its marks, "Bundle: ...\nHand: ...")
    from their line in the picture's description, "ann · away · Bundle: empty · Hand: 4
    cards", or in words with no picture: "-# 🔵 ▶️ **ann** 💤 away · Bundle: ... · Hand: ..."."""
    alt = alt_text(table)
    for line in alt.splitlines():
        if line.startswith(f"{member.name} · "):
            who, _, value = line.rpartition(" · Bundle")
            return who, ("Bundle" + value).replace(" · ", "\n")
    for line in table_text(table).splitlines() if not alt else ():
        if line.startswith("-# ") and f"**{member.name}**" in line:
            who, _, value = line[3:].split(" ", 1)[1].partition(" · ")
            return who.replace("**", ""), value.replace(" · ", "\n")
    raise AssertionError(f"no seat line for {member.name}:\n{table_facts(table)}")


def footer(message) -> str:
    """A V2 card's footer: the small print ("-# " lines) of its last text display."""
    shown = texts(message)
    last = shown[-1].splitlines() if shown else []
    return "\n".join(line[3:] for line in last if line.startswith("-# "))


def table_text(message) -> str:
    """Everything a V2 lobby, table or end screen says in words (or an embed: its title,
    description and fields)."""
    shown = texts(message)
    if not shown and message.embeds:
        embed = message.embeds[0]
        parts = [embed.title or "", embed.description or ""]
        parts += [f"{f.name}: {f.value}" for f in embed.fields]
        return "\n".join(parts)
    return "\n".join(shown)


def accent(message) -> int | None:
    """The accent colour of a V2 message's card."""
    return next((c.get("accent_color") for c in components(message) if c.get("type") == 17), None)


def images(message) -> list[str]:
    """The file names of the pictures a V2 message's galleries show."""
    return [
        item["media"]["url"].rsplit("/", 1)[-1]
        for c in components(message)
        if c.get("type") == 12
        for item in c["items"]
    ]


async def start_game(channel, members, **options):
    """The first member opens a lobby, the others join with the button, the host starts.
    Returns the table message (the lobby message, turned into the table)."""
    host, *others = members
    result = await host.slash(channel, "steal new", **options)
    lobby = result.response
    for m in others:
        await m.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    return lobby


def newest_table(env, channel):
    """A live view of the newest message with a My hand button (a match's next game)."""
    from simcord.results import ResponseMessage

    newest = next(m for m in reversed(channel.history()) if "My hand" in labels(m))
    return ResponseMessage(env, env.backend.get_message(channel.id, newest.id))


def is_over(table) -> bool:
    """The table has turned into the end screen (the one with a Record button)."""
    return any(":record:" in (b.get("custom_id") or "") for b in buttons(table))


def whose_turn(table, members):
    match = TURN.search(table_text(table))
    if match is None:
        return None
    return next(m for m in members if m.name == match.group(1))


async def open_hand(table, player):
    """The player clicks the table's My hand: their hand message."""
    mine = next(b["custom_id"] for b in buttons(table) if ":table:hand:" in b["custom_id"])
    return (await player.click(table, custom_id=mine)).response


async def play_one(table, members, hands) -> None:
    """The player to act clicks the first move their hand offers (one click a move)."""
    player = whose_turn(table, members)
    assert player is not None, table_text(table)
    hand = hands.get(player.id)
    if hand is None or gone(hand._env, hand) or not buttons(hand):  # none, or a newer one
        hand = hands[player.id] = await open_hand(table, player)
    move = next((b for b in moves_of(hand) if not b.get("disabled")), None)
    assert move is not None, text_of(hand)
    await player.click(hand, custom_id=move["custom_id"])


async def play_to_end(table, members, limit: int = 400) -> int:
    hands: dict[int, Any] = {}
    moves = 0
    while not is_over(table):
        await play_one(table, members, hands)
        moves += 1
        assert moves < limit, "the game did not end"
    return moves


def plain(text: str) -> str:
    """Command mentions (</steal new:ID>, shown by each reader's Discord in their language)
    as their base names: "/steal new"."""
    return re.sub(r"</([^:>]+):\d+>", r"/\1", text)
