#!/usr/bin/python3
"""tests/bench_web.py GSOLVE [CLIENTS] [REQUESTS] -- gsolve serve under load.

Starts `GSOLVE serve games/tictactoe.game games/nim.game` and runs CLIENTS
(32) clients on loopback, each sending REQUESTS (200) requests on one
keep-alive connection, in turn: /api/position of a Tic-tac-toe position
(a child gsolve solves it), /api/describe of it (a child draws it),
/api/position of Nim, and /api/games (no child).  Reports the throughput
and the latency's median, 99th percentile and maximum, per kind and in
all, and fails (exit 1) on any answer that is not a 200 with JSON, or when
the whole run takes longer than its cap (300 s)."""
import http.client, json, os, subprocess, sys, threading, time

GSOLVE = os.path.abspath(sys.argv[1])
CLIENTS = int(sys.argv[2]) if len(sys.argv) > 2 else 32
REQUESTS = int(sys.argv[3]) if len(sys.argv) > 3 else 200
CAP = 300
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

server = subprocess.Popen([GSOLVE, "serve", "--port", "0", os.path.join(ROOT, "games/tictactoe.game"),
                           os.path.join(ROOT, "games/nim.game")], stdout=subprocess.PIPE, text=True)
host, port = server.stdout.readline().split()[2][len("http://"):].rstrip("/").split(":")
LINES = ["a1", "a1+b2", "b2+a1+c3", "a1+b1+c1+a2", "c3+b2", "", "b2", "a3+c1+b2"]
KINDS = [("position", lambda i: "/api/position?game=tictactoe&moves=" + LINES[i % len(LINES)]),
         ("describe", lambda i: "/api/describe?game=tictactoe&moves=" + LINES[i % len(LINES)]),
         ("nim", lambda i: "/api/position?game=nim&heaps=%d,%d,%d" % (1 + i % 5, 2 + i % 3, 3)),
         ("games", lambda i: "/api/games")]
lat = {k: [] for k, _ in KINDS}
errors = []
lock = threading.Lock()


def client(c):
    conn = http.client.HTTPConnection(host, int(port), timeout=120)
    mine = {k: [] for k, _ in KINDS}
    for i in range(REQUESTS):
        kind, target = KINDS[(c + i) % len(KINDS)]
        t = time.perf_counter()
        try:
            conn.request("GET", target(c * REQUESTS + i))
            r = conn.getresponse()
            body = r.read()
            ok = r.status == 200 and isinstance(json.loads(body), dict)
        except Exception as e:      # a refused or broken connection
            ok, body = False, str(e).encode()
            conn.close()
            conn = http.client.HTTPConnection(host, int(port), timeout=120)
        mine[kind].append(time.perf_counter() - t)
        if not ok:
            with lock:
                errors.append("%s: %s" % (target(i), body[:120]))
    with lock:
        for k in mine:
            lat[k].extend(mine[k])


t0 = time.perf_counter()
threads = [threading.Thread(target=client, args=(c,)) for c in range(CLIENTS)]
for t in threads:
    t.start()
for t in threads:
    t.join(CAP)
wall = time.perf_counter() - t0
server.send_signal(2)
server.wait(30)


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000 if xs else 0


every = [x for k in lat for x in lat[k]]
print("gsolve serve: %d clients x %d requests on loopback, %d answered in %.1f s: %.0f requests/s"
      % (CLIENTS, REQUESTS, len(every), wall, len(every) / wall))
for k, _ in KINDS + [("all", None)]:
    xs = every if k == "all" else lat[k]
    print("  %-9s %5d requests  median %7.1f ms  p99 %7.1f ms  max %7.1f ms"
          % (k, len(xs), pct(xs, 0.5), pct(xs, 0.99), max(xs) * 1000 if xs else 0))
print("  failed requests: %d" % len(errors))
for e in errors[:10]:
    print("    " + e)
bad = errors or len(every) != CLIENTS * REQUESTS or wall > CAP or server.returncode != 0
print(("FAIL" if bad else "ok") + ": no failed request, within the %d s cap, the server stopped cleanly" % CAP)
sys.exit(1 if bad else 0)
