"""The lichess output against a local server that plays lichess' push endpoint
(``POST /api/broadcast/round/{id}/push``): real sockets, real PGN, lichess' answers."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from email.utils import formatdate

import chess
import chess.pgn
import pytest

from relay.domain.formats.output_setup import LichessSetup
from relay.domain.formats.pgn import GameHeaders, PgnMove, PlayerTags, render_game, render_round
from relay.domain.results import Result
from relay.hub.outputs.lichess import (
    RATE_LIMIT_WAIT,
    LichessPush,
    LichessSetupError,
    retry_after,
)
from relay.hub.outputs.round_copy import GameCopy, OutputError, RoundCopy
from tests.data_files import DATA
from tests.fake_lichess import (
    ROUND_1,
    ROUND_2,
    TOKEN,
    FakeLichess,
    Push,
    Reply,
    fake_lichess,
    json_reply,
    parsed_game,
    read_pushed,
    split_games,
)

# --- the rounds: real games, rendered as the hub renders them ------------------------------


def _games(path: str) -> list[chess.pgn.Game]:
    games = []
    with (DATA / path).open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return games


def _moves(game: chess.pgn.Game) -> list[PgnMove]:
    moves = []
    for node in game.mainline():
        assert node.parent is not None
        moves.append(PgnMove(node.parent.board().san(node.move), node.clock(), spent=node.emt()))
    return moves


def _player(tags: chess.pgn.Headers, colour: str) -> PlayerTags:
    def number(name: str) -> int | None:
        value = tags.get(f"{colour}{name}")
        return int(value) if value and value.isdigit() else None

    return PlayerTags(
        tags[colour],
        rating=number("Elo"),
        title=tags.get(f"{colour}Title"),
        fide_id=number("FideId"),
    )


def _round(games: list[chess.pgn.Game], number: int, *, moves: bool, first_id: int) -> RoundCopy:
    """The games as the hub publishes round ``number``: our tags, in board order."""
    copies = []
    for game in games:
        tags = game.headers
        board = int(tags["Round"].split(".")[1])
        headers = GameHeaders(
            event=tags["Event"],
            site=tags["Site"],
            date="2024.12.26",
            round=number,
            board=board,
            white=_player(tags, "White"),
            black=_player(tags, "Black"),
            result=Result(tags["Result"]) if moves else Result.ONGOING,
            game_id=str(first_id + board),
            time_control="900+10",
        )
        pgn = render_game(headers, _moves(game) if moves else [])
        copies.append(GameCopy(board=board, game_id=first_id + board, pgn=pgn))
    copies.sort(key=lambda copy: copy.board)
    return RoundCopy(
        tournament_id=7,
        tournament=games[0].headers["Event"],
        round_id=100 + number,
        number=number,
        cut=time.time() - 900,
        pgn=render_round(copy.pgn for copy in copies),
        games=tuple(copies),
    )


#: Round 1: the 12 games of a junior event recorded on DGT boards, with clocks (in the file
#: in the order 1, 10, 11, 12, 2, ...: board order is not file order).
JUNIOR_GAMES = [
    game for game in _games("real-games.pgn") if game.headers["Event"] == "Sample Invitational 2023"
]
JUNIORS = _round(JUNIOR_GAMES, 1, moves=True, first_id=1000)
#: Round 2: the pairings of a real rapid championship's first round before its games start,
#: with titles, ratings and FIDE ids (the first 20 boards).
RAPID = _round(
    [
        g
        for g in _games("fide-womens-world-rapid-2024-results.pgn")
        if g.headers["Round"].split(".")[0] == "1"
    ][:20],
    2,
    moves=False,
    first_id=2000,
)


def _renumbered(copy: RoundCopy, number: int) -> RoundCopy:
    return RoundCopy(
        tournament_id=copy.tournament_id,
        tournament=copy.tournament,
        round_id=copy.round_id + 100,
        number=number,
        cut=copy.cut,
        pgn=copy.pgn,
        games=copy.games,
    )


# --- a local lichess ----------------------------------------------------------------------


@pytest.fixture
def lichess() -> Iterator[FakeLichess]:
    with fake_lichess() as fake:
        yield fake


def _setup(
    url: str,
    rounds: tuple[tuple[int, str], ...] = ((1, ROUND_1), (2, ROUND_2)),
    token_env: str = "LICHESS_TOKEN",
) -> LichessSetup:
    return LichessSetup(rounds=rounds, token_env=token_env, url=url)


def _push(
    url: str,
    token: str = TOKEN,
    rounds: tuple[tuple[int, str], ...] = ((1, ROUND_1), (2, ROUND_2)),
    timeout: float = 5.0,
) -> LichessPush:
    return LichessPush(_setup(url, rounds), {"LICHESS_TOKEN": token}, timeout=timeout)


async def _failure(output: LichessPush, copy: RoundCopy) -> OutputError:
    with pytest.raises(OutputError) as caught:
        await output.deliver(copy)
    assert TOKEN not in str(caught.value)
    assert "lip_" not in str(caught.value)
    return caught.value


# --- what lichess takes -------------------------------------------------------------------


@pytest.mark.anyio
async def test_one_push_carries_the_whole_round_as_lichess_takes_it(lichess):
    line = await _push(lichess.url).deliver(JUNIORS)

    [push] = lichess.pushes
    assert push.method == "POST"
    assert push.path == f"/api/broadcast/round/{ROUND_1}/push"
    assert push.headers["authorization"] == f"Bearer {TOKEN}"
    media, _, parameters = push.headers["content-type"].partition(";")
    assert media.strip() == "text/plain"
    assert parameters.strip().lower() == "charset=utf-8"
    assert push.headers["accept"] == "application/json"
    assert push.body == JUNIORS.pgn.encode("utf-8")
    plies = sum(len(_moves(parsed_game(game.pgn))) for game in JUNIORS.games)
    assert line == f"pushed round 1 to lichess round {ROUND_1}: 12 games, {plies} half-moves"


@pytest.mark.anyio
async def test_the_games_come_in_board_order_with_the_tags_lichess_matches_on(lichess):
    await _push(lichess.url).deliver(JUNIORS)

    sources = {int(game.headers["Round"].split(".")[1]): game for game in JUNIOR_GAMES}
    parts = split_games(lichess.pushes[0].body)
    assert len(parts) == 12  # lichess cuts the body into exactly our games
    games = [parsed_game(part) for part in parts]
    boards = [int(game.headers["Board"]) for game in games]
    assert boards == list(range(1, 13))
    for board, game, copy in zip(boards, games, JUNIORS.games, strict=True):
        assert not game.errors
        tags = game.headers
        # What lichess matches a game to its chapter by: GameId, else Event, Site, the round
        # and board numbers and the players (RelayUpdatePlan.isSameGameBasedOnTags).
        assert tags["GameId"] == str(copy.game_id)
        assert tags["Event"] == "Sample Invitational 2023"
        assert tags["Site"] == "Sotra, Norway"
        assert tags["Round"] == f"1.{board}"
        assert len(tags["White"].strip()) > 1  # lichess drops a game without players
        assert len(tags["Black"].strip()) > 1
        assert tags["TimeControl"] == "900+10"
        # The moves, the result, and the clock after each move the boards timed (lichess
        # keeps [%clk] on each move).
        source = sources[board]
        assert tags["Result"] == source.headers["Result"]
        assert [n.move for n in game.mainline()] == [n.move for n in source.mainline()]
        assert [n.clock() for n in game.mainline()] == [n.clock() for n in source.mainline()]
    assert len({game.headers["GameId"] for game in games}) == 12


@pytest.mark.anyio
async def test_players_carry_titles_ratings_and_fide_ids(lichess):
    line = await _push(lichess.url).deliver(RAPID)

    [push] = lichess.pushes
    assert push.path == f"/api/broadcast/round/{ROUND_2}/push"
    games = [parsed_game(part) for part in split_games(push.body)]
    assert [int(g.headers["Board"]) for g in games] == list(range(1, 21))
    first = games[0]
    assert first.headers["White"] == "Charkhalashvili, Inga"
    assert first.headers["WhiteFideId"] == "13601431"
    assert first.headers["WhiteTitle"] == "WGM"
    assert first.headers["WhiteElo"] == "2289"
    assert first.headers["BlackFideId"] == "8603006"
    assert first.headers["BlackTitle"] == "GM"
    for game in games:
        assert game.headers["Result"] == "*"
        assert game.headers["WhiteFideId"].isdigit()
        assert game.headers["BlackFideId"].isdigit()
        assert game.headers["Round"] == f"2.{game.headers['Board']}"
    assert line == f"pushed round 2 to lichess round {ROUND_2}: 20 games, 0 half-moves"


@pytest.mark.anyio
async def test_the_text_goes_as_utf_8(lichess):
    """The FIDE event's name has a typographic apostrophe."""
    await _push(lichess.url).deliver(RAPID)

    body = lichess.pushes[0].body
    assert "FIDE Women\u2019s World Rapid".encode() in body


