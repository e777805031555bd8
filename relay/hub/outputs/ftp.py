"""The FTP output: the folder output's files (:mod:`relay.hub.outputs.export_layout`),
uploaded to an FTP server with the standard library's :mod:`ftplib` (FTPS, explicit TLS,
when the event file asks for it).

Each delivery opens its own connection, logs in, uploads what changed and quits: nothing
stays open between two deliveries. A round may sit unchanged for hours, longer than any
server keeps an idle session, so a kept connection would be dead by the next delivery more
often than not; a fresh one costs a login, a few round trips, once per changed round.

Each file goes up under a temporary name in its folder (``game-4.pgn.part``: no leading
dot, which some hosts refuse to write), then is renamed over the final name (RNFR/RNTO), so
a reader never downloads half a file. A file
whose content did not change since this output last uploaded it is not sent again.
Folders are created as needed, the setup's ``directory`` too.
"""

from __future__ import annotations

import ftplib
import io
import socket
import ssl
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress

from relay.domain.formats.output_setup import FtpSetup
from relay.hub.outputs.export_layout import ExportFile, LayoutExport, summary
from relay.hub.outputs.round_copy import OutputError, RoundCopy

#: Seconds to wait for the server at each step (connecting, each answer, each transfer).
DEFAULT_TIMEOUT = 30.0


