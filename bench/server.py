"""Table server load: many tables of four human seats played over WebSockets at once.

Starts ``chibre serve`` as a subprocess (bot and deal delays 0) on a temporary SQLite file,
opens N tables whose four seats are all human, and plays them from a second process: one
asyncio WebSocket client per seat, each playing a random legal action as soon as it is its
turn (or after about ``--think`` seconds, 0 by default). Runs for a set duration, then prints the
tables, the moves per second, the move latency — from sending an action to receiving the
state that shows it — at p50 and p99, and the server's resident memory (VmRSS from
/proc/PID/status, the highest seen during the run), and the server's CPU time per move.

The same clients then drive a reference: a bare Starlette/uvicorn WebSocket server that
answers each move with frames of the same size and no game at all — the floor of this stack
on this machine, so that the cost of chibre itself shows even on a busy machine. The goal:
200 tables with p99 <= 50 ms and under 300 MB on two cores.

    python bench/server.py [--tables 200] [--seconds 30] [--think 0] [--no-reference]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SEQ = re.compile(rb'"seq":(\d+)')
TO_ACT = re.compile(rb'"to_act":(-?\d+)')
GOAL_P99_MS = 50.0
GOAL_RSS_MB = 300.0


# --- the clients (second process) ------------------------------------------------------------


async def seat_client(
    ws: Any,
    seat: int,
    think: float,
    rng: random.Random,
    latencies: list[float],
    counts: list[int],
) -> None:
    """Play one seat until cancelled: a random legal action whenever it is our turn."""
    sent_seq = -1  # the seq our action was sent at; -1 when none is on its way
    sent_at = 0.0
    while True:
        raw = await ws.recv(decode=False)
        if raw[:16] != b'{"type":"state",':
            counts[1] += 1  # an error frame: should not happen
            continue
        match = SEQ.search(raw)
        assert match is not None
        seq = int(match.group(1))
        if sent_seq >= 0 and seq > sent_seq:
            latencies.append(time.perf_counter() - sent_at)
            sent_seq = -1
        turn = TO_ACT.search(raw)
        if sent_seq < 0 and turn is not None and int(turn.group(1)) == seat:
            frame = json.loads(raw)
            legal = frame["view"]["legal"]
            if legal and frame["view"]["seat"] == seat:
                if think:  # a player's pace: between half and one and a half times it
                    await asyncio.sleep(think * (0.5 + rng.random()))
                sent_seq = seq
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(legal)}))
                counts[0] += 1


async def run_clients(
    urls: list[tuple[str, int]], seconds: float, think: float, playing: Path
) -> dict[str, Any]:
    """Connect every seat first (each receives its first state, unanswered: the game waits),
    then play for ``seconds``."""
    import websockets

    connect_start = time.monotonic()
    sockets = []
    for i in range(0, len(urls), 50):  # in batches: the server's listen backlog is finite
        batch = urls[i : i + 50]
        sockets += await asyncio.gather(
            *(
                websockets.connect(
                    u, max_size=2**20, compression=None, local_addr=(player_address(k // 4), 0)
                )
                for k, (u, _) in enumerate(batch, i)
            )
        )
    connected = time.monotonic() - connect_start
    playing.write_text("")  # tells the first process that the measured run starts
    latencies: list[float] = []
    counts = [0, 0]
    rng = random.Random(1)
    cpu_start = time.process_time()
    start = time.monotonic()
    tasks = [
        asyncio.create_task(
            seat_client(ws, seat, think, random.Random(rng.random()), latencies, counts)
        )
        for ws, (_, seat) in zip(sockets, urls, strict=True)
    ]
    await asyncio.sleep(seconds)
    moves, errors, measured = counts[0], counts[1], list(latencies)
    elapsed = time.monotonic() - start
    cpu = time.process_time() - cpu_start
    failures = [repr(t.exception()) for t in tasks if t.done() and t.exception() is not None]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    return {
        "seconds": elapsed,
        "connect_seconds": connected,
        "cpu": cpu,
        "moves": moves,
        "errors": errors,
        "latencies": measured,
        "failures": failures[:5],
        "failed": len(failures),
    }


def client_main(args: argparse.Namespace) -> None:
    urls = [(u, s) for u, s in json.loads(Path(args.links).read_text())]
    playing = Path(args.out + ".playing")
    gc.disable()  # the clients' own collections would show as the server's latency
    result = asyncio.run(run_clients(urls, args.seconds, args.think, playing))
    Path(args.out).write_text(json.dumps(result))


def player_address(table: int) -> str:
    """The loopback address the players of a table come from: one per table, as players on
    the internet come from addresses of their own (the whole of 127.0.0.0/8 is this machine)."""
    return f"127.0.{1 + table // 250}.{1 + table % 250}"


ATTACKER = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
"""Where the attack comes from: one address floods table creations, one opens idle
connections, one sends requests a byte at a time."""


async def attack(port: int, seconds: float) -> dict[str, Any]:
    """Flood the server from 127.0.0.2–4 for ``seconds``: table creations as fast as they are
    answered, idle connections, and half-sent requests; count what the server answered."""
    counts: dict[str, int] = {}
    body = json.dumps({"seats": ["rule"] * 4, "options": {"target": 10_000}}).encode()
    request = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    stop = time.monotonic() + seconds

    def count(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1

    async def flood() -> None:
        while time.monotonic() < stop:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(ATTACKER[0], 0)
                )
                writer.write(request)
                status = (await asyncio.wait_for(reader.readline(), 10)).split(b" ")[1:2]
                count(f"create {status[0].decode() if status else 'closed'}")
                writer.close()
            except (TimeoutError, OSError):
                count("create refused")

    async def idle(address: str, trickle: bool) -> None:
        while time.monotonic() < stop:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(address, 0)
                )
            except OSError:
                count("connect refused")
                await asyncio.sleep(0.2)
                continue
            count("half-sent opened" if trickle else "idle opened")
            try:
                while time.monotonic() < stop:
                    if trickle:
                        writer.write(b"GET / HTTP/1.1\r\nX: ")
                    data = await asyncio.wait_for(reader.read(1024), 0.5 if trickle else 60)
                    if not data or data.startswith(b"HTTP/1.1 "):
                        count("closed by the server")
                        break
            except TimeoutError:
                continue
            except OSError:
                count("closed by the server")
            finally:
                writer.close()
            await asyncio.sleep(0.2)  # then again: the attacker's own CPU is not the server's

    await asyncio.gather(
        *(flood() for _ in range(4)),
        *(idle(ATTACKER[1], False) for _ in range(300)),
        *(idle(ATTACKER[2], True) for _ in range(300)),
    )
    return counts


def attacker_main(args: argparse.Namespace) -> None:
    result = asyncio.run(attack(args.attack, args.seconds))
    Path(args.out).write_text(json.dumps(result))


# --- the server and the measurement (first process) ------------------------------------------


def rss_mb(pid: int) -> float:
    """The resident memory of a process in MB (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def wait_up(url: str, process: subprocess.Popen[bytes]) -> None:
    for _ in range(400):
        if process.poll() is not None:
            raise SystemExit("the server did not start")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the server did not answer")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# --- the reference: the bare WebSocket stack relaying frames of the same size ---------------


def relay_main(port: int) -> None:
    """A Starlette/uvicorn server with no game: any message from a seat makes it send every
    seat of the table a state-shaped frame of the size chibre sends (the next seat to act,
    one legal card), so the same clients drive it. What chibre costs above this is the
    game, the store and the views."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket

    groups: dict[str, dict[str, Any]] = {}
    pad = "x" * 2600

    def frame(group: dict[str, Any], seat: int) -> str:
        legal = [{"kind": "play", "card": "H6", "weis": [], "stoeck": False}]
        view = {
            "seat": seat,
            "to_act": group["to_act"],
            "legal": legal if group["to_act"] == seat else [],
        }
        state = {"type": "state", "seq": group["seq"], "view": view, "pad": pad}
        return json.dumps(state, separators=(",", ":"))

    async def sock(ws: WebSocket) -> None:
        await ws.accept()
        seat = int(ws.query_params["seat"])
        group = groups.setdefault(ws.path_params["g"], {"seq": 1, "to_act": 0, "members": {}})
        group["members"][seat] = ws
        await ws.send_text(frame(group, seat))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                json.loads(message["text"])
                group["seq"] += 1
                group["to_act"] = (group["to_act"] + 1) % 4
                for s, member in list(group["members"].items()):
                    await member.send_text(frame(group, s))
        finally:
            group["members"].pop(seat, None)

    async def up(request: Any) -> PlainTextResponse:
        return PlainTextResponse("up")

    app = Starlette(routes=[Route("/up", up), WebSocketRoute("/ws/{g}", sock)])
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_per_message_deflate=False,
        ws="websockets-sansio",
    )


# --- a measured run --------------------------------------------------------------------------


def measure(
    server: subprocess.Popen[bytes], urls: list[tuple[str, int]], args: argparse.Namespace,
    tmp: Path, env: dict[str, str], attack_port: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Play the seats ``urls`` from a client process; the server's CPU and memory measured
    while they play (and, with ``attack_port``, while an attacker floods it)."""
    rss_start = rss_mb(server.pid)
    clients, outs = [], []
    share = -(-len(urls) // 4 // args.clients) * 4  # whole tables to each client process
    for k in range(args.clients):
        links = tmp / f"links-{server.pid}-{k}.json"
        out = tmp / f"result-{server.pid}-{k}.json"
        links.write_text(json.dumps(urls[k * share : (k + 1) * share]))
        command = [
            sys.executable, __file__, "--client", "--links", str(links), "--out", str(out),
            "--seconds", str(args.seconds), "--think", str(args.think),
        ]  # fmt: skip
        clients.append(subprocess.Popen(command, env=env))
        outs.append(out)
    rss_max = rss_start
    cpu_start = None
    attacker = None
    attacked = tmp / f"attack-{server.pid}.json"
    while any(c.poll() is None for c in clients):
        playing = all(Path(str(out) + ".playing").exists() for out in outs)
        if cpu_start is None and playing:
            cpu_start = _cpu_seconds(server.pid)
            if attack_port is not None:
                attacker = subprocess.Popen(
                    [
                        sys.executable, __file__, "--attack", str(attack_port),
                        "--out", str(attacked), "--seconds", str(args.seconds),
                    ],
                    env=env,
                )  # fmt: skip
        rss_max = max(rss_max, rss_mb(server.pid))
        time.sleep(0.1)
    cpu_end = _cpu_seconds(server.pid)
    parts = [json.loads(out.read_text()) for out in outs]
    result: dict[str, Any] = {
        "seconds": max(p["seconds"] for p in parts),
        "connect_seconds": max(p["connect_seconds"] for p in parts),
        "cpu": sum(p["cpu"] for p in parts),
        "moves": sum(p["moves"] for p in parts),
        "errors": sum(p["errors"] for p in parts),
        "latencies": [x for p in parts for x in p["latencies"]],
        "failures": [f for p in parts for f in p["failures"]][:5],
        "failed": sum(p["failed"] for p in parts),
    }
    if attacker is not None:
        attacker.wait(timeout=60)
        result["attack"] = json.loads(attacked.read_text())
    result["server_cpu"] = None if cpu_start is None or cpu_end is None else cpu_end - cpu_start
    result["rss_start"], result["rss_max"] = rss_start, rss_max
    return result


def report(name: str, result: dict[str, Any]) -> float:
    """Print one run's figures; returns its p99 latency in ms."""
    lat = [x * 1000 for x in result["latencies"]]
    seconds = result["seconds"]
    moves = result["moves"]
    p99 = percentile(lat, 99) if lat else float("inf")
    print(f"{name}")
    print(f"  moves           {moves} in {seconds:.1f} s: {moves / seconds:.0f} moves/s")
    if lat:
        print(
            f"  move latency    p50 {statistics.median(lat):.1f} ms, p99 {p99:.1f} ms, "
            f"max {max(lat):.1f} ms"
        )
    cpu = result["server_cpu"]
    if cpu is not None and moves:
        print(
            f"  server CPU      {cpu:.1f} s ({cpu / seconds * 100:.0f}% of one core), "
            f"{cpu / moves * 1000:.2f} ms per move"
        )
    client_ms = result["cpu"] / max(moves, 1) * 1000
    print(f"  client CPU      {result['cpu']:.1f} s ({client_ms:.2f} ms per move)")
    rss = f"VmRSS max {result['rss_max']:.0f} MB (at start {result['rss_start']:.0f} MB)"
    print(f"  server memory   {rss}")
    print(f"  errors          {result['errors']} error frames, {result['failed']} clients failed")
    for failure in result["failures"]:
        print("   ", failure)
    return p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds before each move, on average"
    )
    parser.add_argument("--no-reference", action="store_true", help="skip the bare relay")
    parser.add_argument(
        "--clients", type=int, default=1, help="client processes the seats are shared among"
    )
    parser.add_argument(
        "--abuse",
        action="store_true",
        help="with the default limits, play once quietly and once while an attacker floods "
        "table creations and opens idle and half-sent connections; compare",
    )
    parser.add_argument("--attack", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--relay", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--links", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        client_main(args)
        return
    if args.relay:
        relay_main(args.relay)
        return
    if args.attack:
        attacker_main(args)
        return

    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        chibre = run_chibre(args, tmp, env, attacked=False)
        under_attack = run_chibre(args, tmp, env, attacked=True) if args.abuse else None
        reference = None if args.no_reference or args.abuse else run_reference(args, tmp, env)
    print(
        f"{args.tables} tables, four human seats each ({4 * args.tables} WebSockets), "
        f"think {args.think} s, {args.seconds:.0f} s of play; load average {load:.1f} "
        f"on {os.cpu_count()} cores at the start"
    )
    p99 = report("chibre serve", chibre)
    if reference is not None:
        report("reference: bare Starlette/uvicorn relay, same clients, same frame size", reference)
    ok = p99 <= GOAL_P99_MS and chibre["rss_max"] <= GOAL_RSS_MB
    if under_attack is None:
        print(
            f"goal: p99 <= {GOAL_P99_MS:.0f} ms and < {GOAL_RSS_MB:.0f} MB: "
            f"{'met' if ok else 'not met'}"
        )
        return
    attacked_p99 = report(
        "chibre serve under attack (table floods, idle and half-sent connections)", under_attack
    )
    print(
        "  the attack       "
        + ", ".join(f"{k}: {v}" for k, v in sorted(under_attack["attack"].items()))
    )
    lat = [x * 1000 for x in chibre["latencies"]]
    hit = [x * 1000 for x in under_attack["latencies"]]
    print(
        f"side by side      p50 {statistics.median(lat):.1f} -> {statistics.median(hit):.1f} ms, "
        f"p99 {p99:.1f} -> {attacked_p99:.1f} ms ({attacked_p99 / p99:.2f}x), "
        f"memory {under_attack['rss_max']:.0f} MB"
    )
    ok = attacked_p99 <= 2 * p99 and under_attack["rss_max"] <= GOAL_RSS_MB
    verdict = "met" if ok else "not met"
    print(f"goal: p99 under attack <= 2x p99 without, < {GOAL_RSS_MB:.0f} MB: {verdict}")


def run_chibre(
    args: argparse.Namespace, tmp: Path, env: dict[str, str], attacked: bool
) -> dict[str, Any]:
    """A chibre server on a fresh file, its tables created and played (and attacked)."""
    port = free_port()
    db = tmp / f"bench-{'attacked' if attacked else 'quiet'}.sqlite"
    limits = (
        []  # the default limits: the players come from addresses of their own
        if args.abuse
        else [
            "--tables-per-minute", "1000000", "--max-connections-per-address", "100000",
            "--max-tables", "100000", "--max-connections", "100000",
        ]
    )  # fmt: skip
    server = subprocess.Popen(
        [
            sys.executable, "-m", "chibre.cli", "serve", "--port", str(port), "--db", str(db),
            "--no-browser", "--bot-delay", "0", "--deal-delay", "0", *limits,
        ],
        env=env,
    )  # fmt: skip
    try:
        wait_up(f"http://127.0.0.1:{port}/api/players", server)
        urls: list[tuple[str, int]] = []
        for n in range(args.tables):
            table = create(port, player_address(n))
            for s in table["seats"]:
                token = s["link"].partition("=")[2]
                urls.append((f"ws://127.0.0.1:{port}/ws/{table['table']}?token={token}", s["seat"]))
        return measure(server, urls, args, tmp, env, attack_port=port if attacked else None)
    finally:
        server.terminate()
        server.wait(timeout=20)


def create(port: int, address: str) -> Any:
    """A table of four human seats, asked for from ``address``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(address, 0))
    try:
        body = json.dumps({"seats": ["human"] * 4, "options": {"target": 10_000}})
        conn.request("POST", "/api/tables", body, {"Content-Type": "application/json"})
        answer = conn.getresponse()
        if answer.status != 200:
            raise SystemExit(f"a table could not be created: {answer.status} {answer.read()!r}")
        return json.loads(answer.read())
    finally:
        conn.close()


def run_reference(args: argparse.Namespace, tmp: Path, env: dict[str, str]) -> dict[str, Any]:
    """The bare relay, played by the same clients."""
    port = free_port()
    relay = subprocess.Popen([sys.executable, __file__, "--relay", str(port)], env=env)
    try:
        wait_up(f"http://127.0.0.1:{port}/up", relay)
        relay_urls = [
            (f"ws://127.0.0.1:{port}/ws/{t}?seat={s}", s)
            for t in range(args.tables)
            for s in range(4)
        ]
        return measure(relay, relay_urls, args, tmp, env)
    finally:
        relay.terminate()
        relay.wait(timeout=20)


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a running process, from /proc/PID/stat."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
