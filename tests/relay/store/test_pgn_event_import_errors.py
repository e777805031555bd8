"""An event's PGN with several tags that cannot be read reports every one, each with its
game and line, and stores nothing."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from relay.domain.formats.pgn_import import PgnImportError
from relay.hub.pgn_event_import import event_games, import_event_pgn
from relay.store.models import Game, Player, Round, Tournament
from relay.store.tournaments import ConflictError
from tests.relay.store.test_pgn_event_import import EVENT, count, game

pytestmark = pytest.mark.both_stores

#: Each game() is eleven lines, and one more for each extra tag.
LINES = 11


def test_three_unreadable_tags_are_reported_together_and_nothing_is_stored(engine):
    text = (
        game("1.1", "Aas, Kari", "Berg, Ann", "1-0", WhiteElo="high")  # line 1
        + game("x", "Cruz, Maria", "Dahl, Eva", "1-0")  # line 13
        + game("2.1", "Aas, Kari", "Cruz, Maria", "1-0")  # line 24: good
        + game("2.2", "Berg, Ann", "Dahl, Eva", "1-0", BlackFideId="D-1")  # line 35
    )
    with Session(engine) as session:
        before = [count(session, m) for m in (Tournament, Player, Round, Game)]
        with pytest.raises(PgnImportError) as caught:
            import_event_pgn(session, event_games(text), who_user="admin")
        assert [count(session, m) for m in (Tournament, Player, Round, Game)] == before
    error = caught.value
    assert [(p.field, p.line) for p in error.problems] == [
        ("game 1", 1),
        ("game 2", 1 + LINES + 1),
        ("game 4", 1 + 3 * LINES + 1),
    ]
    assert [p.message for p in error.problems] == [
        "game 1 (White): Elo 'high' is not a number",
        "game 2 (Cruz, Maria - Dahl, Eva): round 'x' is not a round number",
        "game 4 (Black): FIDE id 'D-1' is not a number",
    ]
    assert str(error).startswith("3 errors: game 1 (White): Elo 'high'")


def test_tags_read_before_a_contradiction_are_reported_instead_of_it(engine):
    text = EVENT.replace('[BlackElo "2300"]', '[BlackElo "?x"]', 1) + game(
        "2.3", "Aas, Kari", "Gran, Ida", "1-0", WhiteFideId="1"
    )
    with Session(engine) as session, pytest.raises(PgnImportError, match="Elo '\\?x'"):
        import_event_pgn(session, event_games(text), who_user="admin")
    # Without the unreadable tag the contradiction is the answer, as before.
    text = EVENT + game("2.3", "Aas, Kari", "Gran, Ida", "1-0", WhiteFideId="1")
    with Session(engine) as session, pytest.raises(ConflictError, match="FIDE id 1 here"):
        import_event_pgn(session, event_games(text), who_user="admin")
