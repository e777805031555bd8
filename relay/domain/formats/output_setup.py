"""The outputs an event file asks for (its ``[[output]]`` tables): where the round's games
go besides the hub's own pages and API. Each is optional; secrets (a platform's token, an
FTP password) are never written in the file, only the name of the environment variable
that holds them, so an event file can be mailed around.

    [[output]]
    kind = "lichess"                     # push each round's PGN to a lichess broadcast
    rounds = { 1 = "AbCd1234" }          # our round number = the broadcast round's id
    token_env = "LICHESS_TOKEN"          # the default; the organiser's token lives there
    url = "https://lichess.org"          # the default

    [[output]]
    kind = "folder"                      # LiveChess' export layout, written atomically
    path = "/srv/www/live"

    [[output]]
    kind = "ftp"                         # the same layout, uploaded
    host = "ftp.example.org"
    port = 21                            # the default
    user = "relay"                       # the default: anonymous
    password_env = "FTP_PASSWORD"        # none: an empty password
    directory = "/live"                  # the default: the login folder
    tls = false                          # true: FTPS (explicit TLS)

    [[output]]
    kind = "livechess"                   # serve the LiveChess-Cloud-style JSON feed
"""

from __future__ import annotations

from dataclasses import dataclass

#: Every kind of output, as the event file names it.
OUTPUT_KINDS = ("lichess", "folder", "ftp", "livechess")


@dataclass(frozen=True, slots=True)
class LichessSetup:
    """Push each mapped round's PGN to a lichess broadcast round."""

    #: (our round number, the broadcast round's id), in round order.
    rounds: tuple[tuple[int, str], ...]
    token_env: str = "LICHESS_TOKEN"
    url: str = "https://lichess.org"
    kind: str = "lichess"


@dataclass(frozen=True, slots=True)
class FolderSetup:
    """Write every round's PGN and each game's into a folder, as LiveChess exports them."""

    path: str
    kind: str = "folder"


@dataclass(frozen=True, slots=True)
class FtpSetup:
    """Upload the folder output's files to an FTP server."""

    host: str
    port: int = 21
    user: str = "anonymous"
    password_env: str | None = None
    directory: str = ""
    tls: bool = False
    kind: str = "ftp"


@dataclass(frozen=True, slots=True)
class LiveChessSetup:
    """Serve the tournament as LiveChess Cloud's JSON feed under ``/livechess/``."""

    kind: str = "livechess"


OutputSetup = LichessSetup | FolderSetup | FtpSetup | LiveChessSetup
