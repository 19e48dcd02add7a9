"""The playground's live page (bot/playground_live.py): AI seats play on with nobody clicking,
and the page in headless Chromium follows the bot (each AI move, a tournament's threads)."""

from __future__ import annotations

import itertools
import json
import sys

import pytest

from tests.support.page_scripts import CLICK, PICK, RECORD, SHOWN
from tests.support.playground import Page, labels_of, open_page, playground, shown_text, walk

# The AI seats' pace in the game played in Chromium (`--bot-delay`): two thirds of the
# people's 1.5 s, still twice the page's 0.5 s poll, so the page shows each AI move on its own.
PACE = 1.0


async def test_each_ai_move_in_the_playground_shows_on_its_own(tmp_path):
    """A click answers with the player's own move; then each AI seat's move lands on its own,
    about BOT_DELAY apart, so the page shows whose turn it is in between."""
    import asyncio
    import time

    from bot.client import StealBot
    from bot.playground import BOT_DELAY, OPTIONS, SETTLE, build_world, simulated
    from tests.e2e.support.helpers import TURN, moves_of, open_hand, table_text

    def turn(table) -> str:
        return TURN.search(table_text(table)).group(1)

    async def turn_becomes(table, wanted, seconds: float) -> None:
        end = time.monotonic() + seconds
        while wanted(turn(table)) is False and time.monotonic() < end:
            await asyncio.sleep(0.05)

    bot = StealBot(tmp_path / "p.db", options=OPTIONS, sync=True)
    try:
        async with simulated(bot) as env:
            channel, (ann, _, _) = build_world(env)
            table = (await ann.slash(channel, "steal new", bots=2)).response
            await ann.click(table, label="Start")
            await turn_becomes(table, lambda who: who == "ann", 4 * BOT_DELAY)
            assert turn(table) == "ann"
            hand = await open_hand(table, ann)
            move = next(b for b in moves_of(hand) if not b.get("disabled"))

            started = time.monotonic()
            await ann.click(hand, custom_id=move["custom_id"])
            answered = time.monotonic() - started

            first = turn(table)
            assert answered < SETTLE and "bot" in first, (answered, first)  # an AI's turn now
            await turn_becomes(table, lambda who: who != first, 2 * BOT_DELAY)
            second = turn(table)
            assert "bot" in second and second != first  # the second AI's turn, on its own
            await turn_becomes(table, lambda who: who == "ann", 2 * BOT_DELAY)
            assert turn(table) == "ann"
    finally:
        if bot.app is not None:
            await bot.app.close()


def control(page: Page, wanted: str) -> str | None:
    """The control key of ann's newest enabled button whose custom id holds `wanted`
    (":move:" for her hand's moves, ":table:hand:" for My hand, ":lobby:start:" for Start):
    custom ids are not in the page's DOM, so they are read through the preview's protocol, as
    ann."""
    messages = sorted(page.refresh().values(), key=lambda m: int(m["id"]), reverse=True)
    for message in messages:
        for button in walk(message):
            if wanted in (button.get("custom_id") or "") and not button.get("disabled"):
                return button["control_key"]
    return None