@pytest.mark.anyio
async def test_each_deliver_is_one_push(lichess):
    output = _push(lichess.url)
    await output.deliver(JUNIORS)
    await output.deliver(RAPID)
    await output.deliver(JUNIORS)

    assert [push.path.split("/")[4] for push in lichess.pushes] == [ROUND_1, ROUND_2, ROUND_1]


@pytest.mark.anyio
async def test_a_round_without_games_is_not_pushed(lichess):
    empty = RoundCopy(7, "Open", 101, 1, None, "", ())

    line = await _push(lichess.url).deliver(empty)

    assert line == "round 1 has no games yet: nothing pushed"
    assert lichess.pushes == []


# --- lichess' answers in words ------------------------------------------------------------


@pytest.mark.anyio
async def test_games_lichess_refused_are_named_by_board(lichess):
    def one_refused(push: Push) -> Reply:
        games = [read_pushed(pgn) for pgn in split_games(push.body)]
        games[2] = {"tags": games[2]["tags"], "error": "Illegal move: Nxe5"}
        return json_reply(200, {"games": games})

    lichess.reply = one_refused

    line = await _push(lichess.url).deliver(JUNIORS)

    assert line.startswith(f"pushed round 1 to lichess round {ROUND_1}: 11 games, ")
    assert line.endswith("; lichess refused 1: board 3: Illegal move: Nxe5")


