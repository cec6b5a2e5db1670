#!/usr/bin/python3
"""tests/web_malformed.py GSOLVE -- 200 malformed requests to gsolve serve.

Starts `GSOLVE serve` on Tic-tac-toe, Nim and tests/files/store_range.game
(whose move fails at run time) and sends 200 bad requests over raw
sockets: unknown pages, paths that climb out, unknown or doubled fields,
bad escapes, control bytes, values outside their alphabet or range,
illegal moves, a target too long, a head too big, a body, other methods,
a rule's runtime error.  Each answer's status is checked, and its body is
a JSON object naming the problem (where the server, not libmicrohttpd,
answers).  Then the server must still answer a good request with the
command's own JSON and a HEAD, and stop on SIGINT with status 0 within
3 s while analyses run and others wait.
Prints "ok ..." or "FAIL ..." lines; exits 1 on a failure."""
import json, os, random, socket, subprocess, sys

GSOLVE = os.path.abspath(sys.argv[1])
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
failures = 0


def check(desc, ok, detail=""):
    global failures
    if not ok:
        print("FAIL " + desc + ": " + detail)
        failures += 1
    return ok


server = subprocess.Popen([GSOLVE, "serve", "--port", "0", "--time-limit", "5", "--jobs", "2",
                           os.path.join(ROOT, "games/tictactoe.game"), os.path.join(ROOT, "games/nim.game"),
                           os.path.join(ROOT, "tests/files/store_range.game")],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
line = server.stdout.readline()
if not line.startswith("gsolve serve: http://"):
    print("FAIL the server did not start: " + line + server.stderr.read())
    sys.exit(1)
host, port = line.split()[2][len("http://"):].rstrip("/").split(":")
port = int(port)


def raw(data):
    """Sends bytes, returns (status, body) of the answer; status 0 if none."""
    s = socket.create_connection((host, port), timeout=30)
    try:
        s.sendall(data)
        chunks = []
        while True:
            try:
                b = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not b:
                break
            chunks.append(b)
    finally:
        s.close()
    resp = b"".join(chunks)
    if not resp.startswith(b"HTTP/1."):
        return 0, b""
    head, _, body = resp.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body


def get(target, method="GET", extra=b""):
    if isinstance(target, str):
        target = target.encode()
    return raw(method.encode() + b" " + target + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + extra + b"\r\n")


T = "/api/position?game=tictactoe"
cases = [
    # (request, expected status, JSON body expected, text the error must hold)
    ("/nope", 404, True, "no such page"),
    ("/api/nope", 404, True, ""),
    ("/../../etc/passwd", 404, True, ""),
    ("/%2e%2e/%2e%2e/etc/passwd", 404, True, ""),
    ("/games/tictactoe.game", 404, True, ""),
    ("/api/position", 400, True, "'game' is missing"),
    ("/api/position?game=chess", 404, True, "no game 'chess'"),
    ("/api/position?game=../games/nim", 404, True, ""),
    ("/api/position?game=%2Fetc%2Fpasswd", 404, True, ""),
    ("/api/position?game=tictactoe&game=nim", 400, True, "twice"),
    (T + "&moves=z9", 400, True, "illegal move 'z9'"),
    (T + "&moves=a1+a1", 400, True, "illegal move"),
    (T + "&m=0", 400, True, "m"),
    (T + "&m=abc", 400, True, ""),
    (T + "&m=3;rm", 400, True, "letters, digits"),
    (T + "&m=3%20-D", 400, True, "letters, digits"),
    (T + "&x=1", 400, True, "not a parameter"),
    (T + "&m=3&m=4", 400, True, "twice"),
    (T + "&moves=%zz", 400, True, "escapes"),
    (T + "&moves=%0a", 400, True, ""),
    (T + "&moves=%00", 400, True, ""),
    (T + "&moves=a1%2", 400, True, ""),
    (T + "&noequals", 400, True, "without '='"),
    (T + "".join("&m%d=1" % i for i in range(40)), 400, True, "fields"),
    ("/api/position?game=tictactoe&moves=" + "a" * 20000, 414, True, "longer"),
    ("/api/position?game=tictactoe&moves=" + "a1+" * 3000, 400, True, "too long"),
    (T + "&m=" + "9" * 600, 400, True, "too long"),
    ("/api/games?x=1", 400, True, "no fields"),
    ("/api/computer?game=tictactoe&level=0", 400, True, "level"),
    ("/api/computer?game=tictactoe&level=13", 400, True, "level"),
    ("/api/computer?game=tictactoe&level=x", 400, True, "level"),
    ("/api/tree?game=tictactoe&depth=0", 400, True, "depth"),
    (T + "&level=3", 400, True, "level"),
    (T + "&depth=3", 400, True, "depth"),
    ("/api/position?game=store_range", 422, True, "store_range.game:9:31: runtime error"),
    ("/api/describe?game=store_range", 422, True, "out of range"),
    ("/api/position?game=nim&heaps=", 400, True, ""),
    ("/api/position?game=nim&heaps=1,2,99999999999", 400, True, ""),
    ("/api/position?game=nim&misere=maybe", 400, True, ""),
    ("/api/position?game=nim&moves=take+9+9", 400, True, "illegal move"),
]
reqs = [(get(r), s, j, t, r) for r, s, j, t in cases]
# Methods and bodies.
for m in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
    reqs.append((get("/api/games", m), 405, True, "only GET", m + " /api/games"))
reqs.append((raw(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello"),
             413, True, "no body", "GET with a body"))
# What libmicrohttpd refuses itself (any 4xx, or the connection closed).
reqs.append((raw(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70000 + b"\r\n\r\n"), "4xx", False, "",
             "a 70 kB header"))
reqs.append((raw(b"HELLO\r\n\r\n"), "4xx", False, "", "no request line"))
reqs.append((raw(b"GET http://x/api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), 400, True,
             "starts with /", "an absolute target"))
# Generated: illegal moves, unknown parameters, bad escapes, unknown pages.
rnd = random.Random(40)
while len(reqs) < 200:
    k = len(reqs) % 4
    if k == 0:
        mv = "q%d" % rnd.randrange(1000)
        reqs.append((get(T + "&moves=a1+" + mv), 400, True, "illegal move '%s'" % mv, "moves a1 " + mv))
    elif k == 1:
        p = "p%d" % rnd.randrange(1000)
        reqs.append((get("/api/position?game=nim&%s=1" % p), 400, True, "not a parameter", p))
    elif k == 2:
        esc = "%" + rnd.choice("gxyz%G") + rnd.choice("0123456789g")
        reqs.append((get(T + "&moves=" + esc), 400, True, "", "escape " + esc))
    else:
        path = "/" + "".join(rnd.choice("abcdef./%-_") for _ in range(rnd.randrange(1, 20)))
        reqs.append((get(path), 404, True, "", "page " + path))

bad = 0
for (status, body), want, is_json, text, name in reqs:
    ok = (400 <= status < 500 or status == 0) if want == "4xx" else status == want
    if ok and is_json:
        try:
            j = json.loads(body)
            ok = isinstance(j.get("error"), str) and text in j["error"] and j.get("status") == status
        except ValueError:
            ok = False
    if not check("%s: %s" % (name[:80], want), ok, "%d %s" % (status, body[:200])):
        bad += 1
print(("ok   " if bad == 0 else "FAIL ") + "%d malformed requests answered with their 4xx status and a JSON error"
      % len(reqs))
# The server still answers, and with the command's own JSON.
status, body = get(T + "&moves=a1")
want = subprocess.run([GSOLVE, os.path.join(ROOT, "games/tictactoe.game"), "--position", "a1", "--all-moves",
                       "--json", "--quiet"], capture_output=True, text=True).stdout
got = json.loads(body) if status == 200 else {}
w = json.loads(want)
print(("ok   " if status == 200 and got.get("moves") == w["moves"] and server.poll() is None else "FAIL ") +
      "after them the server answers /api/position as the command (%d moves)" % len(w["moves"]))
if not (status == 200 and got.get("moves") == w["moves"]):
    failures += 1
status, body = raw(b"HEAD /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
print(("ok   " if status == 200 and body == b"" else "FAIL ") + "HEAD /api/games: 200, no body")
if not (status == 200 and body == b""):
    failures += 1
# SIGINT while an analysis runs (5x5 Tic-tac-toe, 4 in a row: longer
# than the server's 5 s) and others wait for a job: the server stops at
# once, the analysis killed.
import threading, time
slow = [threading.Thread(target=get, args=(T + "&m=5&n=5&k=4&moves=c3",)) for _ in range(4)]
for t in slow:
    t.start()
time.sleep(1)
t0 = time.time()
server.send_signal(2)
try:
    rc = server.wait(10)
except subprocess.TimeoutExpired:
    server.kill()
    rc = -1
took = time.time() - t0
for t in slow:
    t.join(10)
ok = rc == 0 and took < 3
print(("ok   " if ok else "FAIL ") + "the server stops on SIGINT during analyses, in %.1f s (exit %d)" % (took, rc))
if not ok:
    failures += 1

sys.exit(1 if failures else 0)
