# tests/t_failalloc.sh -- allocation-failure injection: gsolve built with
# tests/unit/failalloc.c ($BUILD/gsolve-failalloc) compiles and solves
# small bundled games with allocation n failing, for every n from 1 to the
# number the run makes.  Each run must either report the lack of memory
# ("gsolve: error: out of memory...", exit 5, EXIT_LIMIT) or succeed with
# the right answer (a failure may be worked around, e.g. by falling back
# from a native engine to the VM); never crash, hang, leak (under make
# asan) or print a wrong answer.  Sourced by tests/run.sh.

fa_bin=$BUILD/gsolve-failalloc
fa_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-failalloc.XXXXXX")

# The lines of a report that must not change: the answer.
fa_key() {
  grep -E '^(game|position|to move|value|score|plies|best|perft [0-9]+|positions|terminal|canonical|games|stored|book|board|stones|tree|nodes|edges|cut off|pruned|mismatches|infosets|info-state [A-Za-z0-9_]+): ' "$1" |
    grep -v '^nodes: .*/s'
}

# fa_run DESC ARGS...: every n for one command line.
fa_run() {
  fa_desc=$1
  shift
  $GSOLVE "$@" >"$fa_tmp/ref" 2>/dev/null
  fa_key "$fa_tmp/ref" >"$fa_tmp/refkey"
  fa_total=$(GSOLVE_COUNT_ALLOC=1 "$fa_bin" "$@" 2>&1 >/dev/null | sed -n 's/^allocations: //p')
  fa_bad=""
  fa_n=1
  fa_oom=0
  while [ "$fa_n" -le "${fa_total:-0}" ]; do
    GSOLVE_FAIL_ALLOC=$fa_n timeout 60 "$fa_bin" "$@" >"$fa_tmp/out" 2>"$fa_tmp/err"
    fa_st=$?
    # A sanitizer report exits 1 (make asan), a crash 128+N.
    if [ "$fa_st" -eq 5 ]; then
      grep -q -E '(^gsolve: error: |runtime error: )out of memory' "$fa_tmp/err" || fa_bad="$fa_bad n=$fa_n:message"
      fa_oom=$((fa_oom + 1))
    elif [ "$fa_st" -eq 0 ]; then
      fa_key "$fa_tmp/out" | cmp -s - "$fa_tmp/refkey" || fa_bad="$fa_bad n=$fa_n:answer"
    else
      [ -z "$fa_bad" ] && head -n 12 "$fa_tmp/err"
      fa_bad="$fa_bad n=$fa_n:exit$fa_st"
    fi
    fa_n=$((fa_n + 1))
  done
  check "failalloc: $fa_desc (${fa_total:-?} allocations, $fa_oom reported out of memory)" "" "$fa_bad"
  [ "${fa_total:-0}" -gt 10 ] || check "failalloc: $fa_desc counts its allocations" yes no
}

# fa_gtp DESC SCRIPT ARGS...: every n for a GTP session reading SCRIPT.
# Each run ends with exit 5 and the message, or exit 0 with the answers
# of the run without failures, or with as many answers of which at least
# one is "? out of memory" (the session goes on with the game it had).
fa_gtp() {
  fa_desc=$1
  fa_script=$2
  shift 2
  $GSOLVE gtp "$@" <"$fa_script" >"$fa_tmp/ref" 2>/dev/null
  fa_answers=$(grep -c '^[=?]' "$fa_tmp/ref")
  fa_total=$(GSOLVE_COUNT_ALLOC=1 "$fa_bin" gtp "$@" <"$fa_script" 2>&1 >/dev/null | sed -n 's/^allocations: //p')
  fa_bad=""
  fa_n=1
  fa_oom=0
  fa_answered=0
  while [ "$fa_n" -le "${fa_total:-0}" ]; do
    GSOLVE_FAIL_ALLOC=$fa_n timeout 60 "$fa_bin" gtp "$@" <"$fa_script" >"$fa_tmp/out" 2>"$fa_tmp/err"
    fa_st=$?
    if [ "$fa_st" -eq 5 ]; then
      grep -q -E '(^gsolve: error: |runtime error: )out of memory' "$fa_tmp/err" || fa_bad="$fa_bad n=$fa_n:message"
      fa_oom=$((fa_oom + 1))
    elif [ "$fa_st" -eq 0 ]; then
      if ! cmp -s "$fa_tmp/out" "$fa_tmp/ref"; then
        if grep -q '^? out of memory$' "$fa_tmp/out" && [ "$(grep -c '^[=?]' "$fa_tmp/out")" -eq "$fa_answers" ]; then
          fa_answered=$((fa_answered + 1))
        else
          fa_bad="$fa_bad n=$fa_n:answer"
        fi
      fi
    else
      [ -z "$fa_bad" ] && head -n 12 "$fa_tmp/err"
      fa_bad="$fa_bad n=$fa_n:exit$fa_st"
    fi
    fa_n=$((fa_n + 1))
  done
  check "failalloc: $fa_desc (${fa_total:-?} allocations, $fa_oom exit 5, $fa_answered answered out of memory)" "" "$fa_bad"
  [ "${fa_total:-0}" -gt 10 ] || check "failalloc: $fa_desc counts its allocations" yes no
}

