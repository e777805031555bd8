"""The ``relay`` command: the hub, the demo, tokens, backups."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path

from sqlmodel import Session

from relay.agent.queue import QueueWriteError
from relay.agent.runner import Agent, AgentSettings, BoardPortError
from relay.api.app import create_app
from relay.api.server import ServeError, listen_socket, make_server, url_of
from relay.bus.redis_bus import BusError, close_bus, open_bus
from relay.config import Settings, SettingsError
from relay.demo.run import Demo, DemoError, DemoOptions
from relay.domain.errors import RelayError
from relay.domain.formats.event_file import EventFileError, EventSetup, parse_event_file
from relay.heap import freeze_startup_heap
from relay.hub.backups import BackupError, back_up_every, backup, restore
from relay.hub.correspondence import sweep_every
from relay.hub.hub import Hub
from relay.hub.outputs.lichess import LichessSetupError
from relay.hub.wal_checkpoints import checkpoint_every
from relay.store.access import (
    CLUB_ROLES,
    ROLES,
    UnknownRoleError,
    club_user,
    create_token,
    list_users,
    player_user,
    revoke_tokens,
    shown_name,
)
from relay.store.checkpoints import is_sqlite
from relay.store.engine import StoreError, open_store, shown_url, sqlite_file
from relay.store.setup import load_event
from relay.store.tournaments import ConflictError, NotFoundError, list_games, list_rounds

log = logging.getLogger("relay")


class CommandError(RuntimeError, RelayError):
    """A command that cannot go on; the message is for the user."""


def _version() -> str:
    try:
        return metadata.version("chess-relay")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="relay", description="Live relay of over-the-board chess from electronic boards."
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the hub does")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", help="run the hub: API, live streams and pages")
    serve.add_argument(
        "event_file",
        nargs="?",
        type=Path,
        help="event file to load first (TOML: tournament, players, boards, rounds)",
    )
    _database(serve)
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (default 8000)")
    serve.add_argument("--certfile", type=Path, help="serve HTTPS with this certificate (PEM)")
    serve.add_argument("--keyfile", type=Path, help="the certificate's private key (PEM)")
    serve.add_argument(
        "--proxy",
        metavar="IPS",
        help="trust X-Forwarded-* headers from these addresses (a reverse proxy)",
    )
    serve.add_argument(
        "--backup-dir", type=Path, help="back up the SQLite database into this folder"
    )
    serve.add_argument(
        "--redis", metavar="URL", help="share events with other server processes through Redis"
    )

    demo = commands.add_parser(
        "demo", help="relay a round of real games played on simulated DGT boards"
    )
    demo.add_argument("--boards", type=int, default=8, help="simulated boards (default 8)")
    demo.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    demo.add_argument("--port", type=int, help="port to listen on (default 8000)")
    demo.add_argument(
        "--duration", type=float, help="stop after this many seconds (default: run until Ctrl-C)"
    )
    demo.add_argument(
        "--ply-seconds", type=float, default=1.5, help="mean thinking time per ply (default 1.5)"
    )
    demo.add_argument("--db", help="keep the demo's games in this database (default: temporary)")
    demo.add_argument("--seed", type=int, help="seed for repeatable play")

    token = commands.add_parser("token", help="manage API tokens")
    token_commands = token.add_subparsers(dest="token_command", required=True, metavar="ACTION")
    create = token_commands.add_parser("create", help="make a token and print it (once)")
    create.add_argument("--role", required=True, choices=(*ROLES, *CLUB_ROLES))
    create.add_argument(
        "--user", help="who will use it (shown in the audit); a club player's key needs none"
    )
    create.add_argument(
        "--club",
        type=int,
        metavar="ID",
        help="a club key (roles club-player, club-officer, club-admin) for this club: it acts "
        "on that club's ladders only (docs/ladders.md)",
    )
    create.add_argument(
        "--member", type=int, metavar="ID", help="the club member a club-player key is for"
    )
    create.add_argument(
        "--game",
        type=int,
        metavar="ID",
        help="a device token bound to this game (role keyer): a tablet beside a board enters "
        "that game's moves, and reads what the public reads",
    )
    create.add_argument(
        "--out",
        type=Path,
        metavar="FILE",
        help="write the token to this new file, readable by its owner alone (mode 0600), "
        "instead of printing it",
    )
    _database(create)
    revoke = token_commands.add_parser("revoke", help="revoke every token of a user")
    revoke.add_argument("--user", required=True)
    _database(revoke)
    listing = token_commands.add_parser("list", help="list users and their roles")
    _database(listing)

    agent = commands.add_parser(
        "agent",
        help="at the venue: read the boards and forward them to a hub anywhere",
        description="Read the venue's boards, keep every event in a local queue, and send "
        "them to the hub, resending after every drop (docs/venue-agent.md). The hub follows "
        "board B of this agent as agent://NAME/B.",
    )
    agent.add_argument(
        "boards",
        nargs="+",
        metavar="BOARD=PORT | EVENT_FILE",
        help="each board's name and port (1=/dev/ttyACM0), or an event file whose [[board]] "
        "entries give the ports at the venue (board N is named N)",
    )
    agent.add_argument(
        "--hub", required=True, help="the hub: https://relay.example.org (TLS) or http://host:8000"
    )
    agent.add_argument(
        "--token",
        default=os.environ.get("RELAY_AGENT_TOKEN"),
        help="an operator's token (default $RELAY_AGENT_TOKEN)",
    )
    agent.add_argument("--name", default="venue", help="this agent's name (default venue)")
    agent.add_argument(
        "--queue",
        type=Path,
        default=Path("relay-agent-queue.db"),
        help="the queue file, kept across restarts (default relay-agent-queue.db)",
    )

    back_up = commands.add_parser("backup", help="copy the SQLite database into a folder")
    _database(back_up)
    back_up.add_argument("--to", type=Path, help="folder (default $RELAY_BACKUP_DIR or backups)")
    back_up.add_argument("--keep", type=int, help="copies to keep (default 24)")

    restore_ = commands.add_parser(
        "restore", help="replace the database with a backup (stop the hub first)"
    )
    restore_.add_argument("backup", type=Path, help="the backup file")
    _database(restore_)
    return parser


def _database(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="database URL (default sqlite:///relay.db, or $RELAY_DB)")


def _on_stop_signals(stop: Callable[[], None]) -> None:
    """Ctrl-C and SIGTERM (as sent by docker stop) end the command cleanly."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)


