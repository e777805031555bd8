"""The mailer against a real SMTP server (aiosmtpd, in a thread on 127.0.0.1, keeping what
it is sent): the email that arrives, the login, and each failure as a MailError naming the
server."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from relay.domain.correspondence.letters import GameFacts, Letter, letter
from relay.domain.correspondence.silence import Due, DueKind
from relay.domain.errors import Kind
from relay.hub.mailer import Mailer, MailError, MailSettings
from tests.smtp_server import HOST, Inbox, serve

pytestmark = pytest.mark.anyio

SENDER = "relay@chess.example.org"
USER, PASSWORD = "relay", "correct-horse-battery"

FACTS = GameFacts(
    event="IECG Class M 2023",
    game_id=12,
    white="Carlsen, Magnus",
    black="Nepomniachtchi, Ян",
    white_email="carlsen@example.org",
    black_email="nepo@example.org",
    ts_email="ts@example.org",
    url="https://relay.example.org/events/7/games/12",
    last_move="23...Nf6",
    last_move_sent=date(2023, 3, 1),
)


def reminder() -> Letter:
    """The reminder to Black, with a copy to the TS."""
    found = letter(Due(date(2023, 3, 11), DueKind.REMINDER, "white"), FACTS)
    assert found is not None
    return found


def check_login(
    server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any
) -> AuthResult:
    """An authenticator that knows one user (``handled=False``: the server answers 535 to a
    refused login itself)."""
    known = isinstance(data, LoginPassword) and data == (USER.encode(), PASSWORD.encode())
    return AuthResult(success=known, handled=False)


@pytest.fixture
def inbox() -> Inbox:
    return Inbox()


@pytest.fixture
def port(inbox: Inbox) -> Iterator[int]:
    yield from serve(inbox)


@pytest.fixture
def login_port(inbox: Inbox) -> Iterator[int]:
    """A server that offers a login without TLS (a test has no certificate to give)."""
    yield from serve(inbox, authenticator=check_login, auth_require_tls=False)


async def test_a_letter_arrives_as_written(inbox: Inbox, port: int) -> None:
    mailer = Mailer(MailSettings(HOST, port, sender=SENDER))
    sent = reminder()
    await mailer.send(sent)

    assert mailer.sent == 1
    [envelope] = inbox.envelopes
    assert envelope.mail_from == SENDER
    assert envelope.rcpt_tos == ["nepo@example.org", "ts@example.org"]
    message = inbox.received()
    assert message["From"] == SENDER
    assert message["To"] == "nepo@example.org, ts@example.org"
    assert message["Subject"] == sent.subject
    assert "Nepomniachtchi, Ян" in message["Subject"]
    assert message["Date"] is not None
    assert message["Message-ID"].endswith("@chess.example.org>")
    assert message.get_content_charset() == "utf-8"
    assert message["Content-Transfer-Encoding"] == "quoted-printable"
    # Lines end in CRLF on the wire.
    assert message.get_content().replace("\r\n", "\n") == sent.body
    assert "To Nepomniachtchi, Ян (Black)" in message.get_content()


async def test_a_sender_with_a_name(inbox: Inbox, port: int) -> None:
    mailer = Mailer(MailSettings(HOST, port, sender=f"Chess Relay <{SENDER}>"))
    await mailer.send(reminder())
    assert inbox.envelopes[0].mail_from == SENDER
    message = inbox.received()
    assert message["From"] == f"Chess Relay <{SENDER}>"
    assert message["Message-ID"].endswith("@chess.example.org>")


async def test_each_letter_is_counted(port: int) -> None:
    mailer = Mailer(MailSettings(HOST, port))
    await mailer.send(reminder())
    await mailer.send(reminder())
    assert mailer.sent == 2


async def test_a_login_the_server_accepts(inbox: Inbox, login_port: int) -> None:
    mailer = Mailer(MailSettings(HOST, login_port, user=USER, password=PASSWORD))
    await mailer.send(reminder())
    assert len(inbox.envelopes) == 1


async def test_a_login_the_server_refuses(inbox: Inbox, login_port: int) -> None:
    mailer = Mailer(MailSettings(HOST, login_port, user=USER, password="wrong"))
    with pytest.raises(MailError, match=rf"{HOST}:{login_port}: the login was refused \(535"):
        await mailer.send(reminder())
    assert inbox.envelopes == []
    assert mailer.sent == 0


async def test_a_refused_connection_names_the_server() -> None:
    # A port bound but not listening: connecting to it is refused.
    with socket.socket() as closed:
        closed.bind((HOST, 0))
        address = f"{HOST}:{closed.getsockname()[1]}"
        mailer = Mailer(MailSettings(HOST, closed.getsockname()[1]))
        with pytest.raises(MailError, match=f"{address}: the connection was refused") as caught:
            await mailer.send(reminder())
    assert isinstance(caught.value, OSError)
    assert caught.value.kind is Kind.UNAVAILABLE
    assert mailer.sent == 0


async def test_a_server_that_never_answers() -> None:
    # A port listening but never accepting: the connection is made, no greeting comes.
    with socket.socket() as silent:
        silent.bind((HOST, 0))
        silent.listen()
        mailer = Mailer(MailSettings(HOST, silent.getsockname()[1], timeout=0.2))
        with pytest.raises(MailError, match=r"connection was lost \(.*timed out"):
            await mailer.send(reminder())


async def test_a_refused_recipient(inbox: Inbox, port: int) -> None:
    inbox.refused = {"nepo@example.org", "ts@example.org"}
    mailer = Mailer(MailSettings(HOST, port))
    with pytest.raises(MailError, match=rf"{HOST}:{port}: recipients refused: nepo@") as caught:
        await mailer.send(reminder())
    assert "550 5.1.1 No such mailbox here" in str(caught.value)
    assert inbox.envelopes == []


async def test_one_refused_recipient_among_others(inbox: Inbox, port: int) -> None:
    inbox.refused = {"ts@example.org"}
    mailer = Mailer(MailSettings(HOST, port))
    with pytest.raises(MailError, match=r"ts@example.org \(550 .*sent to the other recipients"):
        await mailer.send(reminder())
    [envelope] = inbox.envelopes
    assert envelope.rcpt_tos == ["nepo@example.org"]
    assert mailer.sent == 0


async def test_starttls_asked_of_a_server_without_it(port: int) -> None:
    mailer = Mailer(MailSettings(HOST, port, starttls=True))
    with pytest.raises(MailError, match="STARTTLS"):
        await mailer.send(reminder())


async def test_an_address_that_is_not_ascii(inbox: Inbox, port: int) -> None:
    mailer = Mailer(MailSettings(HOST, port))
    with pytest.raises(MailError, match="ASCII only, not 'ö'"):
        await mailer.send(Letter(("jörg@example.org",), "Reminder", "Your move.\n"))
    assert inbox.envelopes == []


def test_the_password_stays_out_of_the_settings_repr() -> None:
    assert PASSWORD not in repr(MailSettings(HOST, user=USER, password=PASSWORD))
