"""`chibre serve`: serve the table in the browser.

    chibre serve [--host 127.0.0.1] [--port 8000] [--db PATH] [--no-browser]
                 [--bot-delay SECONDS] [--deal-delay SECONDS] [--grace SECONDS]
                 [--think-limit SECONDS] [--allowed-host NAME …] [--allowed-origin URL …]
                 [--[no-]proxy-headers] [--forwarded-allow-ips IPS]

Everything is kept in one SQLite file, by default ``$XDG_DATA_HOME/chibre/chibre.sqlite``
(``~/.local/share/chibre/chibre.sqlite``); unfinished games go on when the server restarts.
One server at a time uses a file: a second one started on it is refused (exit status 1,
``PATH.lock`` holds the claim until the first stops, however it stops). The file is checked
first (``chibre.server.recovery``): a damaged one is saved as far as it can be, and what was
lost is said; one from which nothing can be read is refused (exit status 2).
``--port 0`` takes a free port; the address printed names the port in use. The server
answers only to the hosts and origins ``chibre.server.security`` allows: ``--allowed-host`` and
``--allowed-origin`` add to them (README.md, "Hosting").
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import socket
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from chibre.server.guard import Door, guarded_protocol
from chibre.server.security import (
    WILDCARD_ADDRESSES,
    InvalidSiteName,
    SitePolicy,
    allowed_host,
    allowed_origin,
)
from chibre.server.tables import Settings

WS_PING = 20.0
MAX_HEAD = 64 * 1024
"""The request line and headers h11 holds while they are incomplete, in bytes: a longer head
is refused (400, and the connection closed); one that arrives whole in a single read may be
up to about twice as long."""
WS_MAX_SIZE = 64 * 1024
"""Frames larger than this close the socket; up to it, a frame over 4 KiB is answered with a
``too_large`` error."""


def default_db() -> Path:
    """``$XDG_DATA_HOME/chibre/chibre.sqlite``, else ``~/.local/share/chibre/chibre.sqlite``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "chibre" / "chibre.sqlite"


def _amount(text: str, unit: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit}") from None
    if not 0 <= value < math.inf:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 or more {unit}")
    return value


def _seconds(text: str) -> float:
    return _amount(text, "seconds")