def read_event_file(path: Path) -> EventSetup:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        return parse_event_file(text)
    except EventFileError as error:
        # One line for each problem of the file, each naming it, as compilers do.
        raise CommandError("\n".join(f"{path}: {problem}" for problem in error.problems)) from None


async def _serve(settings: Settings, setup: EventSetup | None) -> None:
    engine = open_store(settings.db_url)
    try:
        bus = await open_bus(settings.redis_url, settings.redis_namespace)
    except BusError:
        engine.dispose()
        raise
    hub = Hub(settings, engine, bus)
    backups: asyncio.Task[None] | None = None
    checkpoints = asyncio.create_task(checkpoint_every(engine)) if is_sqlite(engine) else None
    sweeps = asyncio.create_task(sweep_every(hub.correspondence))
    try:
        if setup is not None:
            await _load(hub, setup)
        sock = listen_socket(settings.host, settings.port)
        server = make_server(create_app(settings, hub), settings)

        def stop() -> None:
            server.should_exit = True

        _on_stop_signals(stop)
        if settings.backup_dir is not None:
            backups = asyncio.create_task(
                back_up_every(
                    settings.db_url,
                    settings.backup_dir,
                    minutes=settings.backup_minutes,
                    keep=settings.backup_keep,
                )
            )
        url = url_of(sock, tls=settings.certfile is not None)
        freeze_startup_heap()
        print(f"chess-relay hub on {url} (database {shown_url(settings.db_url)})", flush=True)
        await server.serve(sockets=[sock])
    finally:
        for task in (backups, checkpoints, sweeps):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        await hub.close()
        await close_bus(bus)
        engine.dispose()


