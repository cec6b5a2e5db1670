# tests/t_newuser.sh -- what a new user meets (issue 24): make install and
# uninstall, the files .gitignore covers, the README's and the tutorial's
# commands as typed after the build, progress on a terminal (and nothing
# when piped), play's board and evaluations, units that fit, JSON that is
# JSON, and flags that are refused rather than ignored.  Sourced by
# tests/run.sh.
nu_tmp=$(mktemp -d)
C4=games/connect4.game

# --- make install / uninstall, into a temporary DESTDIR -------------------
# The installed program is the checkout's ./gsolve (make install copies
# it); -o gsolve keeps make from rebuilding it, BUILD=build from reading a
# sanitizer build's objects.
[ -x ./gsolve ] || make -s BUILD=build gsolve >/dev/null 2>&1
nu_stage="$nu_tmp/stage"
make -s -o gsolve BUILD=build install DESTDIR="$nu_stage" PREFIX=/opt/gs >"$nu_tmp/log" 2>&1
check "make install DESTDIR PREFIX: succeeds" 0 $?
check "make install: PREFIX/bin/gsolve is executable" yes \
  "$([ -x "$nu_stage/opt/gs/bin/gsolve" ] && echo yes || echo no)"
check "make install: the man page in PREFIX/share/man/man1" yes \
  "$(cmp -s docs/gsolve.1 "$nu_stage/opt/gs/share/man/man1/gsolve.1" && echo yes || echo no)"
check "make install: every bundled game in PREFIX/share/gsolve/games" "$(ls games/*.game | wc -l)" \
  "$(ls "$nu_stage/opt/gs/share/gsolve/games/"*.game 2>/dev/null | wc -l)"
# The installed program, run from elsewhere, finds a game by its name.
nu_out=$(cd "$nu_tmp" && "$nu_stage/opt/gs/bin/gsolve" nim.game 2>&1)
check "installed gsolve nim.game: the installed game, solved" "Nim loss" \
  "$(field game "$nu_out" | cut -d' ' -f1) $(field value "$nu_out")"
nu_out=$(cd "$nu_tmp" && "$nu_stage/opt/gs/bin/gsolve" nosuch.game 2>&1)
check "installed gsolve: a game that is nowhere" \
  "gsolve: error: cannot read 'nosuch.game': No such file or directory" "$nu_out"
make -s -o gsolve BUILD=build uninstall DESTDIR="$nu_stage" PREFIX=/opt/gs >"$nu_tmp/log" 2>&1
check "make uninstall: succeeds" 0 $?
check "make uninstall: no file left" 0 "$(find "$nu_stage" -type f | wc -l)"
check "make uninstall: the games folder removed" no \
  "$([ -d "$nu_stage/opt/gs/share/gsolve" ] && echo yes || echo no)"

# --- .gitignore: the files the docs tell users to write -----------------
# Outside a git checkout (a release tarball, `git archive`) there is no
# .gitignore to ask git about: said, not failed.
if ! command -v git >/dev/null 2>&1 || ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "  (not a git checkout, or no git: the .gitignore checks are skipped)"
elif git rev-parse --git-dir >/dev/null 2>&1; then
  for f in ttt.db b65.book tree.svg tree.png tree.pdf kayles4.dot ttt.db.tmp-0123456789abcdef; do
    check ".gitignore covers $f" yes "$(git check-ignore -q --no-index "$f" && echo yes || echo no)"
  done
  check ".gitignore keeps the fuzzers' seed databases" no \
    "$(git check-ignore -q --no-index fuzz/corpus_db/x.db && echo yes || echo no)"
else
  check "a git checkout (for the .gitignore checks)" yes no
fi

# --- the README's first command on a fresh machine (issue 39) --------------
# It said `make demo`, which a minimal Debian (nothing but apt) cannot run:
# "make: command not found".  Now ./build.sh, a POSIX sh script, installs
# the build's tools with apt-get (as root, or through sudo) and runs make
# demo.  Here with fake tools on a PATH of their own: none at all; and
# apt-get, id (as root) and make that only record how they were called.
check "README: the first command is ./build.sh" '$ ./build.sh' \
  "$(awk '/^```/ { inb = !inb; next } inb && /^\$ / { print $1, $2; exit }' README.md)"
