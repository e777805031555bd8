"""Settings, in one place: read once (from the environment and the command line), passed down.

Environment variables: ``RELAY_DB`` (database URL), ``RELAY_HOST``, ``RELAY_PORT``,
``RELAY_RATE_LIMIT`` (public requests per second per client; 0 turns every limit off),
``RELAY_STAFF_RATE_LIMIT`` (requests per second per user with a valid token),
``RELAY_AUTH_FAILURES`` (refused tokens per client address a minute),
``RELAY_STREAMS_PER_CLIENT`` (websocket streams open at once per client address),
``RELAY_MAX_BODY_BYTES`` (the largest request body), ``RELAY_REDIS`` (a Redis URL
for several server processes), ``RELAY_BACKUP_DIR`` and
``RELAY_BACKUP_MINUTES`` (periodic SQLite backups),
``RELAY_WEB_DIR`` (the pages to serve; by default those installed with the package),
``RELAY_SETTLE_SECONDS`` and ``RELAY_DGT_TURN_BITS``
(``2015``, the default, or ``pre-2015`` for clocks that report the players' turn bits the
other way round) and ``RELAY_DGT_CLOCK_BIT`` (``no-clock``, the default: status bit 5 set
means no clock; ``clock-connected`` for firmware that sets it the other way round) and
``RELAY_BANNER`` (a line shown at the top of every page).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from relay.domain.errors import InvalidInputError
from relay.domain.game.settling import DEFAULT_SETTLE_SECONDS, Settling


def _default_web_dir() -> Path:
    """The pages: inside the package when it is installed (``relay/web``, package data), else
    beside it in a source checkout or an editable install (``web/``)."""
    package = Path(__file__).resolve().parent
    installed = package / "web"
    return installed if (installed / "index.html").is_file() else package.parent / "web"


#: The readings of the DGT clock's two disputed status bits (see drivers/dgt/bwtime.py).
DGT_TURN_BITS = frozenset({"2015", "pre-2015"})
DGT_CLOCK_BIT = frozenset({"no-clock", "clock-connected"})


#: Environment variable -> (setting, how to read its text).
ENVIRONMENT: dict[str, tuple[str, Callable[[str], Any]]] = {
    "RELAY_DB": ("db_url", str),
    "RELAY_HOST": ("host", str),
    "RELAY_PORT": ("port", int),
    "RELAY_WEB_DIR": ("web_dir", Path),
    "RELAY_DGT_CLOCK_BIT": ("dgt_clock_bit", str),
    "RELAY_DGT_TURN_BITS": ("dgt_turn_bits", str),
    "RELAY_SETTLE_SECONDS": ("settle_seconds", float),
    "RELAY_BOARD_SWEEP_SECONDS": ("board_sweep_seconds", float),
    "RELAY_REDIS": ("redis_url", str),
    "RELAY_REDIS_NAMESPACE": ("redis_namespace", str),
    "RELAY_RATE_LIMIT": ("rate_limit", float),
    "RELAY_STAFF_RATE_LIMIT": ("staff_rate_limit", float),
    "RELAY_AUTH_FAILURES": ("auth_failures", int),
    "RELAY_STREAMS_PER_CLIENT": ("streams_per_client", int),
    "RELAY_MAX_BODY_BYTES": ("max_body_bytes", int),
    "RELAY_BACKUP_DIR": ("backup_dir", Path),
    "RELAY_BACKUP_MINUTES": ("backup_minutes", float),
    "RELAY_FANOUT_THREADS": ("fanout_threads", int),
    "RELAY_BANNER": ("banner", str),
    "RELAY_PUBLIC_URL": ("public_url", str),
    "RELAY_SMTP": ("smtp", str),
    "RELAY_SMTP_FROM": ("smtp_sender", str),
    "RELAY_SMTP_STARTTLS": ("smtp_starttls", lambda text: text.lower() in ("1", "true", "yes")),
    "RELAY_SMTP_USER": ("smtp_user", str),
    "RELAY_SMTP_PASSWORD": ("smtp_password", str),
}


class SettingsError(ValueError, InvalidInputError):
    """A setting with a value that cannot be used."""


@dataclass(frozen=True, slots=True)
class Settings:
    db_url: str = "sqlite:///relay.db"
    host: str = "127.0.0.1"
    port: int = 8000
    web_dir: Path = field(default_factory=_default_web_dir)
    settle_seconds: float = DEFAULT_SETTLE_SECONDS
    #: How long a board takes to sweep its sensors (a DGT board: 200-250 ms); a position is
    #: settled only after two sweeps, and a clock press is judged after the next one.
    board_sweep_seconds: float = 0.25
    dgt_turn_bits: str = "2015"
    dgt_clock_bit: str = "no-clock"
    #: A stream with nothing to say for this long sends a ping.
    heartbeat_seconds: float = 15.0
    #: Threads that help write each frame to a room's sockets (None: one per further
    #: core, at most three; 0: the event loop's thread alone).
    fanout_threads: int | None = None
    #: Public requests per second per client address, and the burst allowed (0: no limits
    #: at all, for tests and benchmarks). See relay.api.limits.
    rate_limit: float = 20.0
    rate_burst: float = 60.0
    #: Requests per second per user with a valid token (bursts in the same proportion).
    staff_rate_limit: float = 200.0
    #: Refused tokens per client address within ``auth_failure_window`` seconds.
    auth_failures: int = 10
    auth_failure_window: float = 60.0
    #: Websocket streams one client address may hold open at once.
    streams_per_client: int = 50
    #: The largest request body taken (an event's whole PGN fits); larger ones answer 413.
    max_body_bytes: int = 16 * 1024 * 1024
    #: Serve HTTPS directly with this certificate chain and key (PEM files).
    certfile: Path | None = None
    keyfile: Path | None = None
    #: Trust X-Forwarded-For/-Proto from these addresses (a reverse proxy), comma-separated.
    forwarded_allow_ips: str | None = None
    #: Back up the SQLite database into this folder every ``backup_minutes``; keep
    #: the newest ``backup_keep`` copies. No folder, no backups.
    backup_dir: Path | None = None
    #: With a Redis URL, events pass between server processes through Redis.
    redis_url: str | None = None
    #: Prefix of the relay's Redis keys and channel, for several relays on one Redis.
    redis_namespace: str = "relay"
    backup_minutes: float = 10.0
    backup_keep: int = 24
    #: A line of text shown at the top of every page ("Simulation: ...", "Round 5 at 15:00").
    banner: str | None = None
    #: The hub's address as the public reaches it (``https://relay.example.org``), for the
    #: links in letters; without it they give the page's path alone.
    public_url: str | None = None
    #: The SMTP server of correspondence events' letters, ``host`` or ``host:port``; none:
    #: no letters are sent (what falls due is still recorded and listed).
    smtp: str | None = None
    smtp_sender: str = "relay@localhost"
    smtp_starttls: bool = False
    smtp_user: str | None = None
    smtp_password: str | None = field(default=None, repr=False)

    def smtp_address(self) -> tuple[str, int] | None:
        """The SMTP server's host and port (25 unless said), if one is set."""
        if self.smtp is None:
            return None
        host, colon, port = self.smtp.rpartition(":")
        return (host, int(port)) if colon else (self.smtp, 25)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then the environment, then ``overrides`` that are not None."""
        env = os.environ if environ is None else environ
        settings = cls()
        try:
            from_env = {
                name: convert(env[variable])
                for variable, (name, convert) in ENVIRONMENT.items()
                if variable in env
            }
        except ValueError as error:
            raise SettingsError(f"environment: {error}") from None
        settings = replace(settings, **from_env)
        settings = replace(settings, **{k: v for k, v in overrides.items() if v is not None})
        settings.check()
        return settings

    def settling(self) -> Settling:
        """The tracker's windows for these settings."""
        return Settling.settling_in(self.settle_seconds, link_seconds=self.board_sweep_seconds)

    def check(self) -> None:
        if not 0 <= self.port <= 65535:
            raise SettingsError(f"port {self.port} is out of range")
        if self.dgt_turn_bits not in DGT_TURN_BITS:
            raise SettingsError(f"RELAY_DGT_TURN_BITS is one of {sorted(DGT_TURN_BITS)}")
        if self.dgt_clock_bit not in DGT_CLOCK_BIT:
            raise SettingsError(f"RELAY_DGT_CLOCK_BIT is one of {sorted(DGT_CLOCK_BIT)}")
        if self.settle_seconds < 0:
            raise SettingsError("settle time cannot be negative")
        if self.board_sweep_seconds < 0:
            raise SettingsError("board sweep time cannot be negative")
        if (self.certfile is None) != (self.keyfile is None):
            raise SettingsError("TLS needs both --certfile and --keyfile")
        for path in (self.certfile, self.keyfile):
            if path is not None and not path.is_file():
                raise SettingsError(f"no such file: {path}")
        if self.rate_limit < 0 or self.rate_burst < 1:
            raise SettingsError("the rate limit cannot be negative, nor the burst below 1")
        if self.rate_limit > 0 and self.staff_rate_limit < self.rate_limit:
            raise SettingsError("the limit for valid tokens cannot be below the public one")
        if self.auth_failures < 1 or self.auth_failure_window <= 0:
            raise SettingsError("at least one failed authentication in a positive window")
        if self.streams_per_client < 1:
            raise SettingsError("a client must be allowed at least one stream")
        if self.max_body_bytes < 1024:
            raise SettingsError("the body size limit must be at least 1024 bytes")
        if self.heartbeat_seconds <= 0:
            raise SettingsError("the heartbeat interval must be positive")
        if self.fanout_threads is not None and not 0 <= self.fanout_threads <= 64:
            raise SettingsError("fan-out threads: from 0 to 64")
        if self.backup_minutes <= 0 or self.backup_keep < 1:
            raise SettingsError("backups need a positive interval and keep at least one copy")
        if self.smtp is not None:
            try:
                host, port = self.smtp_address() or ("", 0)
            except ValueError:
                host, port = "", 0
            if not host or not 0 < port < 65536:
                raise SettingsError(f"RELAY_SMTP is host or host:port, not {self.smtp!r}")
        if not (self.web_dir / "index.html").is_file():
            raise SettingsError(f"no index.html in web directory {self.web_dir}")