async def _load(hub: Hub, setup: EventSetup) -> None:
    """Store the event file, then follow the boards of its newest paired round."""
    try:
        report = await hub.recorder.run(lambda session: load_event(session, setup))
    except ConflictError as error:
        raise CommandError(f"event file: {error}") from None
    print(f"event file: {report}", flush=True)
    try:
        outputs = hub.outputs.open(report.tournament_id, setup.outputs, os.environ)
    except LichessSetupError as error:
        raise CommandError(f"event file: {error}") from None
    for output in outputs:
        print(f"output {output}", flush=True)

    def newest_paired(session: Session) -> int | None:
        for round_ in reversed(list_rounds(session, tournament_id=report.tournament_id)):
            assert round_.id is not None
            if list_games(session, round_id=round_.id):
                return round_.id
        return None

    round_id = await hub.recorder.run(newest_paired)
    if round_id is None:
        return
    failed = await hub.attach_round(round_id)
    for game_id, reason in failed.items():
        print(f"game {game_id}: board not attached: {reason}", file=sys.stderr, flush=True)


async def _demo(settings: Settings, options: DemoOptions, duration: float | None) -> None:
    stop = asyncio.Event()
    _on_stop_signals(stop.set)
    demo = Demo(settings, options)
    try:
        url = await demo.start()
        print(f"chess-relay demo: {options.boards} boards playing round 1", flush=True)
        print(f"Open {url} in a browser; Ctrl-C stops.", flush=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), duration)
    finally:
        await demo.stop()


def agent_boards(given: Sequence[str]) -> dict[str, str]:
    """Board name -> port, from ``NAME=PORT`` words and event files."""
    boards: dict[str, str] = {}
    for word in given:
        name, equals, port = word.partition("=")
        if equals:
            if not name or not port:
                raise CommandError(f"{word!r}: a board is NAME=PORT, e.g. 1=/dev/ttyACM0")
            pairs = [(name, port)]
        else:
            pairs = [(str(board.number), board.url) for board in read_event_file(Path(word)).boards]
        for name, port in pairs:
            if name in boards:
                raise CommandError(f"board {name} is given twice")
            boards[name] = port
    return boards


async def _agent(args: argparse.Namespace) -> None:
    if not args.token:
        raise CommandError("an agent needs an operator's token: --token or $RELAY_AGENT_TOKEN")
    try:
        settings = AgentSettings(
            hub=args.hub, token=args.token, name=args.name, boards=agent_boards(args.boards),
            queue=args.queue,
        )  # fmt: skip
        agent = Agent(settings)
    except ValueError as error:
        raise CommandError(str(error)) from None
    print(f"relay agent {args.name}: {len(settings.boards)} boards to {agent.url}", flush=True)
    task = asyncio.current_task()
    assert task is not None

    def stop() -> None:
        task.cancel()

    _on_stop_signals(stop)
    with contextlib.suppress(asyncio.CancelledError):
        await agent.run()