@pytest.mark.slow  # a playground subprocess and Chromium
def test_ai_moves_show_in_the_page_on_their_own(tmp_path):
    """A game against two AI seats in headless Chromium: ann's page shows every AI move, the
    hand becoming hers again and the end screen without a click of any kind (no Refresh)."""
    import asyncio

    from tests.support.browser import Browser

    async def play(base: str, capability: str) -> tuple[int, int, int, list[list[str]]]:
        ann = Page(base, capability, open_page(base, capability)[0]["viewers"][0]["id"])
        async with Browser(tmp_path / "chromium") as page:
            await page.open(f"{base}/#{capability}")
            # A busy machine may answer after the settle limit (0.8 s at this pace): the bot
            # goes on, and the lobby shows when it is posted. A 40-card deck: 12 moves of
            # ann's where the 52-card one takes 16, and the same page to follow.
            ann.command("steal new", ("settled", "timeout"), bots=2, rules="casita")
            for _ in range(600):
                lobbies = [m for m in ann.refresh().values() if "Start" in labels_of(m)]
                if lobbies:
                    break
                await asyncio.sleep(0.1)
            table_id = max(lobbies, key=lambda m: int(m["id"]))["id"]
            shown = SHOWN % table_id
            await page.until("document.readyState", lambda ready: ready == "complete")
            await page.run(f"window.__table = {json.dumps(table_id)}")
            await page.run(RECORD)
            clicks, again, moves, rounds = 0, 0, 0, []

            def after_ann(seen: list[dict]) -> list[dict]:
                """The states after ann's own move showed (her turn, still, at first)."""
                return list(itertools.dropwhile(lambda s: s["turn"] == "ann", seen))

            def ai_turns_then_ann(seen: list[dict]) -> bool:
                """Her move, then the game's end, or another's turn and then hers again."""
                rest = after_ann(seen)
                return any(s["over"] for s in rest) or any(s["turn"] == "ann" for s in rest)

            async def button_of(wanted: str) -> str:
                """The control key of ann's enabled button whose custom id holds `wanted`, once
                her messages show it: read through the preview's protocol, they may be a
                publish behind what the page in Chromium shows."""
                for _ in range(600):
                    if (key := control(ann, wanted)) is not None:
                        return key
                    await asyncio.sleep(0.1)
                buttons = [(m["id"], b.get("custom_id")) for m in ann.refresh().values()
                           for b in walk(m) if b.get("custom_id")]  # fmt: skip
                raise AssertionError(f"no enabled {wanted} button in 60 s; ann's: {buttons}")

            async def click(wanted: str) -> int:
                """Click ann's button for `wanted` as a person does: once it shows, and the page
                is not busy with an action of its own (it drops a click meanwhile, as SimCord's
                does). SimCord refuses a click made on a revision the bot has since replaced
                ("Action was not completed."): a person clicks again, and so does this, up to
                three times. Returns where the page's record stood at the click it took."""
                nonlocal clicks, again
                for _ in range(4):
                    answered = await page.run("window.__answers.length")
                    for _ in range(1200):  # the key anew each time: the button may be replaced
                        clicked = await page.run(CLICK % await button_of(wanted))
                        if clicked is not None:
                            break
                        await asyncio.sleep(0.05)
                    else:
                        raise AssertionError(f"the page never let ann click {wanted}")
                    answer = await page.until(
                        f"window.__answers.slice({answered}).find((a) => a.kind === 'click')"
                        " ?? null",
                        lambda answer: answer is not None,
                    )
                    if answer["codes"] != ["stale-revision"]:
                        clicks += 1
                        return clicked["start"]
                    again += 1
                raise AssertionError(f"SimCord refused four clicks on {wanted} as stale")

            async def after(at: int) -> list[dict]:
                """What the page showed since `at` once the AI seats played and it was ann's
                turn again (or the end); if it never was, the page's answers to its last
                actions say why (a click SimCord refused, or one the bot did not settle)."""
                try:
                    return await page.until(f"window.__seen.slice({at})", ai_turns_then_ann)
                except AssertionError as stuck:
                    answers = await page.run("window.__answers.slice(-3)")
                    raise AssertionError(f"{stuck}; the page's last answers: {answers}") from None

            await click(":lobby:start:")
            await page.until(shown, lambda s: s["turn"] is not None)
            while True:
                # Nothing is clicked until the page, on its own, shows ann's turn or the end.
                state = await page.until(shown, lambda s: s["over"] or s["turn"] == "ann")
                if state["over"]:
                    return clicks, again, moves, rounds
                if control(ann, ":move:") is None:  # no hand yet: My hand, once
                    await click(":table:hand:")
                at = await click(":move:")
                moves += 1
                # What the page showed, change by change, until ann's turn came back.
                seen = await after(at)
                turns: list[str] = []
                for state in after_ann(seen):
                    if state["over"] or state["turn"] == "ann":
                        break
                    if state["turn"] and state["turn"] not in turns:
                        turns.append(state["turn"])
                rounds.append(turns)
                assert moves < 60, "the game did not end"

    command = [sys.executable, "-m", "bot.playground", "--port", "0", "--no-browser"]
    command += ["--bot-delay", str(PACE)]
    with playground(tmp_path, tmp_path / "playground.db", command) as (_, base, capability, _l):
        clicks, again, moves, rounds = asyncio.run(play(base, capability))
    # One click a move, plus Start and My hand, where twice as many were needed when each AI
    # move waited for Refresh (a click refused as stale and made again counts once).
    assert moves >= 5 and clicks == moves + 2, (clicks, moves, again)
    # Between two of ann's moves the page showed both AI seats' turns (the second one's only
    # by itself), in most rounds at least: a very busy machine may merge two changes.
    both = [turns for turns in rounds if len(turns) == 2]
    assert len(both) * 2 >= len(rounds), rounds
    assert {name for turns in rounds for name in turns} == {"🤖 Medium bot", "🤖 Medium bot 2"}


async def test_ai_seats_play_on_when_the_bot_overran_simcords_settle_limit(tmp_path):
    """SimCord fires the bot's timers on the wall clock and then waits for the bot to settle;
    when the bot takes longer (a busy machine, several tables' pictures), SimCord keeps the
    timeout for the next page action and fires no timer until then. The playground drops it,
    so AI seats (and turn, lobby and tournament deadlines) go on with nobody clicking."""
    import asyncio
    import time

    import simcord

    from bot.client import StealBot
    from bot.playground import OPTIONS, SETTLE, build_world
    from bot.playground_live import Live
    from tests.e2e.support.helpers import TURN, moves_of, open_hand, table_text

    def turn(table) -> str:
        return TURN.search(table_text(table)).group(1)

    async def turn_becomes(table, wanted: str, seconds: float = 60) -> None:
        end = time.monotonic() + seconds  # a bounded wait for the wall-clock timers
        while turn(table) != wanted and time.monotonic() < end:
            await asyncio.sleep(0.05)

    bot = StealBot(tmp_path / "p.db", options=OPTIONS, sync=True)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, (ann, _, _) = build_world(env)
            table = (await ann.slash(channel, "steal new", bots=2)).response
            await ann.click(table, label="Start")
            await turn_becomes(table, "ann")
            hand = await open_hand(table, ann)
            move = next(b for b in moves_of(hand) if not b.get("disabled"))
            env.settle_timeout = SETTLE  # the click ends with ann's own move, as in the page
            await ann.click(hand, custom_id=move["custom_id"])
            assert turn(table) != "ann"
            env.settle_timeout = 0.01  # every timer's work now overruns the limit
            following = asyncio.ensure_future(Live(env, channel).follow())
            try:
                await turn_becomes(table, "ann")
                assert turn(table) == "ann"  # both AI seats played, nobody clicked
            finally:
                following.cancel()
                env.settle_timeout = 5.0
                env._real_advance_task = None  # so the bot shuts down cleanly
    finally:
        if bot.app is not None:
            await bot.app.close()


