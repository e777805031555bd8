"""A real SMTP server for tests (aiosmtpd, in a thread on 127.0.0.1): it keeps what it is
sent, and refuses the addresses it is told to."""

from __future__ import annotations

import email
import email.policy
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

HOST = "127.0.0.1"


class Inbox:
    """An SMTP handler that keeps every message it accepts and refuses the addresses in
    :attr:`refused`."""

    def __init__(self) -> None:
        self.envelopes: list[Envelope] = []
        self.refused: set[str] = set()

    async def handle_RCPT(  # noqa: N802 (aiosmtpd's name for the hook)
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if address in self.refused:
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(  # noqa: N802 (aiosmtpd's name for the hook)
        self, server: SMTP, session: Session, envelope: Envelope
    ) -> str:
        self.envelopes.append(envelope)
        return "250 Message accepted for delivery"

    def received(self) -> EmailMessage:
        """The one message received, parsed."""
        [envelope] = self.envelopes
        assert isinstance(envelope.content, bytes)
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        return parsed

    def messages(self) -> list[EmailMessage]:
        """Every message received, parsed, oldest first."""
        found = []
        for envelope in self.envelopes:
            assert isinstance(envelope.content, bytes)
            parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
            assert isinstance(parsed, EmailMessage)
            found.append(parsed)
        return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def serve(inbox: Inbox, **options: Any) -> Iterator[int]:
    """An SMTP server for ``inbox`` on a free port, stopped when the test is over."""
    controller = Controller(inbox, hostname=HOST, port=free_port(), ready_timeout=10, **options)
    controller.start()
    try:
        yield controller.port
    finally:
        controller.stop()