if [ -x "$fa_bin" ]; then
  fa_run "nim 1,2 native" games/nim.game -D heaps=1,2
  fa_run "nim 1,2 VM, all moves, json" games/nim.game -D heaps=1,2 --engine vm --all-moves --json
  fa_run "tictactoe 2x2 alphabeta" games/tictactoe.game -D m=2 -D n=2 -D k=2
  fa_run "tictactoe 2x2 minimax" games/tictactoe.game -D m=2 -D n=2 -D k=2 --solver minimax
  fa_run "tictactoe 2x2 retro, db" games/tictactoe.game -D m=2 -D n=2 -D k=2 --solver retro --db "$fa_tmp/t.db"
  fa_run "tictactoe 2x2 db lookup" games/tictactoe.game -D m=2 -D n=2 -D k=2 --db "$fa_tmp/t.db" --position a1
  fa_run "tictactoe 2x2 retro --compact, db" games/tictactoe.game -D m=2 -D n=2 -D k=2 --solver retro --compact --db "$fa_tmp/tc.db"
  fa_run "tictactoe 2x2 compact db lookup, stats" games/tictactoe.game -D m=2 -D n=2 -D k=2 --db "$fa_tmp/tc.db" --position a1 --stats
  fa_run "tictactoe 2x2 retro --compact, layers on disk, db, stats" games/tictactoe.game -D m=2 -D n=2 -D k=2 --solver retro --compact --spill "$fa_tmp" --db "$fa_tmp/ts.db" --stats
  fa_run "tictactoe 2x2 retro --compact, layers on disk, --pv" games/tictactoe.game -D m=2 -D n=2 -D k=2 --solver retro --compact --spill "$fa_tmp" --pv
  fa_run "token retro --compact (the form with cycles), stats" games/token.game --solver retro --compact --stats
  fa_run "token retro --compact (the form with cycles), db" games/token.game --solver retro --compact --db "$fa_tmp/tk.db"
  fa_run "token compact db (format 3) lookup, stats" games/token.game --db "$fa_tmp/tk.db" --position "to 1" --stats
  fa_run "tictactoe 2x2 count" games/tictactoe.game -D m=2 -D n=2 -D k=2 --count
  fa_run "tictactoe 2x2 perft" games/tictactoe.game -D m=2 -D n=2 -D k=2 --perft 3 --position a1
  fa_run "connect4 3x3 native" games/connect4.game -D width=3 -D height=3 -D k=3
  # (k = 3 is the VM's: the native solver and its aligned table, on 4x4.)
  fa_run "connect4 4x4 native solver" games/connect4.game -D width=4 -D height=4 --tt-size 1
  fa_run "token retro (cycles)" games/token.game --solver retro
  fa_run "kuhn perft (information sets)" games/kuhn.game --perft 6
  fa_run "moves of several steps (the table)" tests/files/steps_table.game --perft 3
  fa_run "kuhn info-state" games/kuhn.game --info-state --position "deal J, deal Q, check, bet"
  fa_run "hexapawn dump bytecode" games/hexapawn.game --dump-bytecode --dump-ast
  # --make-book and --tree-dot: every failure is exit 5 with its cause, and
  # nothing leaks (under make asan), also when a rule fails at run time
  # inside the tree's walk (issue 25).
  fa_run "connect4 4x4 make-book, depth 2" games/connect4.game -D width=4 -D height=4 \
    --make-book "$fa_tmp/c4.book" --book-depth 2 --tt-size 1
  fa_run "tictactoe 2x2 tree-dot" games/tictactoe.game -D m=2 -D n=2 -D k=2 --tree-dot "$fa_tmp/t.dot"
  fa_run "tictactoe 2x2 tree-dot, position, prune" games/tictactoe.game -D m=2 -D n=2 -D k=2 \
    --tree-dot "$fa_tmp/t.dot" --position a1 --tree-prune
  # A test set's line is played like --position; a rule failing at run
  # time (the VM's undo trail) left the line's moves unfreed (position.c).
  printf 'a1 -1\nb1 a1 1\n' >"$fa_tmp/ts.txt"
  fa_run "tictactoe 2x2 test set" games/tictactoe.game -D m=2 -D n=2 -D k=2 --test-set "$fa_tmp/ts.txt"
  fa_run "token tree-dot (repetitions)" games/token.game --tree-dot "$fa_tmp/token.dot" --depth 6
  fa_run "kuhn cfr, strategy file" games/kuhn.game --iterations 50 --strategy "$fa_tmp/k.strat"
  fa_run "kuhn playouts from a strategy" games/kuhn.game --playouts 20 --play-strategy "$fa_tmp/k.strat"
  # Deep nesting grows the parser's stack (Bison's own allocations).
  fa_open=$(awk 'BEGIN { for (i = 0; i < 150; i++) printf "(" }')
  fa_close=$(awk 'BEGIN { for (i = 0; i < 150; i++) printf ")" }')
  printf 'game "Deep";\nplayers A, B;\nconst c = %s1%s;\nstate n: 0..3;\nmove m() when n < c + 2 { n += 1; }\n' \
    "$fa_open" "$fa_close" >"$fa_tmp/deep.game"
  fa_run "150 nested parentheses" "$fa_tmp/deep.game"
  # GTP: a failed boardsize or komi keeps the game in play (issue 25).
  printf 'boardsize 4\nplay b b2\ngenmove w\nboardsize 20\nkomi 2\nplay b c3\nfinal_score\nquit\n' >"$fa_tmp/go.gtp"
  fa_gtp "gtp session, go 4x4" "$fa_tmp/go.gtp" games/go.game -D width=4 -D height=4 --tt-size 1
  printf 'komi 0\nplay b b2\ngenmove w\nquit\n' >"$fa_tmp/ttt.gtp"
  fa_gtp "gtp session, tictactoe" "$fa_tmp/ttt.gtp" games/tictactoe.game --tt-size 1
else
  check "failalloc binary $fa_bin exists" yes no
fi
rm -rf "$fa_tmp"
