"""Table server load: many tables of four human seats played over WebSockets at once.

Starts ``chibre serve`` as a subprocess (bot and deal delays 0) on a temporary SQLite file,
opens N tables whose four seats are all human, and plays them from a second process: one
asyncio WebSocket client per seat, each playing a random legal action as soon as it is its
turn (after ``--think`` seconds, 0 by default). Runs for a set duration, then prints the
tables, the moves per second, the move latency — from sending an action to receiving the
state that shows it — at p50 and p99, and the server's resident memory (VmRSS from
/proc/PID/status, the highest seen during the run). The reference is the goal: 200 tables
with p99 <= 50 ms and under 300 MB on two cores.

    python bench/server.py [--tables 200] [--seconds 30] [--think 0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
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
    stop_at: float,
    think: float,
    rng: random.Random,
    latencies: list[float],
    counts: list[int],
) -> None:
    """Play one seat until ``stop_at``: a random legal action whenever it is our turn."""
    sent_seq = -1  # the seq our action was sent at; -1 when none is on its way
    sent_at = 0.0
    while True:
        left = stop_at - time.monotonic()
        if left <= 0:
            return
        try:
            raw = await asyncio.wait_for(ws.recv(decode=False), left)
        except TimeoutError:
            return
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
                if think:
                    await asyncio.sleep(think)
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
            *(websockets.connect(u, max_size=2**20, compression=None) for u, _ in batch)
        )
    connected = time.monotonic() - connect_start
    playing.write_text("")  # tells the first process that the measured run starts
    latencies: list[float] = []
    counts = [0, 0]
    rng = random.Random(1)
    cpu_start = time.process_time()
    start = time.monotonic()
    stop_at = start + seconds
    tasks = [
        asyncio.create_task(
            seat_client(ws, seat, stop_at, think, random.Random(rng.random()), latencies, counts)
        )
        for ws, (_, seat) in zip(sockets, urls, strict=True)
    ]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - start
    cpu = time.process_time() - cpu_start
    failures = [repr(r) for r in results if isinstance(r, BaseException)]
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    return {
        "seconds": elapsed,
        "connect_seconds": connected,
        "cpu": cpu,
        "moves": counts[0],
        "errors": counts[1],
        "latencies": latencies,
        "failures": failures[:5],
        "failed": len(failures),
    }


def client_main(args: argparse.Namespace) -> None:
    urls = [(u, s) for u, s in json.loads(Path(args.links).read_text())]
    playing = Path(args.out + ".playing")
    result = asyncio.run(run_clients(urls, args.seconds, args.think, playing))
    Path(args.out).write_text(json.dumps(result))


# --- the server and the measurement (first process) ------------------------------------------


def rss_mb(pid: int) -> float:
    """The resident memory of a process in MB (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def post_json(url: str, body: Any) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


def wait_up(base: str, process: subprocess.Popen[bytes]) -> None:
    for _ in range(400):
        if process.poll() is not None:
            raise SystemExit("the server did not start")
        try:
            with urllib.request.urlopen(base + "/api/players", timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the server did not answer")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=0.0, help="seconds before each move")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--links", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        client_main(args)
        return

    import socket

    port = args.port
    if not port:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        server = subprocess.Popen(
            [
                sys.executable, "-m", "chibre.cli", "serve", "--port", str(port),
                "--db", str(db), "--no-browser", "--bot-delay", "0", "--deal-delay", "0",
            ],
            env=env,
        )  # fmt: skip
        try:
            base = f"http://127.0.0.1:{port}"
            wait_up(base, server)
            urls: list[tuple[str, int]] = []
            for _ in range(args.tables):
                table = post_json(
                    base + "/api/tables",
                    {"seats": ["human"] * 4, "options": {"target": 10**6}},
                )
                for s in table["seats"]:
                    token = s["link"].partition("=")[2]
                    urls.append(
                        (f"ws://127.0.0.1:{port}/ws/{table['table']}?token={token}", s["seat"])
                    )
            links, out = Path(tmp) / "links.json", Path(tmp) / "result.json"
            links.write_text(json.dumps(urls))
            rss_start = rss_mb(server.pid)
            client = subprocess.Popen(
                [
                    sys.executable, __file__, "--client", "--links", str(links),
                    "--out", str(out), "--seconds", str(args.seconds), "--think", str(args.think),
                ],
                env=env,
            )  # fmt: skip
            rss_max = rss_start
            cpu_start = None
            playing = Path(str(out) + ".playing")
            while client.poll() is None:
                if cpu_start is None and playing.exists():
                    cpu_start = _cpu_seconds(server.pid)
                rss_max = max(rss_max, rss_mb(server.pid))
                time.sleep(0.1)
            cpu_end = _cpu_seconds(server.pid)
            cpu = None if cpu_start is None or cpu_end is None else cpu_end - cpu_start
            result = json.loads(out.read_text())
        finally:
            server.terminate()
            server.wait(timeout=20)
    lat = [x * 1000 for x in result["latencies"]]
    seconds = result["seconds"]
    print(f"tables          {args.tables} (four human seats each, {len(urls)} WebSockets)")
    print(
        f"duration        {seconds:.1f} s of play (after {result['connect_seconds']:.1f} s "
        f"to connect), think {args.think} s"
    )
    print(f"moves           {result['moves']} ({result['moves'] / seconds:.0f} moves/s)")
    if lat:
        print(
            f"move latency    p50 {statistics.median(lat):.1f} ms, "
            f"p99 {percentile(lat, 99):.1f} ms, max {max(lat):.1f} ms"
        )
    print(f"server memory   VmRSS max {rss_max:.0f} MB (at start {rss_start:.0f} MB)")
    print(f"client CPU      {result['cpu']:.1f} s (all clients, one process)")
    if result["moves"]:
        per_move = (cpu or 0) / result["moves"] * 1000
        print(f"server CPU/move {per_move:.2f} ms (receive, check, store, 4 states sent)")
    if cpu is not None:
        print(f"server CPU      {cpu:.1f} s over the run ({cpu / seconds * 100:.0f}% of one core)")
    print(f"errors          {result['errors']} error frames, {result['failed']} clients failed")
    for failure in result["failures"]:
        print("   ", failure)
    p99 = percentile(lat, 99) if lat else float("inf")
    ok = p99 <= GOAL_P99_MS and rss_max <= GOAL_RSS_MB
    print(
        f"goal            p99 <= {GOAL_P99_MS:.0f} ms and < {GOAL_RSS_MB:.0f} MB: "
        f"{'met' if ok else 'not met'}"
    )


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a running process, from /proc/PID/stat."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