@pytest.mark.anyio
async def test_a_push_lichess_took_nothing_of_fails(lichess):
    """A round fed from a source URL on lichess cannot be pushed to (RelayPush)."""
    lichess.reply = lambda push: json_reply(
        200,
        {
            "games": [
                {"tags": {}, "error": "The relay has an upstream URL, and cannot be pushed to."}
            ]
        },
    )

    failure = await _failure(_push(lichess.url), JUNIORS)

    assert str(failure) == (
        "lichess took none of the 12 games of round 1: "
        "The relay has an upstream URL, and cannot be pushed to."
    )
    assert failure.retry_after is None


@pytest.mark.anyio
async def test_an_answer_without_games_is_taken_as_a_push(lichess):
    lichess.reply = lambda push: json_reply(200, {"ok": True})

    assert await _push(lichess.url).deliver(RAPID) == (
        f"pushed round 2 to lichess round {ROUND_2}: 20 games"
    )


@pytest.mark.anyio
async def test_lichess_shows_at_most_100_games_a_round(lichess):
    games = tuple(
        GameCopy(
            board=n,
            game_id=n,
            pgn=f'[White "White {n}"]\n[Black "Black {n}"]\n[Board "{n}"]\n[Result "*"]\n\n*',
        )
        for n in range(1, 106)
    )
    big = RoundCopy(7, "Open", 101, 1, None, render_round(g.pgn for g in games), games)

    line = await _push(lichess.url).deliver(big)

    assert line == (
        f"pushed round 1 to lichess round {ROUND_1}: 100 games, 0 half-moves; lichess shows "
        "at most 100 games a round, boards 101 and after are not shown"
    )


