"""One error tree: every exception class of the relay, found by walking its modules, is a
RelayError of the kind intended for it; the collector a file reader uses."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from fastapi import HTTPException

import relay
from relay.domain.errors import (
    Collector,
    InvalidInputError,
    Kind,
    MissingError,
    Problem,
    RefusedError,
    RelayError,
    UnavailableError,
    listing,
)

#: Modules that only run inside another program: Alembic's migration environment.
NOT_IMPORTABLE = {"relay.store.migrations.env"}


def relay_exceptions() -> dict[str, type[BaseException]]:
    """Every exception class defined in the relay package, by qualified name."""
    found: dict[str, type[BaseException]] = {}
    for module_info in pkgutil.walk_packages(relay.__path__, "relay."):
        if module_info.name in NOT_IMPORTABLE:
            continue
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == module.__name__
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


EXCEPTIONS = relay_exceptions()


OTHER, NOT_FOUND, REFUSED = Kind.OTHER, Kind.NOT_FOUND, Kind.REFUSED
INVALID, UNAVAILABLE = Kind.INVALID, Kind.UNAVAILABLE

INTENDED: dict[str, Kind] = {
    # the game room
    "relay.domain.game.arbiter.ArbiterActionError": REFUSED,
    "relay.domain.game.draw_claims.DrawClaimError": REFUSED,
    "relay.domain.game.draw_offers.DrawOfferError": REFUSED,
    "relay.domain.game.entries.EntryConflictError": REFUSED,
    "relay.domain.game.entries.IllegalEntryError": INVALID,
    "relay.domain.game.events.EventFormatError": INVALID,
    "relay.domain.game.keying.KeyingError": REFUSED,
    "relay.domain.game.placement.PlacementError": INVALID,
    "relay.domain.game.score_check.ScoresheetError": INVALID,
    "relay.domain.game.alert_repairs.BoardPositionError": INVALID,
    "relay.domain.game.result_agreement.ResultAgreementError": REFUSED,
    "relay.domain.game.record.GameLogError": REFUSED,
    # the tree itself
    "relay.domain.errors.RelayError": OTHER,
    "relay.domain.errors.MissingError": NOT_FOUND,
    "relay.domain.errors.RefusedError": REFUSED,
    "relay.domain.errors.InvalidInputError": INVALID,
    "relay.domain.errors.UnavailableError": UNAVAILABLE,
    # domain
    "relay.domain.clock.game_clock.ClockAdjustmentError": REFUSED,
    "relay.domain.clock.penalties.PenaltyError": REFUSED,
    "relay.domain.clock.time_control.TimeControlError": INVALID,
    "relay.domain.formats.event_file.EventFileError": INVALID,
    "relay.domain.formats.pgn.PgnExportError": REFUSED,
    "relay.domain.formats.pgn_import.PgnImportError": INVALID,
    "relay.domain.formats.trf.TrfError": INVALID,
    "relay.domain.ladder.rules.LadderError": INVALID,
    "relay.hub.mailer.MailError": UNAVAILABLE,
    "relay.hub.correspondence_checks.CorrespondenceError": REFUSED,
    "relay.hub.correspondence_checks.CorrespondenceInputError": INVALID,
    "relay.hub.correspondence_checks.SweepBusyError": UNAVAILABLE,
    "relay.domain.correspondence.days.ControlError": INVALID,
    "relay.domain.correspondence.days.TurnError": INVALID,
    "relay.domain.correspondence.leave.LeaveDatesError": INVALID,
    "relay.domain.correspondence.leave.LeaveRefusedError": REFUSED,
    "relay.domain.correspondence.silence.GameStateError": INVALID,
    "relay.domain.correspondence.conditional.ConditionalMoveError": INVALID,
    "relay.domain.correspondence.conditional.ConditionalPositionError": REFUSED,
    "relay.domain.correspondence.withdrawal.WithdrawalError": INVALID,
    "relay.domain.correspondence.adjudication.AdjudicationError": REFUSED,
    "relay.domain.correspondence.adjudication.MissedDeadlineError": REFUSED,
    "relay.domain.correspondence.adjudication.InvalidClaimError": INVALID,
    "relay.domain.tournament.berger.BergerError": REFUSED,
    "relay.domain.tournament.knockout.KnockoutError": REFUSED,
    "relay.domain.tournament.ratings.RatingError": INVALID,
    "relay.domain.tournament.scheveningen.ScheveningenError": REFUSED,
    "relay.domain.tournament.swiss.SwissError": REFUSED,
    "relay.domain.tournament.tie_break_editions.UnknownEditionError": INVALID,
    "relay.domain.tournament.tie_break_names.UnknownTieBreakError": INVALID,
    "relay.domain.vocabulary.UnknownWordError": INVALID,
    # store
    "relay.store.access.UnknownRoleError": INVALID,
    "relay.store.engine.StoreError": UNAVAILABLE,
    "relay.store.player_merge.PlayerMergeError": REFUSED,
    "relay.store.tournaments.ConflictError": REFUSED,
    "relay.store.tournaments.NotFoundError": NOT_FOUND,
    # hub
    "relay.hub.backups.BackupError": OTHER,
    "relay.hub.clock_desk.ClockControlError": REFUSED,
    "relay.agent.queue.QueueWriteError": UNAVAILABLE,
    "relay.agent.runner.BoardPortError": UNAVAILABLE,
    "relay.agent.sender.LinkProtocolError": INVALID,
    "relay.hub.agent_links.AgentMessageError": INVALID,
    "relay.store.agent_inputs.InputOrderError": INVALID,
    "relay.hub.hub.BoardInUseError": REFUSED,
    "relay.hub.hub.BoardUnavailableError": UNAVAILABLE,
    "relay.hub.hub.HubClosingError": UNAVAILABLE,
    "relay.hub.hub.NoBoardAssignedError": REFUSED,
    "relay.hub.knockout_round.KnockoutRoundError": REFUSED,
    "relay.hub.ladders.ClubPermissionError": REFUSED,
    "relay.hub.ladders.ClubResultError": REFUSED,
    "relay.hub.outputs.lichess.LichessSetupError": INVALID,
    "relay.hub.outputs.round_copy.OutputError": UNAVAILABLE,
    "relay.hub.trf_import.TrfImportError": INVALID,
    "relay.hub.pairing_desk.PairingRefusedError": REFUSED,
    "relay.hub.pairing_engine.PairingEngineError": REFUSED,
    "relay.hub.player_names.PlayerNameError": INVALID,
    "relay.hub.scheveningen_round.ScheveningenRoundError": REFUSED,
    "relay.hub.swiss_round.SwissRoundError": REFUSED,
    # bus, api, edge, configuration, command line, demo
    "relay.bus.redis_bus.BusError": UNAVAILABLE,
    "relay.api.refusals.HTTPInputError": OTHER,  # an HTTP answer, carried out of a route
    "relay.api.server.ServeError": OTHER,
    "relay.api.text_bodies.NotTextError": INVALID,
    "relay.edge.handshake.HandshakeError": INVALID,
    "relay.edge.joining.StreamRefusedError": REFUSED,
    "relay.config.SettingsError": INVALID,
    "relay.cli.CommandError": OTHER,
    "relay.demo.pgn_round.NoGamesError": INVALID,
    "relay.demo.roster.RosterError": INVALID,
    "relay.demo.run.DemoError": OTHER,
}

#: The base each kept besides the tree, for the ``except`` clauses written for it; the others
#: not listed here kept ValueError, but for those that had no base but Exception.
BUILT_IN_BASES: dict[str, type[Exception]] = {
    "relay.api.refusals.HTTPInputError": HTTPException,
    "relay.agent.queue.QueueWriteError": OSError,
    "relay.hub.mailer.MailError": OSError,
    "relay.agent.runner.BoardPortError": OSError,
    "relay.api.server.ServeError": OSError,
    "relay.hub.hub.BoardUnavailableError": OSError,
    "relay.hub.hub.NoBoardAssignedError": LookupError,
    "relay.hub.hub.HubClosingError": RuntimeError,
    "relay.hub.correspondence_checks.SweepBusyError": RuntimeError,
    "relay.hub.ladders.ClubPermissionError": PermissionError,
    "relay.store.tournaments.NotFoundError": LookupError,
    "relay.bus.redis_bus.BusError": RuntimeError,
    "relay.cli.CommandError": RuntimeError,
    "relay.demo.run.DemoError": RuntimeError,
    "relay.hub.backups.BackupError": RuntimeError,
    "relay.store.engine.StoreError": RuntimeError,
}

KIND_CLASSES = {
    Kind.NOT_FOUND: MissingError,
    Kind.REFUSED: RefusedError,
    Kind.INVALID: InvalidInputError,
    Kind.UNAVAILABLE: UnavailableError,
}


def test_the_walk_finds_the_relay_exceptions():
    assert len(EXCEPTIONS) > 40
    assert "relay.store.tournaments.NotFoundError" in EXCEPTIONS
    assert "relay.domain.formats.trf.TrfError" in EXCEPTIONS


def test_every_exception_of_the_relay_is_a_relay_error():
    outside = {name for name, cls in EXCEPTIONS.items() if not issubclass(cls, RelayError)}
    assert outside == set()


def test_each_maps_to_its_intended_kind():
    """A new exception class must be given a kind here: the table is the whole tree."""
    kinds = {name: cls.kind for name, cls in EXCEPTIONS.items() if issubclass(cls, RelayError)}
    assert kinds == INTENDED


@pytest.mark.parametrize("name", sorted(INTENDED))
def test_the_kind_is_the_kind_class_it_derives_from(name):
    cls = EXCEPTIONS[name]
    assert issubclass(cls, RelayError)
    if cls.kind is Kind.OTHER:
        assert not issubclass(cls, tuple(KIND_CLASSES.values()))
    else:
        assert issubclass(cls, KIND_CLASSES[cls.kind])
        others = [k for kind, k in KIND_CLASSES.items() if kind is not cls.kind]
        assert not issubclass(cls, tuple(others))


def test_the_built_in_bases_are_kept():
    """``except ValueError`` (and the like) still catch what they caught."""
    had_none = {
        "relay.hub.pairing_engine.PairingEngineError",
        "relay.edge.joining.StreamRefusedError",
        "relay.hub.outputs.round_copy.OutputError",
    }
    other_bases = BUILT_IN_BASES.keys() | had_none
    value_errors = [
        name
        for name in EXCEPTIONS
        if name not in other_bases and not name.startswith("relay.domain.errors.")
    ]
    for name in value_errors:
        assert issubclass(EXCEPTIONS[name], ValueError), name
    for name, base in BUILT_IN_BASES.items():
        assert issubclass(EXCEPTIONS[name], base), name


def test_one_error_is_its_own_problem():
    class UnreadableError(InvalidInputError):
        pass

    assert UnreadableError("bad").problems == (Problem("bad"),)


class LineError(ValueError, InvalidInputError):
    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line

    def problem(self) -> Problem:
        return Problem(str(self), line=self.line)


def read_numbers(text: str) -> list[int]:
    """A reader that collects: each line a number."""
    errors = Collector(LineError)
    numbers = []
    for line, word in enumerate(text.splitlines(), start=1):
        with errors.catching():
            if not word.isdigit():
                raise LineError(f"{word!r} is not a number", line)
            numbers.append(int(word))
    errors.check()
    return numbers


def test_a_collector_reports_every_error_in_one():
    assert read_numbers("1\n2\n") == [1, 2]
    with pytest.raises(LineError) as caught:
        read_numbers("1\nx\n3\ny\nz\n")
    error = caught.value
    assert [p.line for p in error.problems] == [2, 4, 5]
    assert str(error) == "3 errors: line 2: 'x' is not a number; line 4: 'y' is not a number; " + (
        "line 5: 'z' is not a number"
    )
    assert error.line is None
    assert isinstance(error, ValueError)


def test_a_single_error_is_raised_as_it_is():
    with pytest.raises(LineError) as caught:
        read_numbers("1\nx\n")
    assert str(caught.value) == "line 2: 'x' is not a number"
    assert caught.value.line == 2
    assert caught.value.problems == (Problem("line 2: 'x' is not a number", line=2),)


def test_attempt_notes_the_error_and_goes_on():
    errors = Collector(LineError)

    def half(n: int) -> int:
        if n % 2:
            raise LineError(f"{n} is odd", n)
        return n // 2

    assert [errors.attempt(half, n) for n in (4, 3, 2, 1)] == [2, None, 1, None]
    assert len(errors) == 2
    with pytest.raises(LineError, match="2 errors: line 3: 3 is odd; line 1: 1 is odd"):
        errors.check()
    with pytest.raises(LineError, match="2 errors: line 1: 1 is odd; line 3: 3 is odd"):
        errors.check(order=lambda e: e.line)


def test_other_exceptions_are_not_collected():
    errors = Collector(LineError)
    empty: dict[str, int] = {}
    with pytest.raises(KeyError):
        errors.attempt(empty.__getitem__, "x")
    assert len(errors) == 0
    errors.check()  # nothing to raise


def test_listing():
    assert listing([Problem("a")]) == "a"
    assert listing([Problem("a"), Problem("b", line=2)]) == "2 errors: a; b"
