"""Memory of `koma serve` while many computer rooms think at once.

Starts KOMA (a release build) on loopback with a fresh data directory, creates ROOMS computer rooms at
level 8 where the computer moves first, and plays ROUNDS computer moves in each: every round, all the
computers think at once, then every human answers with a legal move. Prints the server's VmRSS and
VmHWM (peak) in MB after each round, and at the end whether any room ended (and why).

    python3 scripts/load/computer_burst.py target/release/koma 40 3 [--engine-threads 2 ...]

SETTINGS='{"time_per_move": 5}' gives every room a clock (any room setting, as JSON). The human
side is this script: with a short clock, it can itself run out of time while it waits for the last
room of a round.
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

binary, rooms, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
port = 18000 + os.getpid() % 1000
base = f"http://127.0.0.1:{port}"
server = subprocess.Popen(
    [binary, "serve", "--bind", f"127.0.0.1:{port}", "--data-dir", tempfile.mkdtemp(prefix="koma-burst-"),
     "--rooms-per-hour", "100000", "--log", "warn", *sys.argv[4:]])


def call(method, path, body=None, token=None):
    request = urllib.request.Request(base + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.loads(response.read() or b"null")


def memory():
    """VmRSS and VmHWM of the server, in MB."""
    fields = {}
    with open(f"/proc/{server.pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) // 1024
    return fields


def answer(room):
    view = call("GET", f"/api/v1/rooms/{room['id']}")
    if view["status"] == "playing":
        call("POST", f"/api/v1/rooms/{room['id']}/moves", {"move": view["legal_moves"][0]}, room["token"])


try:
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=5).read()
            break
        except OSError:
            time.sleep(0.1)
    print("idle", memory(), flush=True)
    settings = json.loads(os.environ.get("SETTINGS", "{}"))
    made = [call("POST", "/api/v1/rooms", {"variant": "shogi", "mode": "computer", "level": 8,
                                           "seat": "second", "settings": settings})
            for _ in range(rooms)]
    for round_ in range(rounds):
        start = time.time()
        for room in made:
            while True:
                view = call("GET", f"/api/v1/rooms/{room['id']}")
                if len(view["moves"]) == 2 * round_ + 1 or view["status"] != "playing":
                    break
                time.sleep(0.05)
        print(f"round {round_ + 1}: {rooms} computers answered in {time.time() - start:.1f} s", memory(),
              flush=True)
        if round_ + 1 < rounds:
            threads = [threading.Thread(target=answer, args=(room,)) for room in made]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    time.sleep(2)
    views = [call("GET", f"/api/v1/rooms/{room['id']}") for room in made]
    ended = [(view["result"], len(view["moves"])) for view in views if view["status"] != "playing"]
    print("after", memory(), "rooms ended:", ended or "none", flush=True)
finally:
    server.terminate()
    server.wait()
