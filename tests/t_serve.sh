# gsolve serve, the web explorer (docs/web.md): --describe --json (what
# its page draws), the server's command line, its request parser's fuzz
# corpus, 200 malformed requests (tests/web_malformed.py) and the page
# itself in headless Chromium (tests/web_test.py: Tic-tac-toe to the end
# by clicks, each value shown against --all-moves --json; Connect Four
# against level 3; Nim's heaps; Kuhn's strategy), screenshots in
# $BUILD/web-*.png.  Sourced by tests/run.sh.

# --describe: the board, the moves with the cells they change, the views.
sv_out=$(gs games/tictactoe.game --engine vm --describe --json --position "a1 b2")
sv_py='import json,sys; d=json.load(sys.stdin)'
check "--describe: Tic-tac-toe's rect board and its cells" "rect 3 3 a1 c3" \
  "$(printf '%s' "$sv_out" | python3 -c "$sv_py; b=d['board']; print(b['kind'], b['width'], b['height'], b['cells'][0], b['cells'][-1])")"
check "--describe: after a1 b2, X to move, 7 moves, b1 fills cell 1" "X 7 b1 [1]" \
  "$(printf '%s' "$sv_out" | python3 -c "$sv_py; m=d['moves']; print(d['to_move'], len(m), m[0]['move'], m[0]['cells'])")"
check "--describe: the board's values (X on a1, O on b2) and the parameters' ranges" "[1, 0, 0, 0, 2] m 1..26" \
  "$(printf '%s' "$sv_out" | python3 -c "$sv_py; p=d['params'][0]; print(d['vars'][0]['values'][:5], p['name'], '%d..%d' % (p['lo'], p['hi']))")"
sv_out=$(gs games/nim.game --engine vm --describe --json -D heaps=2,3)
check "--describe: Nim's heaps 2,3, 5 moves; take 2 3 changes heap[1]" "[2, 3] 5 [[0, 1]] list" \
  "$(printf '%s' "$sv_out" | python3 -c "$sv_py; print(d['vars'][0]['values'], len(d['moves']), d['moves'][4]['entries'], d['params'][0]['type'])")"
sv_out=$(gs games/kuhn.game --describe --json --position "deal J")
check "--describe: Kuhn's deal, chance moves of probability 1/2; P2 does not see P1's J" "0.5 0.5 card=[?,no]" \
  "$(printf '%s' "$sv_out" | python3 -c "$sv_py; print(*[m['probability'] for m in d['moves']], d['views'][1]['info'].split()[0])")"
sv_out=$(gs games/tictactoe.game --engine vm --describe --json --position "a1 a2 b1 b2 c1")
check "--describe: an ended game, its payoffs" "True None [1, 0] 0" \
  "$(printf '%s' "$sv_out" | python3 -c "$sv_py; print(d['ended'], d['to_move'], d['payoffs'], len(d['moves']))")"
gs games/connect4.game --describe --json >/dev/null 2>"$BUILD/tests/serve.err"
check "--describe on a native engine: exit 2, asks for --engine vm" "2 1" \
  "$? $(grep -c 'give --engine vm' "$BUILD/tests/serve.err")"
gs games/tictactoe.game --describe >/dev/null 2>&1
check "--describe without --json: exit 2" 2 $?

# sv_start ARGS...: gsolve serve ARGS --port 0 in the background
# ($sv_pid), its URL in $sv_url once it listens (30 s at most).
# (The files are removed first: the shell's child truncates them only when
# it runs, and the last server's URL must not be read for this one's.)
sv_start() {
  rm -f "$BUILD/tests/serve.out" "$BUILD/tests/serve.err"
  $GSOLVE serve "$@" --port 0 >"$BUILD/tests/serve.out" 2>"$BUILD/tests/serve.err" &
  sv_pid=$!
  sv_n=0
  while [ $sv_n -lt 300 ] && ! grep -q 'http://' "$BUILD/tests/serve.out" 2>/dev/null; do
    sleep 0.1
    sv_n=$((sv_n + 1))
  done
  sv_url=$(sed -n 's|^gsolve serve: \(http://[^ ]*\).*|\1|p' "$BUILD/tests/serve.out")
}

# The server's command line.
gs serve --help | grep -q 'usage: gsolve serve'
check "gsolve serve --help" 0 $?
gs serve --port 99999 >/dev/null 2>&1
check "gsolve serve --port 99999: exit 2" 2 $?
gs serve games/nope.game >/dev/null 2>&1
check "gsolve serve FILE that is not there: exit 2" 2 $?
gs serve tests/errors/$(ls tests/errors | grep '\.game$' | head -n 1) --port 0 >/dev/null 2>&1
check "gsolve serve FILE with errors: exit 3, not served" 3 $?
# --bind elsewhere than loopback: a warning.  127.0.0.2 is loopback too,
# so that the test opens nothing to the network.
sv_start games/nim.game --bind 127.0.0.2
kill -INT $sv_pid
wait $sv_pid
check "gsolve serve --bind 127.0.0.2: listens there, warns, stops on Ctrl-C with status 0" "1 1 0" \
  "$(grep -c 'http://127.0.0.2:' "$BUILD/tests/serve.out") $(grep -c 'warning: listening on 127.0.0.2' "$BUILD/tests/serve.err") $?"