check "build.sh: executable, POSIX sh (sh -n)" "yes 0" \
  "$([ -x build.sh ] && echo yes || echo no) $(sh -n build.sh; echo $?)"
mkdir -p "$nu_tmp/bare" "$nu_tmp/fake"
for nu_tool in dirname env; do ln -s "$(command -v $nu_tool)" "$nu_tmp/bare/$nu_tool"; done
printf '#!/bin/sh\necho 1000\n' >"$nu_tmp/bare/id"
chmod +x "$nu_tmp/bare/id"
nu_out=$(PATH="$nu_tmp/bare" /bin/sh build.sh 2>&1)
check "build.sh without apt-get: says what to install, exit 1" \
  "build.sh: gsolve needs: gcc libc6-dev make flex bison (install them with your system's packages, then run make demo)|1" \
  "$nu_out|$(PATH="$nu_tmp/bare" /bin/sh build.sh >/dev/null 2>&1; echo $?)"
for nu_tool in dirname env cat; do ln -s "$(command -v $nu_tool)" "$nu_tmp/fake/$nu_tool"; done
for nu_tool in apt-get make; do
  printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$nu_tool" "$nu_tmp/calls" >"$nu_tmp/fake/$nu_tool"
done
printf '#!/bin/sh\necho 0\n' >"$nu_tmp/fake/id"
chmod +x "$nu_tmp/fake/"*
nu_out=$(PATH="$nu_tmp/fake" /bin/sh build.sh 2>&1)
check "build.sh as root on a bare Debian: installs the tools, then make demo" \
  "apt-get update -qq|apt-get install -y -qq gcc libc6-dev flex bison|make demo" \
  "$(tr '\n' '|' <"$nu_tmp/calls" | sed 's/|$//')"
check "build.sh as root: what it installs, said" "build.sh: installing gcc libc6-dev flex bison" "$nu_out"

# The build prints no line that reads like a warning: GCC's "note: the ABI
# for passing parameters with 64-byte alignment has changed in GCC 4.6"
# came with every build (c4solve64.c; -Wno-psabi there, Makefile).  That
# file compiled with the Makefile's own command (at -O0: the note comes
# all the same, in a fraction of the time).
nu_cc=$(make -s -n -W src/engines/connect4/c4solve64.c BUILD=build CFLAGS=-O0 build/engines/connect4/c4solve64.o 2>/dev/null |
  grep -e ' -c -o ' | sed "s| -MMD||; s| -MP||; s| -o build/engines/connect4/c4solve64.o| -o $nu_tmp/c4solve64.o|")
if [ -n "$nu_cc" ] && [ -f build/parser.h ]; then
  check "the build: c4solve64.c compiles without a note or warning" "" "$(sh -c "$nu_cc" 2>&1)"
else
  echo "  (the build's command for c4solve64.c not found: its warning check is skipped)"
fi

# --- the docs' commands as typed after make ---------------------------
# README: in the checkout the program is ./gsolve; the tutorial likewise.
check "README: commands start with ./gsolve" 0 \
  "$(awk '/^```/ { inb = !inb; next } inb && /^gsolve /' README.md | wc -l)"
check "tutorial: commands run ./gsolve" 0 "$(grep -cE '^\$ (.*[|;] *)?gsolve ' docs/tutorial.md)"