def port_number(text: str) -> int:
    """A port to listen on: 0 (any free one) to 65535."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r}: a port is 0 (any free one) to 65535")
    return int(text)


def _seed(text: str) -> str:
    if not 0 < len(text) <= 128:
        raise argparse.ArgumentTypeError("a deal seed is text of 1 to 128 characters")
    return text


def _host(text: str) -> str:
    try:
        return allowed_host(text)
    except InvalidSiteName as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _origin(text: str) -> str:
    try:
        return allowed_origin(text)
    except InvalidSiteName as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_parser(sub: Any) -> None:
    """Add `serve` to the `chibre` command's subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "serve",
        help="serve the table in the browser",
        description="Serve the chibre table: play in the browser, alone with computer "
        "players or online with friends.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument(
        "--port", type=port_number, default=8000, help="port to listen on (8000; 0: any free)"
    )
    p.add_argument("--db", type=Path, default=None, help=f"the SQLite file ({default_db()})")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument(
        "--bot-delay", type=_seconds, default=Settings.bot_delay,
        help=f"seconds before a computer player acts ({Settings.bot_delay})",
    )  # fmt: skip
    p.add_argument(
        "--deal-delay", type=_seconds, default=Settings.deal_delay,
        help=f"seconds between the end of a hand and the next deal ({Settings.deal_delay})",
    )  # fmt: skip
    p.add_argument(
        "--grace", type=_seconds, default=Settings.grace,
        help=f"seconds before a computer plays for a player who dropped ({Settings.grace})",
    )  # fmt: skip
    p.add_argument(
        "--think-limit", type=_seconds, default=Settings.think_limit,
        help="seconds a search player may think before rule plays its seat "
        f"({Settings.think_limit})",
    )  # fmt: skip
    p.add_argument(
        "--jass-challenge-limit", type=_seconds, default=Settings.jass_challenge_limit,
        help="seconds a Jass Challenge bot may take to answer; then rule plays its move "
        f"({Settings.jass_challenge_limit:g})",
    )  # fmt: skip
    p.add_argument(
        "--jass-challenge-tournament-limit", type=_seconds,
        default=Settings.jass_challenge_tournament_limit,
        help="the same in a Jass Challenge tournament, where a bot that misses it loses the "
        f"pairing ({Settings.jass_challenge_tournament_limit:g}, the protocol's)",
    )  # fmt: skip
    p.add_argument(
        "--jass-challenge-seed", type=_seed, metavar="SEED",
        help="deal every Jass Challenge session's game from SEED, as a tournament deals "
        "(each session the same cards; default: shuffled)",
    )  # fmt: skip
    p.add_argument(
        "--allowed-host", action="append", default=[], type=_host, metavar="NAME",
        help="a host name (or name:port) the server is reached by, besides 127.0.0.1, "
        "localhost and [::1]; repeat for more; '*': any (behind a proxy that checks it)",
    )  # fmt: skip
    p.add_argument(
        "--allowed-origin", action="append", default=[], type=_origin, metavar="URL",
        help="another origin (https://name[:port]) whose pages may create tables, write on "
        "sheets and open WebSockets here; repeat for more",
    )  # fmt: skip
    p.add_argument(
        "--proxy-headers", action=argparse.BooleanOptionalAction, default=True,
        help="take the client's address and scheme from X-Forwarded-For and "
        "X-Forwarded-Proto when a trusted proxy sends them (on)",
    )  # fmt: skip
    p.add_argument(
        "--forwarded-allow-ips", default=None, metavar="IPS",
        help="the proxies trusted with those headers, comma-separated addresses or networks, "
        "'*': any ($FORWARDED_ALLOW_IPS, else 127.0.0.1,::1)",    )  # fmt: skip
    limits = p.add_argument_group("limits (for a server open to the internet)")
    limits.add_argument(
        "--max-tables", type=_count, default=Settings.max_open_tables,
        help=f"unfinished tables in play at once ({Settings.max_open_tables})",
    )  # fmt: skip
    limits.add_argument(
        "--tables-per-minute", type=_count, default=Settings.tables_per_minute,
        help="new tables, tournaments and score sheets one address may open a minute "
        f"({Settings.tables_per_minute} each)",
    )  # fmt: skip
    limits.add_argument(
        "--unwatched-rest", type=_seconds, default=Settings.unwatched_rest,
        help="seconds after which a table that nobody has open is put to rest "
        f"({Settings.unwatched_rest:g}; it pauses at once, and goes on when opened again)",
    )  # fmt: skip
    limits.add_argument(
        "--idle-rest", type=_days, default=Settings.idle_rest, metavar="DAYS",
        help="days after which a table that plays on by itself (a tournament's) and that "
        f"nobody played or opened is put to rest ({Settings.idle_rest / 86400:g})",
    )  # fmt: skip
    limits.add_argument(
        "--max-connections", type=_count, default=Door.max_connections,
        help=f"open connections, WebSockets included ({Door.max_connections})",
    )  # fmt: skip
    limits.add_argument(
        "--max-connections-per-address", type=_count, default=Door.max_per_address,
        help=f"open connections from one address ({Door.max_per_address})",
    )  # fmt: skip
    limits.add_argument(
        "--request-timeout", type=_seconds, default=Door.request_timeout,
        help=f"seconds for a request's headers and body to arrive ({Door.request_timeout:g})",
    )  # fmt: skip
    limits.add_argument(
        "--idle-timeout", type=_seconds, default=Door.idle_timeout,
        help=f"seconds an HTTP connection may stay silent ({Door.idle_timeout:g})",
    )  # fmt: skip
    limits.add_argument(
        "--ws-ping", type=_seconds, default=WS_PING,
        help=f"seconds between WebSocket pings; a client that does not answer one within as "
        f"long is closed ({WS_PING:g})",
    )  # fmt: skip
    p.set_defaults(func=run)


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number of at least 1")
    return int(text)


def _days(text: str) -> float:
    return _amount(text, "days") * 86400