@pytest.mark.anyio
async def test_a_refused_token(lichess):
    failure = await _failure(_push(lichess.url, token="lip_revoked"), JUNIORS)

    assert str(failure) == (
        "lichess refused the token in LICHESS_TOKEN (401: No such token): "
        "it is wrong, expired or revoked"
    )
    assert "lip_revoked" not in str(failure)
    assert lichess.pushes[0].headers["authorization"] == "Bearer lip_revoked"


@pytest.mark.anyio
async def test_a_token_without_the_scope_or_the_right(lichess):
    lichess.reply = lambda push: json_reply(403, {"error": "Missing scope"})

    failure = await _failure(_push(lichess.url), JUNIORS)

    assert str(failure) == (
        f"lichess refused the push to round {ROUND_1} (403: Missing scope): the token in "
        "LICHESS_TOKEN needs the study:write scope and its account must be a contributor "
        "to the broadcast"
    )


@pytest.mark.anyio
async def test_an_unknown_round(lichess):
    lichess.rounds = {ROUND_2}

    failure = await _failure(_push(lichess.url), JUNIORS)

    assert str(failure) == (
        f"lichess has no broadcast round {ROUND_1} (404): check the rounds of the event "
        "file's lichess output"
    )


@pytest.mark.anyio
async def test_too_many_requests_says_how_long_to_wait(lichess):
    lichess.reply = lambda push: json_reply(
        429, {"error": "Too many requests"}, {"Retry-After": "7"}
    )

    failure = await _failure(_push(lichess.url), JUNIORS)

    assert failure.retry_after == 7
    assert str(failure) == "lichess asks us to slow down (429): wait 7 s before the next push"


@pytest.mark.anyio
async def test_too_many_requests_without_a_wait_waits_lichess_minute(lichess):
    lichess.reply = lambda push: json_reply(429, {"error": "Too many requests"})

    failure = await _failure(_push(lichess.url), JUNIORS)

    assert failure.retry_after == RATE_LIMIT_WAIT == 60


def test_retry_after_reads_seconds_and_dates():
    now = 1_700_000_000.0
    assert retry_after("120", now) == 120
    assert retry_after("0", now) == 1
    assert retry_after(formatdate(now + 90, usegmt=True), now) == 90
    assert retry_after(formatdate(now - 90, usegmt=True), now) == 1
    assert retry_after("soon", now) == RATE_LIMIT_WAIT
    assert retry_after(None, now) == RATE_LIMIT_WAIT


@pytest.mark.anyio
async def test_a_server_error(lichess):
    lichess.reply = lambda push: (500, {"Content-Type": "text/html"}, b"<h1>oops</h1>")

    failure = await _failure(_push(lichess.url), JUNIORS)

    assert str(failure) == "lichess failed to take the push (500 Internal Server Error)"
    assert failure.retry_after is None


@pytest.mark.anyio
async def test_a_refused_pgn(lichess):
    lichess.reply = lambda push: json_reply(400, {"error": "Cannot parse moves"})

    failure = await _failure(_push(lichess.url), JUNIORS)

    assert str(failure) == "lichess refused the PGN of round 1 (400: Cannot parse moves)"


@pytest.mark.anyio
async def test_a_redirect_is_not_followed_with_the_token(lichess):
    lichess.reply = lambda push: (
        (301, {"Location": f"{lichess.url}/elsewhere"}, b"")
        if push.path.endswith("/push")
        else json_reply(200, {})
    )

    failure = await _failure(_push(lichess.url), JUNIORS)

    assert str(failure) == (
        f"lichess sent the push to {lichess.url}/elsewhere (301): set the lichess output's "
        "url in the event file to the address lichess uses"
    )
    assert len(lichess.pushes) == 1


# --- when lichess cannot be reached -------------------------------------------------------


@pytest.mark.anyio
async def test_nothing_listening():
    with socket.socket() as taken:  # bound, never listening: connections are refused
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        failure = await _failure(_push(f"http://127.0.0.1:{port}"), JUNIORS)

    assert str(failure) == f"cannot reach lichess (127.0.0.1:{port}): connection refused"