# --- progress: on a terminal, nothing when piped --------------------------
# script (util-linux) gives the program a pseudo-terminal; --time-limit
# makes each run last two seconds whatever the machine's speed.
if command -v script >/dev/null 2>&1; then
  nu_tty() { script -qc "$*" /dev/null | tr '\r' '\n'; }
  nu_out=$(nu_tty "$GSOLVE $C4 --time-limit 2")
  check "tty: the empty Connect Four board shows its progress" 1 \
    "$(printf '%s\n' "$nu_out" | grep -m1 -cE "^solving: [0-9.]+[kMG]? positions, [0-9.]+[kMG]?/s, [0-9.]+ (ms|s); score in -21\.\.\+21")"
  check "tty: the stop's message on a line of its own" 1 \
    "$(printf '%s\n' "$nu_out" | grep -cE '^gsolve: error: time limit of 2 seconds reached')"
  # nu_tty_shows WHAT REGEX COMMAND: the command on a terminal shows a
  # progress line that matches.
  nu_tty_shows() {
    nu_what=$1 nu_re=$2
    shift 2
    check "tty: $nu_what" 1 "$(nu_tty "$*" | grep -m1 -cE "$nu_re")"
  }
  nu_tty_shows "--count shows its progress" \
    '^counting: [0-9.]+[kMG]? positions, [0-9.]+[kMG]?/s, ' \
    "$GSOLVE $C4 -D width=5 -D height=4 --count --time-limit 2"
  nu_tty_shows "--perft shows its progress and an estimate" \
    '^perft: [0-9.]+[kMG]? nodes, .*; [0-9]+% done(, about .* left)? *$' \
    "$GSOLVE $C4 --perft 11 --time-limit 2"
  printf -- '- 1\n' >"$nu_tmp/empty76.txt"
  nu_tty_shows "a test set shows its line and the solver's progress" \
    '^test set: .*; line 1 of 1: score in -21\.\.\+21' \
    "$GSOLVE $C4 --test-set $nu_tmp/empty76.txt --time-limit 2"
  nu_tty_shows "retrograde analysis shows its progress" \
    '^retrograde analysis, enumerating: [0-9.]+[kMG]? positions' \
    "$GSOLVE $C4 -D width=5 -D height=4 --engine vm --solver retro --time-limit 2"
  nu_tty_shows "--make-book shows its progress" \
    '^making the book: [0-9.]+[kMG]? positions, .*; [0-9]+ stones' \
    "$GSOLVE $C4 --make-book $nu_tmp/x.book --book-depth 6 --time-limit 2"
  nu_tty_shows "--playouts shows its progress and an estimate" \
    '^playouts: [0-9.]+[kMG]? games, .*; [0-9]+% done(, about .* left)? *$' \
    "$GSOLVE games/tictactoe.game -D m=4 -D n=4 --playouts 100000000 --time-limit 2"
  echo quit >"$nu_tmp/quit"      # (a redirection, not a pipe: check counts in this shell)
  nu_tty_shows "play, the computer's exact solve shows its progress" \
    '^thinking: [0-9.]+[kMG]? positions, .*; score in -21\.\.\+21' \
    "$GSOLVE play $C4 --first computer --level perfect --ascii --time-limit 2" <"$nu_tmp/quit"
  # A short solve shows nothing even on a terminal.
  check "tty: nothing for a solve under a second" "" \
    "$(nu_tty "$GSOLVE games/nim.game --quiet >/dev/null" | tr -d '\n')"
  nu_out=$(nu_tty "$GSOLVE $C4 --time-limit 2 --quiet")
  check "tty: --quiet shows nothing" 0 "$(printf '%s\n' "$nu_out" | grep -c '^solving')"
else
  check "script (util-linux) is installed, for the terminal checks" yes no
fi
check "piped: no progress, only the stop's message" \
  "gsolve: error: time limit of 1 second reached" \
  "$($GSOLVE $C4 --time-limit 1 2>&1 >/dev/null | sed 's/ after.*//')"
check "piped: --count shows nothing" "gsolve: error: time limit of 1 second reached" \
  "$($GSOLVE $C4 -D width=5 -D height=4 --count --time-limit 1 2>&1 >/dev/null | sed 's/ after.*//')"
nu_out=$($GSOLVE $C4 --position 4 --time-limit 1 --progress 2>&1 >/dev/null)
check "--progress off a terminal: the native solver's lines" yes \
  "$(printf '%s\n' "$nu_out" | head -n 1 | grep -qE "^solving: .*; score in -[0-9]+\.\.\+[0-9]+$" && echo yes || echo "$nu_out")"
check "--progress with --count is taken" 0 \
  "$($GSOLVE games/tictactoe.game --count --progress >/dev/null 2>&1; echo $?)"