def network_address() -> str | None:
    """This machine's address on its local network, as friends' devices reach it (``None``
    when it has none): the one a packet to a private address would leave from — nothing is
    sent."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def may_open_browser() -> bool:
    """A browser can be shown: a desktop session that is not reached over ssh."""
    if os.environ.get("SSH_CONNECTION") or os.environ.get("SSH_CLIENT"):
        return False
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(args: argparse.Namespace) -> int:
    db = Path(args.db or default_db()).resolve()  # one claim per file, by whatever path
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"chibre serve: the folder {db.parent} for --db cannot be made: {e}", file=sys.stderr)
        return 2
    if not db.exists() and not os.access(db.parent, os.W_OK):
        print(
            f"chibre serve: {db} cannot be made: the folder {db.parent} cannot be written "
            "(give --db a path in a folder that can)",
            file=sys.stderr,
        )
        return 2
    claim = FileLock(f"{db}.lock", timeout=0)
    try:  # two servers on one file would each play its tables, and refuse the other's moves
        claim.acquire()
    except Timeout:
        print(
            f"chibre serve: another chibre serve is using {db}: stop it, or give this one "
            "another --db",
            file=sys.stderr,
        )
        return 1
    except (OSError, NotImplementedError) as e:  # a folder that cannot be written (no other
        # server writes there either), a file system without locks
        print(f"chibre serve: {db} is not claimed for this server alone: {e}", file=sys.stderr)
        return _serve(args, db)
    with claim:
        return _serve(args, db)


def _serve(args: argparse.Namespace, db: Path) -> int:
    import uvicorn

    from chibre.server.app import create_app
    from chibre.server.recovery import StoreRefused, prepare_once

    settings = Settings(
        bot_delay=args.bot_delay,
        deal_delay=args.deal_delay,
        grace=args.grace,
        think_limit=args.think_limit,
        jass_challenge_limit=args.jass_challenge_limit,
        jass_challenge_tournament_limit=args.jass_challenge_tournament_limit,
        jass_challenge_seed=args.jass_challenge_seed,
        max_open_tables=args.max_tables,
        tables_per_minute=args.tables_per_minute,
        unwatched_rest=args.unwatched_rest,
        idle_rest=args.idle_rest,
    )
    door = Door(
        max_connections=args.max_connections,
        max_per_address=args.max_connections_per_address,
        request_timeout=args.request_timeout,
        idle_timeout=args.idle_timeout,
    )
    try:  # a damaged file is saved from here, before anything else opens it
        notes = prepare_once(db)
    except (StoreRefused, OSError) as e:
        print(f"chibre serve: {e}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"chibre serve: {note}", file=sys.stderr, flush=True)
    site = SitePolicy.for_server(args.host, args.allowed_host, args.allowed_origin)
    app = create_app(db, settings, site)
    try:  # bound here, so that the address printed names the port really in use
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        # on "::" IPv4 too, where the system allows it: the addresses printed below open it
        both = args.host == "::" and socket.has_dualstack_ipv6()
        sock = socket.create_server((args.host, args.port), family=family, dualstack_ipv6=both)
    except OSError as e:
        print(f"chibre serve: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 1
    port = sock.getsockname()[1]
    everywhere = args.host in WILDCARD_ADDRESSES
    shown_host = "127.0.0.1" if everywhere and (args.host != "::" or both) else args.host
    if shown_host == "::":
        shown_host = "::1"
    if ":" in shown_host:
        shown_host = f"[{shown_host}]"
    url = f"http://{shown_host}:{port}/"
    print(f"chibre: the table is at {url}  (games kept in {db}; Ctrl-C to stop)", flush=True)
    if everywhere and (args.host != "::" or both):
        lan = network_address()
        if lan is not None:
            print(f"chibre: friends on this network open http://{lan}:{port}/", flush=True)
    if not args.no_browser and may_open_browser():
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    server_log = logging.getLogger("chibre.server")  # its notes (a bot's session, its table)
    if not server_log.handlers:
        said = logging.StreamHandler()
        said.setFormatter(logging.Formatter("chibre: %(message)s"))
        server_log.addHandler(said)
        server_log.setLevel(logging.INFO)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        ws_max_size=WS_MAX_SIZE,
        h11_max_incomplete_event_size=MAX_HEAD,
        ws_per_message_deflate=False,
        ws="websockets-sansio",  # about 1.7× the moves/s of the default implementation
        ws_ping_interval=args.ws_ping or None,
        ws_ping_timeout=args.ws_ping or None,
        timeout_keep_alive=max(1, round(args.idle_timeout)),
        lifespan="on",
        proxy_headers=args.proxy_headers,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    config.load()  # the HTTP protocol class, wrapped in the guard's limits
    config.http_protocol_class = guarded_protocol(config.http_protocol_class, door)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