@pytest.mark.anyio
async def test_a_server_slower_than_the_timeout(lichess):
    lichess.reply = lambda push: None

    started = time.monotonic()
    failure = await _failure(_push(lichess.url, timeout=0.3), JUNIORS)

    assert time.monotonic() - started < 5
    host = lichess.url.removeprefix("http://")
    assert str(failure) == f"lichess ({host}) did not answer within 0.3 s"
    assert len(lichess.pushes) == 1


# --- setting up ---------------------------------------------------------------------------


def test_the_token_must_be_in_its_environment_variable():
    setup = _setup("https://lichess.org", token_env="BROADCAST_TOKEN")

    with pytest.raises(LichessSetupError, match="BROADCAST_TOKEN, which is not set"):
        LichessPush(setup, {"LICHESS_TOKEN": TOKEN})
    with pytest.raises(LichessSetupError, match="BROADCAST_TOKEN, which is empty"):
        LichessPush(setup, {"BROADCAST_TOKEN": "  "})
    with pytest.raises(ValueError, match="scope study:write"):
        LichessPush(setup, {})


def test_a_token_that_cannot_go_in_a_header_is_refused_unquoted():
    setup = _setup("https://lichess.org")

    for token in ("lip_two\nlines", "lip_a b", "lip_\u00e9t\u00e9", "Bearer lip_x"):
        with pytest.raises(LichessSetupError) as caught:
            LichessPush(setup, {"LICHESS_TOKEN": token})
        assert str(caught.value) == (
            "the token in the environment variable LICHESS_TOKEN is not a lichess token "
            "(letters, digits and _ only)"
        )
    assert LichessPush(setup, {"LICHESS_TOKEN": f"  {TOKEN}\n"}).kind == "lichess"


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"url": "lichess.org"}, r"is not an http\(s\) address"),
        ({"url": "ftp://lichess.org"}, r"is not an http\(s\) address"),
        ({"rounds": ((1, "AbCd123"),)}, "round 1: 'AbCd123' is not a lichess broadcast round"),
        ({"rounds": ((1, "AbCd/234"),)}, "is not a lichess broadcast round id"),
        ({"rounds": ((1, ROUND_1), (2, ROUND_1))}, f"rounds 1 and 2 both push to .*{ROUND_1}"),
        ({"rounds": ()}, "maps no rounds"),
    ],
)
def test_a_setup_lichess_could_not_take(changes, words):
    given = dict(changes)
    url = given.pop("url", "https://lichess.org")
    with pytest.raises(LichessSetupError, match=words):
        _push(url, **given)


def test_only_mapped_rounds_are_wanted():
    output = _push("https://lichess.org", rounds=((2, ROUND_2),))

    assert output.wants(_renumbered(JUNIORS, 2))
    assert not output.wants(JUNIORS)
    assert not output.wants(_renumbered(JUNIORS, 3))
    assert output.round_id(2) == ROUND_2
    assert output.round_id(1) is None


@pytest.mark.anyio
async def test_an_unmapped_round_is_not_pushed(lichess):
    output = _push(lichess.url, rounds=((2, ROUND_2),))

    failure = await _failure(output, JUNIORS)

    assert str(failure) == "round 1 is not mapped to a lichess round"
    assert lichess.pushes == []


def test_the_console_names_where_it_goes():
    assert _push("https://lichess.org", rounds=((1, ROUND_1),)).target == f"lichess round {ROUND_1}"
    assert _push("https://lichess.org").target == f"lichess rounds {ROUND_1}, {ROUND_2}"
    assert _push("http://127.0.0.1:9999").target == (
        f"lichess rounds {ROUND_1}, {ROUND_2} at http://127.0.0.1:9999"
    )
    assert _push("https://lichess.org").kind == "lichess"


def test_the_token_is_not_shown():
    output = _push("https://lichess.org")

    assert TOKEN not in repr(output)
    assert TOKEN not in output.target