# --- play: Connect Four's columns as typed, the board alone ---------------
nu_out=$(printf '4\nstate\nquit\n' | $GSOLVE play $C4 --seed 1 --ascii --level 2 2>&1)
check "play c4: columns labelled 1..7, as moves are typed" 1 \
  "$(printf '%s\n' "$nu_out" | grep -m1 -c '^     1 2 3 4 5 6 7$')"
check "play c4: no a..g labels on the drawn boards" 0 \
  "$(printf '%s\n' "$nu_out" | sed '/^Yellow to move> state/,$d' | grep -c '^     a b c')"
check "play c4: the rules' variables are not drawn" 0 \
  "$(printf '%s\n' "$nu_out" | sed '/^Yellow to move> state/,$d' | grep -cE '^(winner|filled) = ')"
check "play c4: the state command shows them" "filled = 2" \
  "$(printf '%s\n' "$nu_out" | sed -n '/^Yellow to move> state/,$p' | grep '^filled')"
nu_out=$(printf 'quit\n' | $GSOLVE play games/tictactoe.game --seed 1 --ascii 2>&1)
check "play tictactoe: a..c stay (three moves a column)" 1 "$(printf '%s\n' "$nu_out" | grep -c '^     a b c$')"
nu_out=$($GSOLVE play games/nim.game -D heaps=1,2 --self-play --show-evals --seed 1 2>&1)
check "play: a game without a board shows its state" 1 "$(printf '%s\n' "$nu_out" | grep -m1 -c '^heap = ')"
check "play --show-evals: the key to the evaluations, once" 1 \
  "$(printf '%s\n' "$nu_out" | grep -c '^How to read an evaluation: each legal move, valued for the player to move (First now)$')"
nu_out=$($GSOLVE play $C4 -D width=4 -D height=4 --self-play --show-evals --level 2 --seed 1 2>&1)
check "play --show-evals at a depth: what the numbers are" 1 \
  "$(printf '%s\n' "$nu_out" | grep -c "not proven: the game's eval where the")"

# --- units, JSON ---------------------------------------------------------
if have_data tests/data/connect4/pons; then
  nu_out=$($GSOLVE $C4 --test-set tests/data/connect4/pons/Test_L3_R1 --limit 20)
  check "test set: the mean time in a unit that fits" yes \
    "$(field 'mean time' "$nu_out" | grep -qE '^[0-9]+\.[0-9]+ us$|^[0-9]+(\.[0-9])? ms$|^[0-9]+\.[0-9]+ s$' && echo yes || echo "$nu_out")"
  nu_out=$($GSOLVE $C4 --test-set tests/data/connect4/pons/Test_L3_R1 --limit 20 --json)
  check "test set --json: mean_seconds stays a number of seconds" yes \
    "$(printf '%s' "$nu_out" | grep -qE '"mean_seconds":0\.[0-9]{9},' && echo yes || echo "$nu_out")"
fi
printf '# no line\n\n' >"$nu_tmp/none.txt"
nu_out=$($GSOLVE $C4 --test-set "$nu_tmp/none.txt")
check "empty test set: no solver named" "none (no line to solve) 0 -" \
  "$(field solver "$nu_out") $(field positions "$nu_out") $(field 'mean time' "$nu_out")"
check "empty test set --json: solver null" 1 \
  "$($GSOLVE $C4 --test-set "$nu_tmp/none.txt" --json | grep -c '"solver":null,')"
