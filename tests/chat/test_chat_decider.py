"""The chat's decider and word filter, pure (issue 53): mutes, a suspension that ends on time,
an undo that restores, and the filter in English and Korean."""
from __future__ import annotations

import pytest

from api.chat import decider as d
from api.chat.words_filter import DEFAULT_EN, WordFilter, word_list


def _run(commands):
    state, events = d.State(), []
    for c in commands:
        new = d.decide(state, c)
        state = d.fold(new, state)
        events += new
    return state, events


def test_a_suspension_ends_on_time_and_an_undo_lifts_it():
    state, _ = _run([d.Command("suspend", "mod", 1000, player="bob", scope="chat", until=61_000, reason="spam", id="a1")])
    assert d.suspension(state, "bob", "chat", 60_999)["action"] == "a1"
    assert d.suspension(state, "bob", "chat", 61_000) is None  # over on time, with no event
    assert d.suspension(state, "bob", "play", 2000) is None  # a scope of its own
    undone, events = _run([d.Command("suspend", "mod", 1000, player="bob", scope="chat", until=61_000, reason="x",
                                     id="a1"), d.Command("undo", "mod", 2000, id="a1", reason="appeal")])
    assert d.suspension(undone, "bob", "chat", 3000) is None and events[-1]["type"] == d.UNDONE
    with pytest.raises(d.AlreadyDone):
        d.decide(undone, d.Command("undo", "mod", 3000, id="a1"))
    with pytest.raises(d.UnknownAction):
        d.decide(undone, d.Command("undo", "mod", 3000, id="nope"))
    with pytest.raises(ValueError):
        d.decide(d.State(), d.Command("suspend", "mod", 5000, player="bob", scope="chat", until=5000))


def test_a_hidden_message_is_restored_by_the_undo():
    state, _ = _run([d.Command("hide", "mod", 1, message="game:g:table/1-0", id="h1", reason="insult")])
    assert d.hidden(state) == {"game:g:table/1-0"}
    state, _ = _run([d.Command("hide", "mod", 1, message="game:g:table/1-0", id="h1", reason="insult"),
                     d.Command("undo", "mod", 2, id="h1", reason="mistake")])
    assert d.hidden(state) == frozenset()


def test_mutes_are_a_players_own_and_a_second_changes_nothing():
    state, events = _run([d.Command("mute", "ann", 1, player="bob"), d.Command("mute", "ann", 2, player="bob")])
    assert state.mutes == {("ann", "bob")} and len(events) == 1
    state, _ = _run([d.Command("mute", "ann", 1, player="bob"), d.Command("unmute", "ann", 2, player="bob")])
    assert state.mutes == frozenset()
    with pytest.raises(d.SelfMute):
        d.decide(d.State(), d.Command("mute", "ann", 1, player="ann"))


def test_a_report_is_resolved_once():
    state, _ = _run([d.Command("report", "ann", 1, id="r1", subject={"kind": "player", "player": "bob"}, reason="x")])
    state, _ = _run([d.Command("report", "ann", 1, id="r1", subject={"kind": "player", "player": "bob"}, reason="x"),
                     d.Command("resolve", "mod", 2, id="r1", outcome="dismissed", reason="fine")])
    assert state.reports["r1"]["resolution"]["outcome"] == "dismissed"
    with pytest.raises(d.AlreadyDone):
        d.decide(state, d.Command("resolve", "mod", 3, id="r1", outcome="dismissed"))
    with pytest.raises(d.UnknownReport):
        d.decide(state, d.Command("resolve", "mod", 3, id="r2", outcome="dismissed"))


@pytest.mark.parametrize("said, shown, found", [
    ("Fuck this", "**** this", 1),
    ("shitake mushrooms, bass, class", "shitake mushrooms, bass, class", 0),  # whole words only
    ("you BITCH you asshole", "you ***** you *******", 2),
    ("씨발", "**", 1),
    ("씨발놈아 뭐해", "**놈아 뭐해", 1),  # inside a longer word: Korean attaches its particles
    ("씨 발", "* *", 1),  # spaced out
    ("씨1발", "***", 1),  # a digit between
    ("병신같이 지랄하네", "**같이 **하네", 2),
    ("안녕하세요 좋은 게임", "안녕하세요 좋은 게임", 0),
])
def test_the_word_filter_in_both_languages(said, shown, found):
    assert WordFilter().apply(said) == (shown, found)


def test_the_lists_are_configurable():
    assert word_list("", DEFAULT_EN) == DEFAULT_EN and word_list("-", DEFAULT_EN) == ()
    custom = WordFilter(word_list("darn, heck", DEFAULT_EN), word_list("바보", ()))
    assert custom.apply("darn it, fuck, 바보야") == ("**** it, fuck, **야", 2)
    assert WordFilter((), ()).apply("fuck 씨발") == ("fuck 씨발", 0)


def test_a_snapshot_restores_the_state_it_was_taken_of():
    state, _ = _run([d.Command("mute", "ann", 1, player="bob"), d.Command("mute", "bob", 2, player="ann"),
                     d.Command("report", "ann", 3, id="r1", subject={"kind": "player", "player": "bob"}, reason="x"),
                     d.Command("hide", "mod", 4, id="a1", message="dm:ann:bob/1-0", reason="rude"),
                     d.Command("undo", "mod", 5, id="a1"),
                     d.Command("resolve", "mod", 6, id="r1", outcome="actioned", actions=("a1",))])
    from events import codec

    assert d.restored(codec.loads(codec.dumps_bytes(d.snapshot(state)))) == state
    assert d.restored(d.snapshot(d.State())) == d.State()
