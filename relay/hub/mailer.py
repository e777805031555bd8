"""Sending the correspondence events' emails (:mod:`relay.domain.correspondence.letters`)
through the event's SMTP server: :class:`Mailer`.

Each letter goes in one SMTP session of its own, run by the standard library's
:mod:`smtplib` in a worker thread so the hub's event loop never waits on the network:
connect, STARTTLS if the settings ask for it (the server's certificate checked against the
system's authorities), log in if a user is set, send, quit. Every failure, of the network or
of the server, becomes a :class:`MailError` that names the server and says why.

A letter one of whose recipients is refused while others accept it has reached those
others: it is still a :class:`MailError` (the refused address must be looked at), whose
message says the rest were sent to.
"""

from __future__ import annotations

import asyncio
import email.policy
import smtplib
import socket
import ssl
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr

from relay.domain.correspondence.letters import Letter
from relay.domain.errors import UnavailableError

#: How a message is written out to the server: lines end in CRLF, and headers are folded
#: only past RFC 5322's hard limit of 998 characters, because the standard library's
#: folding at 78 can put two spaces where there was one before a non-ASCII word.
_WIRE = email.policy.SMTP.clone(max_line_length=998)


@dataclass(frozen=True, slots=True)
class MailSettings:
    """How to reach the SMTP server: its ``host`` and ``port``, the ``sender`` address the
    letters come from, whether to upgrade the connection with STARTTLS, the login (none if
    ``user`` is None; the password is kept out of the settings' repr) and the seconds to
    wait on each network operation."""

    host: str
    port: int = 25
    sender: str = "relay@localhost"
    starttls: bool = False
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    timeout: float = 10.0


class MailError(OSError, UnavailableError):
    """A letter could not be sent: the message names the mail server and says why (the
    connection refused, the login refused, a recipient refused...)."""


class Mailer:
    """Sends letters through one SMTP server; :attr:`sent` counts those sent."""

    sent: int

    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings
        self.sent = 0

    async def send(self, letter: Letter) -> None:
        """Send ``letter``, or raise :class:`MailError`."""
        message = _email(letter, self.settings.sender).as_bytes(policy=_WIRE)
        await asyncio.to_thread(self._deliver, letter.to, message)
        self.sent += 1

    def _deliver(self, recipients: tuple[str, ...], message: bytes) -> None:
        """One SMTP session that sends ``message`` (run in a worker thread)."""
        settings = self.settings
        server = f"{settings.host}:{settings.port}"
        try:
            with smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout) as smtp:
                if settings.starttls:
                    smtp.starttls(context=ssl.create_default_context())
                if settings.user is not None:
                    smtp.login(settings.user, settings.password or "")
                refused = smtp.sendmail(settings.sender, list(recipients), message)
        except (OSError, UnicodeEncodeError) as error:
            raise MailError(f"mail not sent through {server}: {_reason(error)}") from error
        if refused:
            raise MailError(
                f"mail through {server}: {_refusals(refused)} (sent to the other recipients)"
            )


def _email(letter: Letter, sender: str) -> EmailMessage:
    """``letter`` as an email from ``sender`` (an address, or ``Name <address>``), dated
    now, its body UTF-8."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = ", ".join(letter.to)
    message["Subject"] = letter.subject
    message["Date"] = formatdate(localtime=True)
    # The sender's domain, not this machine's name: looking that up may wait on DNS.
    domain = parseaddr(sender)[1].rpartition("@")[2]
    message["Message-ID"] = make_msgid(domain=domain or "localhost")
    # Quoted-printable keeps the message 7-bit: no server can refuse or mangle it.
    message.set_content(letter.body, charset="utf-8", cte="quoted-printable")
    return message


def _reason(error: OSError | UnicodeEncodeError) -> str:
    """Why a session failed, in words (every smtplib error is an :class:`OSError`)."""
    if isinstance(error, UnicodeEncodeError):
        wrong = error.object[error.start : error.end]
        return f"SMTP commands take ASCII only, not {wrong!r} (in an address or the login)"
    if isinstance(error, smtplib.SMTPException):
        return _smtp_reason(error)
    if isinstance(error, ConnectionRefusedError):
        return "the connection was refused (is a mail server listening there?)"
    if isinstance(error, TimeoutError):
        return "the server did not answer in time"
    if isinstance(error, socket.gaierror):
        return f"the host name cannot be resolved ({error.strerror})"
    if isinstance(error, ssl.SSLError):
        return f"the TLS handshake failed ({error.reason or error})"
    return f"the server cannot be reached ({error.strerror or error})"


def _smtp_reason(error: smtplib.SMTPException) -> str:
    """Why the server refused, in words, with its own answer."""
    if isinstance(error, smtplib.SMTPAuthenticationError):
        return f"the login was refused ({_answer(error.smtp_code, error.smtp_error)})"
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return _refusals(error.recipients)
    if isinstance(error, smtplib.SMTPSenderRefused):
        answer = _answer(error.smtp_code, error.smtp_error)
        return f"the sender {error.sender} was refused ({answer})"
    if isinstance(error, smtplib.SMTPResponseException):
        return f"the server refused ({_answer(error.smtp_code, error.smtp_error)})"
    if isinstance(error, smtplib.SMTPNotSupportedError):
        return f"the server does not offer what the settings ask ({error})"
    if isinstance(error, smtplib.SMTPServerDisconnected):
        return f"the connection was lost ({error})"
    return f"the server cannot be used ({error})"


def _refusals(refused: dict[str, tuple[int, bytes]]) -> str:
    """``refused`` (address -> the server's code and words) in words."""
    listed = "; ".join(f"{address} ({_answer(*answer)})" for address, answer in refused.items())
    return f"recipients refused: {listed}"


def _answer(code: int, words: bytes | str) -> str:
    """A server's answer: ``550 No such user``."""
    text = words.decode("utf-8", "replace") if isinstance(words, bytes) else words
    return f"{code} {' '.join(text.split())}"