class FtpUpload(LayoutExport):
    """Uploads rounds to an FTP server, in LiveChess' export layout.

    The password is read from ``environ`` (the hub's environment) under the setup's
    ``password_env`` at each delivery; it never appears in a message or in :attr:`target`.
    """

    kind = "ftp"

    def __init__(
        self,
        setup: FtpSetup,
        environ: Mapping[str, str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        super().__init__()
        self.setup = setup
        self._environ = environ
        self._timeout = timeout
        scheme = "ftps" if setup.tls else "ftp"
        folder = setup.directory if setup.directory.startswith("/") else f"/{setup.directory}"
        self.target = f"{scheme}://{setup.user}@{setup.host}:{setup.port}{folder}"

    def _deliver(self, copy: RoundCopy) -> str:
        plan = self._memory.plan(copy)
        if plan.write or plan.remove:
            password = self._password()
            try:
                with _Session(self.setup, password, self._timeout) as session:
                    for file in plan.write:
                        session.upload(file)
                        self._memory.wrote(file)
                    for path in plan.remove:
                        session.remove(path)
                        self._memory.removed(path)
            except OutputError as failure:
                masked = _without(str(failure), password)
                if masked != str(failure):  # nor in the server's words it came from
                    raise OutputError(masked) from None
                raise
        return summary("uploaded", len(plan.write), len(plan.remove), plan.total)

    def _password(self) -> str:
        name = self.setup.password_env
        if name is None:
            return ""
        if name not in self._environ:
            raise OutputError(
                f"the FTP password for {self.setup.user}@{self.setup.host} is missing: "
                f"the environment variable {name} is not set"
            )
        return self._environ[name]


class _Session:
    """One connection, logged in and in the setup's folder; each step that fails raises
    :class:`OutputError` saying which step and why."""

    def __init__(self, setup: FtpSetup, password: str, timeout: float) -> None:
        self._setup = setup
        self._password = password
        self._timeout = timeout
        self._where = f"{setup.host}:{setup.port}"
        self._ftp: ftplib.FTP | None = None
        #: The setup's folder as the server names it; every other path is relative to it.
        self._base = ""
        self._folders: set[str] = set()

    def __enter__(self) -> _Session:
        setup = self._setup
        ftp: ftplib.FTP
        if setup.tls:
            ftp = ftplib.FTP_TLS(context=ssl.create_default_context(), timeout=self._timeout)
        else:
            ftp = ftplib.FTP(timeout=self._timeout)
        self._ftp = ftp
        try:
            with self._step(f"cannot connect to {self._where}"):
                ftp.connect(setup.host, setup.port)
            if isinstance(ftp, ftplib.FTP_TLS):
                with self._step(f"cannot start TLS with {self._where} (does it offer FTPS?)"):
                    ftp.auth()
            with self._step(f"{self._where} refused the login of user {setup.user!r}"):
                ftp.login(setup.user, self._password)
            if isinstance(ftp, ftplib.FTP_TLS):
                with self._step(f"cannot protect the transfers with TLS on {self._where}"):
                    ftp.prot_p()
            with self._step(f"cannot open or create the folder {setup.directory!r}"):
                if setup.directory:
                    if setup.directory.startswith("/"):
                        ftp.cwd("/")
                    self._walk(setup.directory)
                self._base = ftp.pwd()
        except BaseException:
            self._close()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None and self._ftp is not None:
            with suppress(*ftplib.all_errors):
                self._ftp.quit()
        self._close()

    def upload(self, file: ExportFile) -> None:
        """Put ``file`` in place whole: upload it beside its final name, then rename it."""
        ftp = self._connection()
        self._folder(file.folder)
        temporary = f"{file.folder}/{file.name}.part"
        with self._step(f"cannot upload {file.path} to {self._where}"):
            try:
                ftp.storbinary(f"STOR {temporary}", io.BytesIO(file.data))
                try:
                    ftp.rename(temporary, file.path)
                except ftplib.error_perm as refused:
                    self._replace(temporary, file, refused)
            except (ftplib.error_perm, ftplib.error_temp, ftplib.error_reply):
                with suppress(*ftplib.all_errors):  # the connection still works: tidy up
                    ftp.delete(temporary)
                raise

    def _replace(self, temporary: str, file: ExportFile, refused: ftplib.error_perm) -> None:
        """Rename ``temporary`` onto ``file`` on a server that will not rename onto a name
        already taken (IIS, some Pure-FTPd setups): the old file is moved aside first and
        put back if the new one still cannot go in. A reader may miss the file for that
        moment, but never sees half of one."""
        ftp = self._connection()
        aside = f"{file.folder}/{file.name}.old"
        with suppress(ftplib.error_perm):  # left by a delivery that was cut off
            ftp.delete(aside)
        try:
            ftp.rename(file.path, aside)
        except ftplib.error_perm:
            raise refused from None  # renames are refused, not just onto a taken name
        try:
            ftp.rename(temporary, file.path)
        except ftplib.error_perm:
            with suppress(*ftplib.all_errors):
                ftp.rename(aside, file.path)
            raise
        with suppress(ftplib.error_perm):
            ftp.delete(aside)

    def remove(self, path: str) -> None:
        """Remove a file the round no longer has; one that is already gone, or that the
        server keeps, is left as it is."""
        with (
            self._step(f"cannot remove {path} from {self._where}"),
            suppress(ftplib.error_perm),
        ):
            self._connection().delete(path)

    def _folder(self, folder: str) -> None:
        """Make sure ``folder`` (relative to the base) exists."""
        if folder in self._folders:
            return
        ftp = self._connection()
        with self._step(f"cannot create the folder {folder} on {self._where}"):
            try:
                ftp.cwd(folder)
            except ftplib.error_perm:
                self._walk(folder)
            ftp.cwd(self._base)
        self._folders.add(folder)

    def _walk(self, folder: str) -> None:
        """Go into ``folder`` from the current one, one level at a time, creating each
        level that is missing."""
        ftp = self._connection()
        for part in folder.split("/"):
            if not part:
                continue
            try:
                ftp.cwd(part)
            except ftplib.error_perm:
                ftp.mkd(part)
                ftp.cwd(part)

    def _connection(self) -> ftplib.FTP:
        assert self._ftp is not None, "used outside its with block"
        return self._ftp

    def _close(self) -> None:
        if self._ftp is not None:
            self._ftp.close()
            self._ftp = None

    @contextmanager
    def _step(self, doing: str) -> Iterator[None]:
        """Turn an FTP or network error in the block into ``doing: why``."""
        try:
            yield
        except ftplib.all_errors as error:
            raise OutputError(f"{doing}: {self._why(error)}") from error

    def _why(self, error: BaseException) -> str:
        if isinstance(error, ConnectionRefusedError):
            return "connection refused (is the server running, and is the port right?)"
        if isinstance(error, TimeoutError):
            return f"no answer within {self._timeout:g} s"
        if isinstance(error, socket.gaierror):
            return f"no such host {self._setup.host!r}"
        if isinstance(error, ssl.SSLError):
            return f"TLS failed ({error.reason or error})"
        if isinstance(error, EOFError):
            return "the server closed the connection"
        if isinstance(error, ftplib.Error):
            return f"the server answered {str(error).strip()!r}"
        if isinstance(error, OSError) and error.strerror:
            return error.strerror.lower()
        return str(error) or type(error).__name__


def _without(message: str, password: str) -> str:
    """``message`` with the password masked, should a server ever echo it back."""
    if len(password) < 4:  # too short to tell from ordinary words
        return message
    return message.replace(password, "***")