# IPv6 (it was IPv4 only): the loopback ::1, no warning, the URL in
# brackets, a position answered there.
sv_start games/nim.game --bind ::1
sv_v6=$(python3 -c "
import json, urllib.request as u
print(json.load(u.urlopen('${sv_url}api/position?game=nim&moves='))['value'])" 2>&1)
kill -INT $sv_pid
wait $sv_pid
check "gsolve serve --bind ::1: http://[::1]:PORT/, no warning, Nim 1,3,5,7 answered a loss, status 0" \
  "1 0 loss 0" \
  "$(grep -c 'http://\[::1\]:' "$BUILD/tests/serve.out") $(grep -c warning "$BUILD/tests/serve.err") $sv_v6 $?"
gs serve --bind ::g >/dev/null 2>&1
check "gsolve serve --bind ::g (not an address): exit 2" 2 $?

# --db FILE: the first game's values from its database (its own rules:
# with a parameter given, solved as usual).
gs games/tictactoe.game --solver retro --db "$BUILD/tests/serve-ttt.db" --quiet >/dev/null
sv_start games/tictactoe.game games/dice.game --db "$BUILD/tests/serve-ttt.db"
sv_want=$(gs games/tictactoe.game --position "a1 b2" --all-moves --json --quiet |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["moves"])')
check "gsolve serve --db: /api/position answers from the database, the command's values; with -D m=4, solved" \
  "db True alphabeta" \
  "$(python3 -c "
import json, urllib.request as u
a = json.load(u.urlopen('${sv_url}api/position?game=tictactoe&moves=a1+b2'))
b = json.load(u.urlopen('${sv_url}api/position?game=tictactoe&m=4&moves=a1'))
print(a['solver'], str(a['moves']) == '''$sv_want''', b['solver'])" 2>&1)"
# The computer of a game with chance at a level: no depth search there,
# the exact solve's best moves (as gsolve play).
check "gsolve serve: /api/computer on Dice duel at level 3 = the command's --solve" \
  "$(gs games/dice.game --position "rolls 1" --solve --json --quiet | python3 -c 'import json,sys; print(json.load(sys.stdin)["best"])')" \
  "$(python3 -c "
import json, urllib.request as u
print(json.load(u.urlopen('${sv_url}api/computer?game=dice&moves=rolls+1&level=3'))['best'])" 2>&1)"
kill -INT $sv_pid
wait $sv_pid

# The request parser's fuzz corpus, replayed (fuzz/fuzz_http.c).
if [ -x "$BUILD/replay" ]; then
  sv_n=$(ls fuzz/corpus_http | wc -l | tr -d ' ')
  check "fuzz replay over $sv_n request targets, the http harness" "replayed $sv_n input(s)" \
    "$("$BUILD/replay" -h http fuzz/corpus_http/* 2>&1 | tail -n 1)"
fi

# 200 malformed requests, then a good one.
sv_out=$(timeout 120 /usr/bin/python3 tests/web_malformed.py "$GSOLVE" 2>&1)
printf '%s\n' "$sv_out" | grep '^FAIL' | head -n 20
check "200 malformed requests: each its 4xx and JSON error, the server answers afterwards, stops on SIGINT at once" \
  "4 0" "$(printf '%s\n' "$sv_out" | grep -c '^ok') $(printf '%s\n' "$sv_out" | grep -c '^FAIL')"

# The page in headless Chromium (make test installs chromium,
# chromium-driver and python3-selenium; without them: said, skipped).
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && /usr/bin/python3 -c 'import selenium' 2>/dev/null; then
  sv_out=$(timeout 300 /usr/bin/python3 tests/web_test.py "$GSOLVE" "$BUILD" 2>&1)
  sv_ok=$(printf '%s\n' "$sv_out" | grep -c '^ok')
  printf '%s\n' "$sv_out" | grep -v '^ok' | head -n 20
  check "the page in headless Chromium: every check passed ($sv_ok)" "0 1" \
    "$(printf '%s\n' "$sv_out" | grep -c '^FAIL') $(printf '%s\n' "$sv_out" | grep -c '^ok   no JavaScript error logged')"
else
  echo "  (chromium, chromium-driver or python3-selenium is missing: the page's test is skipped; make test installs them)"
fi