async def test_the_page_shows_a_tournament_table_in_its_thread(tmp_path):
    """Tournament tables are played in threads: the page's Channel menu lists the channel and
    its threads, and picking one shows it, with its table, to every page."""
    import aiohttp
    import simcord

    from bot.client import StealBot
    from bot.playground import OPTIONS, build_world
    from bot.playground_live import CHANNELS, Live
    from tests.support.browser import Browser

    bot = StealBot(tmp_path / "p.db", options=OPTIONS, sync=True)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            channel, (ann, bob, _) = build_world(env)
            live = Live(env, channel)
            preview = env.preview(channel, viewers=[ann, bob], layout="channel", port=0)
            live.attach(preview)
            async with preview, aiohttp.ClientSession() as http:
                base, capability = preview.url.split("/#")
                auth = {"X-Simcord-Capability": capability}

                async def menu(status: int = 200, **query: str) -> dict:
                    async with http.get(base + CHANNELS, params=query, headers=auth) as r:
                        assert r.status == status
                        return await r.json() if status == 200 else {}

                assert (await menu())["channels"] == [
                    {"id": str(channel.id), "name": "#steal-the-bundle"}
                ]
                async with http.get(base + "/") as r:  # the page loads the menu's script
                    assert '<script type="module" src="/playground.js">' in await r.text()

                await ann.slash(channel, "steal tournament new", name="Cup", table_size=2)
                for member in (ann, bob):
                    await member.slash(channel, "steal tournament join")
                await ann.slash(channel, "steal tournament start")
                # The tables' threads are made after the answer: wait for the bot to be idle
                # (a busy machine makes their pictures slowly).
                await env.settle(timeout=60)
                listed = await menu()
                assert [c["name"] for c in listed["channels"]] == [
                    "#steal-the-bundle",
                    "🧵 Cup · R1 T1",
                ]
                thread = listed["channels"][1]["id"]
                # In Chromium: the menu lists the thread; picking it shows the thread.
                async with Browser(tmp_path / "chromium") as browser:
                    await browser.open(preview.url)
                    options = "[...document.querySelectorAll('#playground-channel option')]"
                    await browser.until(f"{options}.length", lambda n: n == 2)
                    await browser.run(PICK % thread)
                    name = "document.querySelector('#channel-name')?.textContent"
                    await browser.until(name, lambda shown: shown == "Cup · R1 T1")
                assert (await menu())["shown"] == thread

                async with http.post(base + "/api/pages", json={}, headers=auth) as r:
                    page = await r.json()
                assert page["channel"]["name"] == "Cup · R1 T1"
                shown = [shown_text(m) for m in page["messages"].values()]
                assert any("Turn: **" in words for words in shown), shown  # the table

                # Only with the page's capability, and only this channel and its threads.
                await menu(404, show=str(channel.id + 1))
                async with http.get(base + CHANNELS) as r:
                    assert r.status == 401
    finally:
        if bot.app is not None:
            await bot.app.close()


def test_the_pages_markdown_parsers_are_kept_and_parse_as_before(monkeypatch):
    """SimCord builds a markdown parser for each text it draws; the playground keeps one per
    field policy and context: the same tokens, one parser built per context."""
    from simcord.preview import _markdown

    from bot.playground_live import reuse_markdown_parsers

    text = "**ann** stole from <@1>: ||a secret|| <https://example.com>"
    bob, cy = {"users": {"1": "bob"}}, {"users": {"1": "cy"}}
    expected = [_markdown.markdown_tokens(text, "message", context=c) for c in (bob, cy)]
    built: list[object] = []
    build = _markdown._markdown_parser

    def counted(policy, context):
        built.append(context)
        return build(policy, context)

    monkeypatch.setattr(_markdown, "_markdown_parser", counted)  # restored after the test
    assert reuse_markdown_parsers()
    for _ in range(3):
        for context, tokens in zip((bob, cy), expected, strict=True):
            assert _markdown.markdown_tokens(text, "message", context=dict(context)) == tokens
    assert built == [bob, cy]
    assert "@bob" in json.dumps(expected[0]) and "@cy" in json.dumps(expected[1])