def _token(args: argparse.Namespace, settings: Settings) -> None:
    file = sqlite_file(settings.db_url)
    if file is not None and not file.exists():
        # A token made in a new database is one no hub reads: say where we looked instead.
        raise CommandError(
            f"no database at {file}: a token goes into the database of the hub that will "
            "read it; run this where the hub runs, or name its database with --db or "
            "$RELAY_DB (the hub prints it when it starts)"
        )
    engine = open_store(settings.db_url)
    try:
        with Session(engine) as session:
            if args.token_command == "create":
                if args.out is not None and args.out.exists():
                    raise CommandError(f"{args.out} exists; a token goes into a new file only")
                user = _token_user(args)
                try:
                    token = create_token(
                        session,
                        user=user,
                        role=args.role,
                        game_id=args.game,
                        club_id=args.club,
                        member_id=args.member,
                    )
                except NotFoundError as error:
                    raise CommandError(f"no {error}") from None
                except UnknownRoleError as error:
                    raise CommandError(str(error)) from None
                session.commit()
                if args.out is None:
                    print(token)
                    shown = "it is shown only once"
                else:
                    write_secret(args.out, token)
                    shown = f"written to {args.out} (mode 0600)"
                where = file or shown_url(settings.db_url)
                print(
                    f"relay: token for {shown_name(user)} ({args.role}) in database {where}; "
                    f"{shown}",
                    file=sys.stderr,
                )
            elif args.token_command == "revoke":
                count = revoke_tokens(session, user=args.user)
                session.commit()
                print(f"revoked {count} token(s) of {args.user}")
            else:
                for row in list_users(session):
                    print(f"{row.name}\t{row.role}")
    finally:
        engine.dispose()


def _token_user(args: argparse.Namespace) -> str:
    """The user a new token is for: a club key's is named in its club's namespace."""
    if args.role == "club-player":
        if args.club is None or args.member is None:
            raise CommandError("a club-player key needs --club and --member")
        return player_user(args.club, args.member)
    if not args.user:
        raise CommandError(f"a {args.role} token needs --user")
    if args.role in CLUB_ROLES:
        if args.club is None:
            raise CommandError(f"a {args.role} key needs --club")
        return str(club_user(args.club, args.user))
    return str(args.user)


def write_secret(path: Path, secret: str) -> None:
    """Write ``secret`` to a new file that only its owner may read or write (0600 from
    the start: it is never readable by others, not even for a moment)."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as error:
        raise CommandError(f"cannot create {path}: {error.strerror or error}") from None
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        os.fchmod(file.fileno(), 0o600)  # whatever the umask
        file.write(secret + "\n")


def _backup(args: argparse.Namespace, settings: Settings) -> None:
    folder = args.to or settings.backup_dir or Path("backups")
    made = backup(settings.db_url, folder, keep=args.keep or settings.backup_keep)
    print(f"backed up {shown_url(settings.db_url)} to {made}")


def _restore(args: argparse.Namespace, settings: Settings) -> None:
    restore(args.backup, settings.db_url)
    open_store(settings.db_url).dispose()  # bring an older backup's schema up to date
    print(f"restored {shown_url(settings.db_url)} from {args.backup}")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        settings = Settings.from_env(
            db_url=getattr(args, "db", None) if args.command != "demo" else None,
            host=getattr(args, "host", None),
            port=getattr(args, "port", None),
            certfile=getattr(args, "certfile", None),
            keyfile=getattr(args, "keyfile", None),
            forwarded_allow_ips=getattr(args, "proxy", None),
            backup_dir=getattr(args, "backup_dir", None),
            redis_url=getattr(args, "redis", None),
        )
        if args.command == "agent":
            asyncio.run(_agent(args))
        elif args.command == "serve":
            setup = read_event_file(args.event_file) if args.event_file else None
            asyncio.run(_serve(settings, setup))
        elif args.command == "demo":
            options = DemoOptions(
                boards=args.boards, ply_seconds=args.ply_seconds, seed=args.seed, db_url=args.db
            )
            asyncio.run(_demo(settings, options, args.duration))
        elif args.command == "token":
            _token(args, settings)
            return 0
        elif args.command == "backup":
            _backup(args, settings)
            return 0
        else:
            _restore(args, settings)
            return 0
    except KeyboardInterrupt:
        return 130  # interrupted before the event loop could take over the signal
    except (
        SettingsError,
        ServeError,
        DemoError,
        StoreError,
        CommandError,
        BackupError,
        BusError,
        QueueWriteError,
        BoardPortError,
    ) as error:
        print(f"relay: {error}", file=sys.stderr)
        return 1
    print("relay: stopped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
