"""The non-game `/steal` subcommands in a group DM (issue 36), through the group-DM test layer
(tests/e2e/support/group_dm.py): the bot is no member there, so each is answered through the
interaction alone, with no bot-token request, for the installer and for a friend who never
installed the app. The group keeps its own board, names and history under its channel (the
games themselves, which run on tokens, are the lobby's and presenter's tests)."""

from __future__ import annotations

from bot.i18n import t
from bot.ui.text import next_steps
from tests.e2e.support.group_dm import TokenPlace
from tests.e2e.support.helpers import buttons, labels, plain, text_of
from tests.e2e.support.screens import text as screen_text


async def test_rules_stats_boards_and_history_answer_in_a_group_dm(simcord_env, monkeypatch):
    env = simcord_env
    ann, bob, cat = (env.create_user(n) for n in ("ann", "bob", "cat"))
    gdm = TokenPlace.group_dm(env, monkeypatch, [ann, bob, cat], installer=ann)
    for who in (ann, bob):  # the installer, and a friend who did not install it
        rules = await gdm.slash(who, "steal rules")
        assert rules.ephemeral and screen_text(rules.response).startswith("## 📖 Standard rules")
        await gdm.click(who, rules.response, label="Full rules")  # a tab: the same message
        [full] = [b for b in buttons(rules.response) if b.get("label") == "Full rules"]
        assert full.get("disabled")  # the page shown is greyed
        for command in ("steal stats", "steal history", "steal replay"):
            said = await gdm.slash(who, command)
            words = plain(text_of(said.response))
            assert said.ephemeral and "/steal new" in words and "server" not in words, command
        board = await gdm.slash(who, "steal leaderboard")
        assert not board.ephemeral and "leaderboard" in screen_text(board.response)
        assert "server" not in screen_text(board.response)
    theirs = await gdm.slash(ann, "steal stats", member=cat)  # a user: nobody is a member here
    assert theirs.ephemeral and plain(text_of(theirs.response)).startswith("cat hasn't finished")
    asked = await gdm.slash(bob, "steal forget-me")
    assert asked.ephemeral and labels(asked.response) == ["Delete my data", "Keep it"]
    kept = await gdm.click(bob, asked.response, label="Keep it")
    assert kept.response.content == "Nothing was deleted."
    cup = await gdm.slash(ann, "steal tournament new", name="Group Cup")
    assert plain(text_of(cup.response)) == plain(
        t("en", "tour.error.server_only", **next_steps("en"))
    )
    assert [getattr(e, "original", e).key for e in env.errors] == ["tour.error.server_only"]
    # All of it through the interactions: the bot token was not used once, nor refused.
    assert gdm.bot_token_calls() == [] and gdm.refused == [] and gdm.over_cap == []
    # The group's names are kept under its channel, as its board is (guild_of).
    names = env.bot.app.sessions.names_in(gdm.channel_id)
    assert names.get(str(bob.id)) == "bob"
