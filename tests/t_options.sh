# The options table (src/cli/options.c): an option that the run's mode or
# solver would ignore is a usage error naming the mode, never silent; the
# help lists every option of the table.
opt_err() { gs "$@" 2>&1 >/dev/null; echo "exit $?"; }
check "--threads with --perft" "gsolve: error: --threads is not used by --perft
exit 2" "$(opt_err games/connect4.game --perft 2 --threads 2)"
check "--book with --count" "gsolve: error: --book is not used by --count
exit 2" "$(opt_err games/connect4.game --count --book x.book)"
check "--without with alphabeta" "gsolve: error: --without is an option of an engine's own solver (Connect Four's); the alphabeta solver does not use it
exit 2" "$(opt_err games/tictactoe.game --without etc)"
check "--threads with an engine's solver that has none" "gsolve: error: --threads: the native-nim engine's solver does not take it
exit 2" "$(opt_err games/nim.game --threads 2)"
check "--seed outside play, playouts and a sampled --pv" "gsolve: error: --seed goes with gsolve play FILE, --playouts N, or --pv of the value-iteration solver
exit 2" "$(opt_err games/nim.game --seed 3)"
check "--seed with --playouts" "0" "$(gs games/nim.game --playouts 3 --seed 3 >/dev/null 2>&1; echo $?)"
check "--depth +3 refused" "gsolve: error: --depth needs a number of plies from 1 to 10000, not '+3'
exit 2" "$(opt_err games/nim.game --depth +3)"
check "--json in play" "gsolve: error: --json is not used by gsolve play
exit 2" "$(opt_err play games/nim.game --json)"
check "--level outside play" "gsolve: error: --level is an option of 'gsolve play FILE'
exit 2" "$(opt_err games/nim.game --level 3)"
check "--threads with the native Connect Four solver" "value: win" \
  "$(gs games/connect4.game --position 4444 --threads 2 --without etc | grep '^value')"
# --help-options: every option of --help, each on its line with its modes.
opt_help=$(gs --help-options)
for o in $(gs --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
  printf '%s\n' "$opt_help" | grep -q -- "^$o\\b" || check "--help-options lists $o" yes no
done
check "--help-options: --threads and its modes" \
  "--threads N                    search threads (Connect Four) [--solve, --test-set, --make-book]" \
  "$(printf '%s\n' "$opt_help" | grep -- '^--threads ')"
