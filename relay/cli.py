"""The ``relay`` command: ``serve`` runs the hub; ``demo`` relays games on simulated boards."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable, Sequence

from relay.api.app import create_app
from relay.api.server import ServeError, listen_socket, make_server, url_of
from relay.bus.memory import MemoryBus
from relay.config import Settings, SettingsError
from relay.demo.run import Demo, DemoError, DemoOptions
from relay.hub.hub import Hub
from relay.store.engine import StoreError, open_store

log = logging.getLogger("relay")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="relay", description="Live relay of over-the-board chess from electronic boards."
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the hub does")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", help="run the hub: API, live streams and pages")
    serve.add_argument("--db", help="database URL (default sqlite:///relay.db, or $RELAY_DB)")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (default 8000)")

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
    return parser


def _on_stop_signals(stop: Callable[[], None]) -> None:
    """Ctrl-C and SIGTERM (as sent by docker stop) end the command cleanly."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)


async def _serve(settings: Settings) -> None:
    engine = open_store(settings.db_url)
    hub = Hub(settings, engine, MemoryBus())
    try:
        sock = listen_socket(settings.host, settings.port)
        server = make_server(create_app(settings, hub))

        def stop() -> None:
            server.should_exit = True

        _on_stop_signals(stop)
        print(f"chess-relay hub on {url_of(sock)} (database {settings.db_url})", flush=True)
        await server.serve(sockets=[sock])
    finally:
        await hub.close()
        engine.dispose()


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


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        db_url = args.db if args.command == "serve" else None
        settings = Settings.from_env(db_url=db_url, host=args.host, port=args.port)
        if args.command == "serve":
            asyncio.run(_serve(settings))
        else:
            options = DemoOptions(
                boards=args.boards, ply_seconds=args.ply_seconds, seed=args.seed, db_url=args.db
            )
            asyncio.run(_demo(settings, options, args.duration))
    except KeyboardInterrupt:
        return 130  # interrupted before the event loop could take over the signal
    except (SettingsError, ServeError, DemoError, StoreError) as error:
        print(f"relay: {error}", file=sys.stderr)
        return 1
    print("relay: stopped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
