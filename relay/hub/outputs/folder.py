"""The folder output: each round's PGN and each game's, written into a folder in DGT
LiveChess' export layout (:mod:`relay.hub.outputs.export_layout`) for a web server or a
webmaster's script to pick up.

Every file is written atomically: the new content goes to a temporary file beside it
(``.game-4.pgn.1a2b3c4d.tmp``), is flushed to the disk, and then replaces the old file in
one step (``os.replace``); the folder itself is flushed after. A reader sees the old file
or the new one, whole, never half of one, even if the hub or the machine stops midway. A
file whose content did not change is not written again, so its modification time stays.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from contextlib import suppress
from pathlib import Path

from relay.domain.formats.output_setup import FolderSetup
from relay.hub.outputs.export_layout import LayoutExport, summary
from relay.hub.outputs.round_copy import OutputError, RoundCopy

#: A reason in words for the errors a folder commonly gives.
_REASONS = {
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "no space left on the disk",
    errno.EDQUOT: "the disk quota is used up",
    errno.ENOENT: "the folder does not exist",
    errno.EIO: "the disk failed to read or write",
}


class ExportFolder(LayoutExport):
    """Writes rounds into a folder (created when missing), in LiveChess' export layout."""

    kind = "folder"

    def __init__(self, setup: FolderSetup) -> None:
        super().__init__()
        self.root = Path(setup.path)
        self.target = setup.path

    def _deliver(self, copy: RoundCopy) -> str:
        plan = self._memory.plan(copy)
        written = 0
        for file in plan.write:
            path = self.root.joinpath(*file.path.split("/"))
            # What an earlier run of the hub left there may already be right.
            if not self._memory.knows(file.path) and _holds(path, file.data):
                self._memory.wrote(file)
                continue
            try:
                _make_folders(path.parent)
                write_atomically(path, file.data)
            except OSError as error:
                raise OutputError(f"cannot write {path}: {_reason(path, error)}") from error
            self._memory.wrote(file)
            written += 1
        for relative in plan.remove:
            path = self.root.joinpath(*relative.split("/"))
            try:
                with suppress(FileNotFoundError):
                    path.unlink()
                _fsync_folder(path.parent)
            except OSError as error:
                raise OutputError(f"cannot remove {path}: {_reason(path, error)}") from error
            self._memory.removed(relative)
        return summary("wrote", written, len(plan.remove), plan.total)


def write_atomically(path: Path, data: bytes) -> None:
    """Put ``data`` under ``path`` in one step: a reader sees the old file or the new one,
    never part of one, and nothing is left behind when it fails. The folder must exist.

    The new file gets the old one's permissions; a new one, those the umask allows
    (``rw-r--r--`` under the usual 022), so a web server can read it.
    """
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with open(descriptor, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        with suppress(FileNotFoundError):
            os.chmod(temporary, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(temporary, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_folder(path.parent)


def _holds(path: Path, data: bytes) -> bool:
    """Whether the file at ``path`` holds exactly ``data``."""
    try:
        return path.is_file() and path.read_bytes() == data
    except OSError:
        return False


def _make_folders(folder: Path) -> None:
    """Create ``folder`` and the folders above it that are missing, durably."""
    missing: list[Path] = []
    while not folder.is_dir():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for each in reversed(missing):
        try:
            each.mkdir()
        except FileExistsError:
            if not each.is_dir():
                raise
        _fsync_folder(each.parent)


def _fsync_folder(folder: Path) -> None:
    """Flush a folder's entries (a new name, a rename) to the disk."""
    if os.name != "posix":  # Windows cannot open a folder; its renames are journaled
        return
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    except OSError as error:
        if error.errno != errno.EINVAL:  # a file system that cannot flush folders
            raise
    finally:
        os.close(descriptor)


def _reason(path: Path, error: OSError) -> str:
    """Why writing ``path`` failed, in words."""
    if isinstance(error, (FileExistsError, NotADirectoryError)):
        for above in reversed(path.parents):
            if above.exists() and not above.is_dir():
                return f"{above} is a file, not a folder"
    if isinstance(error, IsADirectoryError) or path.is_dir():
        return f"{path} is a folder, not a file"
    if error.errno in _REASONS:
        return _REASONS[error.errno]
    return (error.strerror or str(error)).lower()