if command -v python3 >/dev/null 2>&1; then
  nu_bad=""
  for g in games/*.game docs/examples/*.game; do
    $GSOLVE "$g" --dump-bytecode --json | python3 -m json.tool >/dev/null 2>&1 || nu_bad="$nu_bad $g"
  done
  check "--dump-bytecode --json is JSON (every bundled game)" "" "$nu_bad"
  check "--dump-bytecode --json: Nim's first chunk, first instruction" "generator generate SETL [0 1]" \
    "$($GSOLVE games/nim.game --dump-bytecode --json | python3 -c 'import json,sys; d=json.load(sys.stdin); c=d["chunks"][0]; i=c["code"][0]; print(c["kind"], c["name"], i["op"], i["operands"])' | tr -d ',')"
else
  check "python3 is installed (for the JSON checks)" yes no
fi
nu_out=$($GSOLVE games/nim.game --dump-ast --json 2>&1)
check "--dump-ast --json: exit 2" 2 "$($GSOLVE games/nim.game --dump-ast --json >/dev/null 2>&1; echo $?)"
check "--dump-ast --json: message" "gsolve: error: --dump-ast has no JSON form (--dump-bytecode --json has)" "$nu_out"
check "--tree-dot's help: Graphviz only to draw" 1 \
  "$($GSOLVE --help-options | grep -e '^--tree-dot' | grep -c 'Graphviz only to draw')"

# --- memory: --tt-size, --count --memory ---------------------------------
# A table beyond the memory halves until it fits, with a note (the native
# solver's as the VM's), and the solve goes on.
nu_out=$($GSOLVE $C4 -D width=5 -D height=4 --tt-size 1048576 2>&1)
check "--tt-size beyond memory (native c4): a note, the table halved, the solve goes on" "yes draw" \
  "$(printf '%s\n' "$nu_out" | grep -qE "^gsolve: note: --tt-size 1048576 MiB does not fit in memory \(about [0-9]+ MiB (free|left under ulimit -v)\): the table has [0-9]+ MiB$" && echo yes || echo "$nu_out") $(field value "$nu_out")"
case $BUILD in
  *asan*|*tsan*) echo "t_newuser: the ulimit -v check runs in make test, not under sanitizers" ;;
  *)
    nu_out=$(ulimit -v 200000; $GSOLVE games/tictactoe.game --tt-size 1000 2>&1)
    check "--tt-size over ulimit -v (alphabeta): a note, the table halved, the solve goes on" "yes draw" \
      "$(printf '%s\n' "$nu_out" | grep -qE '^gsolve: note: --tt-size 1000 MiB does not fit in memory \(about [0-9]+ MiB left under ulimit -v\): the table has (500|250|125|62|31) MiB$' && echo yes || echo no) $(field value "$nu_out")"
    nu_out=$(ulimit -v 200000; $GSOLVE games/tictactoe.game --tt-size 1000 --quiet 2>&1 >/dev/null)
    check "--tt-size over ulimit -v --quiet: no note" "" "$nu_out" ;;
esac
nu_out=$($GSOLVE $C4 -D width=5 -D height=4 --count --memory 1 2>&1)
check "--count --memory 1: stops with the limit named" yes \
  "$(printf '%s\n' "$nu_out" | grep -qE '^gsolve: error: memory limit of 1 MiB reached after [0-9]+ positions \(about [0-9]+ bytes each\); raise --memory$' && echo yes || echo "$nu_out")"
check "--count --memory 1: exit 5" 5 "$($GSOLVE $C4 -D width=5 -D height=4 --count --memory 1 >/dev/null 2>&1; echo $?)"
check "--count --memory 64: tic-tac-toe counted" 5478 \
  "$(field positions "$($GSOLVE games/tictactoe.game --count --memory 64)")"

# --- flags refused rather than ignored -----------------------------------
check "-D twice: exit 2" 2 "$($GSOLVE games/nim.game -D misere=true -D misere=false >/dev/null 2>&1; echo $?)"
check "-D twice: message" "gsolve: error: -D misere given twice (misere=true, then misere=false): give each parameter once" \
  "$($GSOLVE games/nim.game -D misere=true -Dmisere=false 2>&1)"
check "-D two parameters: taken" "Nim (heaps=1,2 misere=true)" \
  "$(field game "$($GSOLVE games/nim.game -D heaps=1,2 -D misere=true)")"
check "--seed outside play and --playouts: exit 2" 2 "$($GSOLVE games/nim.game --seed 3 >/dev/null 2>&1; echo $?)"
check "--depth +3: exit 2" 2 "$($GSOLVE games/nim.game --depth +3 >/dev/null 2>&1; echo $?)"

rm -rf "$nu_tmp"
