"""The emails of a correspondence event (IECG Rules and Regulations 6.4, section C): who
each kind of due item is written to, its subject, its article, the addresses left out, and
bodies that stay within 78 characters a line whatever the names."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.correspondence.letters import GameFacts, Letter, letter
from relay.domain.correspondence.silence import Due, DueKind, Side

WHITE, BLACK, TS = "carlsen@example.org", "nepo@example.org", "ts@example.org"
URL = "https://relay.example.org/events/7/games/12"

FACTS = GameFacts(
    event="IECG Class M 2023",
    game_id=12,
    white="Carlsen",
    black="Nepomniachtchi",
    white_email=WHITE,
    black_email=BLACK,
    ts_email=TS,
    url=URL,
    last_move="23...Nf6",
    last_move_sent=date(2023, 3, 1),
)


def write(kind: DueKind, side: Side = "white", facts: GameFacts = FACTS) -> Letter:
    found = letter(Due(date(2023, 3, 11), kind, side), facts)
    assert found is not None
    return found


def flat(body: str) -> str:
    """The body on one line, so that words wrapped apart can be looked for."""
    return " ".join(body.split())


# Who is written to. ``side`` is White in every case: the waiting player for the reminder
# and the message to the TS, the player concerned for the rest.

RECIPIENTS = {
    DueKind.REMINDER: (BLACK, TS),
    DueKind.INFORM_TS: (TS,),
    DueKind.DOUBLED_TIME: (WHITE,),
    DueKind.SCORE_AS_LOST: (TS, WHITE),
    DueKind.WITHDRAWAL: (WHITE, BLACK, TS),
    DueKind.FLAG: (WHITE, BLACK, TS),
    DueKind.FORFEIT: (WHITE, BLACK, TS),
    DueKind.GAME_LOST: (WHITE, BLACK, TS),
}

GAME = "Carlsen \N{EN DASH} Nepomniachtchi (game 12)"

SUBJECTS = {
    DueKind.REMINDER: f"Reminder: your move in {GAME}",
    DueKind.INFORM_TS: f"No reply from Black in {GAME}",
    DueKind.DOUBLED_TIME: f"Doubled time: your move in {GAME}",
    DueKind.SCORE_AS_LOST: f"May be scored as lost to White: {GAME}",
    DueKind.WITHDRAWAL: f"White withdrawn: {GAME}",
    DueKind.FLAG: f"Flag fell: {GAME}, 0-1",
    DueKind.FORFEIT: f"Game forfeited: {GAME}, 0-1",
    DueKind.GAME_LOST: f"Game lost by silence: {GAME}, 0-1",
}


def test_every_kind_has_its_recipients_and_subject():
    assert set(RECIPIENTS) == set(SUBJECTS) == set(DueKind)


@pytest.mark.parametrize("kind", list(DueKind))
def test_each_kind_goes_to_whom_the_rules_say(kind):
    assert write(kind).to == RECIPIENTS[kind]


@pytest.mark.parametrize("kind", list(DueKind))
def test_the_subject_names_the_event_the_game_and_what_happened(kind):
    assert write(kind).subject == f"[IECG Class M 2023] {SUBJECTS[kind]}"


@pytest.mark.parametrize("kind", list(DueKind))
def test_the_body_gives_the_article_the_day_and_the_game_page(kind):
    body = write(kind).body
    assert f"article {kind.article}" in flat(body)
    assert "11 March 2023" in flat(body)
    assert f"\n{URL}\n" in body


def test_the_reminder_repeats_the_last_move_to_the_silent_player():
    body = flat(write(DueKind.REMINDER).body)
    assert body.startswith("To Nepomniachtchi (Black), with a copy to the Tournament Secretary.")
    assert "the last move is repeated here: 23...Nf6, sent on 1 March 2023." in body
    assert "Please send your reply" in body


def test_the_ts_is_asked_to_decide_on_the_silent_player():
    body = flat(write(DueKind.INFORM_TS, "black").body)
    assert "Carlsen (White) has not replied" in body
    assert "please decide on the game" in body
    assert "Nepomniachtchi (Black) waits for your decision" in body


def test_doubled_time_tells_the_player_to_move_from_when():
    body = flat(write(DueKind.DOUBLED_TIME, "black").body)
    assert body.startswith("To Nepomniachtchi (Black).")
    assert "you have not yet replied to 23...Nf6, sent on 1 March 2023." in body
    assert "From 11 March 2023 your time for this move counts double" in body


@pytest.mark.parametrize(
    ("kind", "side", "result", "winner"),
    [
        (DueKind.FLAG, "white", "0-1", "Nepomniachtchi"),
        (DueKind.FORFEIT, "black", "1-0", "Carlsen"),
        (DueKind.GAME_LOST, "black", "1-0", "Carlsen"),
    ],
)
def test_a_lost_game_gives_both_players_and_the_ts_the_result(kind, side, result, winner):
    found = write(kind, side)
    assert found.to == (WHITE, BLACK, TS)
    assert found.subject.endswith(f", {result}")
    assert f"Result: {result}, {winner} wins." in flat(found.body)


def test_a_withdrawal_leaves_the_game_to_a_replacement():
    body = flat(write(DueKind.WITHDRAWAL, "black").body)
    assert "Nepomniachtchi is withdrawn from the team tournament" in body
    assert "replacement" in body


def test_score_as_lost_goes_to_the_ts_with_a_copy_to_the_player_at_risk():
    found = write(DueKind.SCORE_AS_LOST, "black")
    assert found.to == (TS, BLACK)
    assert "may be scored as lost to Nepomniachtchi" in flat(found.body)


# Addresses that are missing.


def test_a_player_without_an_email_is_left_out():
    found = write(DueKind.FLAG, facts=replace(FACTS, black_email=None))
    assert found.to == (WHITE, TS)


def test_a_blank_address_counts_as_missing():
    found = write(DueKind.REMINDER, facts=replace(FACTS, ts_email="  "))
    assert found.to == (BLACK,)


def test_the_reminder_goes_to_the_ts_alone_if_the_silent_player_has_no_address():
    assert write(DueKind.REMINDER, facts=replace(FACTS, black_email=None)).to == (TS,)


def test_an_address_given_twice_is_written_to_once():
    found = write(DueKind.FLAG, facts=replace(FACTS, ts_email=WHITE))
    assert found.to == (WHITE, BLACK)


@pytest.mark.parametrize(
    ("kind", "missing"),
    [
        (DueKind.INFORM_TS, {"ts_email": None}),
        (DueKind.DOUBLED_TIME, {"white_email": None}),
        (DueKind.REMINDER, {"black_email": None, "ts_email": None}),
        (DueKind.GAME_LOST, {"white_email": None, "black_email": None, "ts_email": None}),
    ],
)
def test_no_letter_when_nobody_can_be_written_to(kind, missing):
    assert letter(Due(date(2023, 3, 11), kind, "white"), replace(FACTS, **missing)) is None


# What is not known, and names that would break a line.


def test_without_a_last_move_the_reminder_only_reminds():
    facts = replace(FACTS, last_move=None, last_move_sent=None)
    body = flat(write(DueKind.REMINDER, facts=facts).body)
    assert "you are reminded." in body
    assert "last move" not in body


def test_a_move_known_only_by_its_day():
    facts = replace(FACTS, last_move=None)
    body = flat(write(DueKind.FLAG, facts=facts).body)
    assert "The last move was the move sent on 1 March 2023." in body


def test_names_are_put_on_one_line():
    facts = replace(FACTS, white="Carlsen,\r\nBcc: x@example.org\x00", event="A\tB")
    found = write(DueKind.FLAG, facts=facts)
    assert found.subject == (
        "[A B] Flag fell: Carlsen, Bcc: x@example.org \N{EN DASH} Nepomniachtchi (game 12), 0-1"
    )


def test_dates_are_in_english_words():
    facts = replace(FACTS, last_move_sent=date(2024, 12, 31))
    assert "sent on 31 December 2024" in flat(write(DueKind.REMINDER, facts=facts).body)


LONG_URL = "https://relay.example.org/" + "events/spring-correspondence-open/" * 3 + "games/12"


@given(
    kind=st.sampled_from(list(DueKind)),
    side=st.sampled_from(["white", "black"]),
    event=st.text(),
    white=st.text(),
    black=st.text(),
    last_move=st.none() | st.text(),
    game_id=st.integers(min_value=1),
)
def test_no_body_line_is_over_78_characters_but_the_address(
    kind, side, event, white, black, last_move, game_id
):
    facts = GameFacts(
        event, game_id, white, black, WHITE, BLACK, TS, LONG_URL, last_move, date(2023, 3, 1)
    )
    found = letter(Due(date(2023, 3, 11), kind, side), facts)
    assert found is not None
    assert [line for line in found.body.splitlines() if len(line) > 78] == [LONG_URL]
    assert len(found.subject.splitlines()) == 1
