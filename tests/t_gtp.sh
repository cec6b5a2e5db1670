# tests/t_gtp.sh -- `gsolve gtp`: the Go Text Protocol commands one by one,
# then complete games against GNU Go (Debian's gnugo, Chinese rules,
# situational superko, as games/go.game's defaults) on 3x3 to 5x5 boards:
# every move each side makes must be accepted by the other, and both must
# give the same final_score (area scoring; gnugo captures dead stones
# before passing, --capture-all-dead, so that the stones left are alive).
# Sourced by tests/run.sh (check, gs from tests/lib.sh).

gt_out=$(printf '%s\n' 'protocol_version' 'name' '7 version' 'known_command genmove' \
  'known_command fly' 'boardsize 3' 'clear_board' 'komi 0' 'play black b2' \
  'play white b2' 'play white zz' 'genmove white' 'undo' 'final_score' 'komi 6.5' \
  'boardsize 30' 'frobnicate' 'play black pass' 'play white pass' 'final_score' 'quit' \
  | gs gtp games/go.game | tr '\n' '|')
# genmove solves 3x3 exactly: after b2 every White move loses by 9, and
# the first of them is the pass.
check "gtp: the answers to a session" \
  "= 2||= gsolve||=7 0.1.0||= true||= false||= ||= ||= ||= ||? illegal move||? illegal move||= pass||= ||= B+9||? komi must be a whole number in this game||? unacceptable size||? unknown command||= ||? illegal move||= B+9||= ||" \
  "$gt_out"
gt_out=$(printf 'boardsize 3\nplay b b2\nshowboard\nquit\n' | gs gtp games/go.game | sed -n '/^=$/,/^$/p' | head -n 4 | tr '\n' '|')
check "gtp: showboard" "=|  3  . . .|  2  . B .|  1  . . .|" "$gt_out"
# Out of turn: the player to move passes first (GTP controllers may send
# two moves of one colour).
gt_out=$(printf 'boardsize 3\nplay b b2\nplay b a1\nfinal_score\nquit\n' | gs gtp games/go.game | tr '\n' '|')
check "gtp: two black moves in a row" "= ||= ||= ||= B+9||= ||" "$gt_out"

# --engine: the rules through the compiled tier (when a C compiler is
# here) give the session the VM gives; the native engines are for the
# games that have one (Go has none: a usage error at the start).
gt_session='boardsize 3|play b b2|genmove w|final_score|boardsize 4|play b b2|play w c3|showboard|quit'
gt_vm=$(printf '%s\n' "$gt_session" | tr '|' '\n' | gs gtp games/go.game --engine vm | tr '\n' '|')
check "gtp --engine vm: the session" \
  "= ||= ||= pass||= B+9||= ||= ||= ||=|  4  . . . .|  3  . . W .|  2  . B . .|  1  . . . .|     a b c d|passes = 0|played = 0|ko_point = nowhere|to move: Black||= ||" \
  "$gt_vm"
if command -v "${GSOLVE_CC:-cc}" >/dev/null 2>&1; then
  gt_out=$(printf '%s\n' "$gt_session" | tr '|' '\n' | GSOLVE_CACHE="$(cd "$BUILD" && pwd)/tests/aot-cache" \
    gs gtp games/go.game --engine compiled | tr '\n' '|')
  check "gtp --engine compiled: the same session as the VM" "$gt_vm" "$gt_out"
fi
gt_out=$(printf 'name\n' | gs gtp games/go.game --engine native 2>&1)
gt_st=$?
check "gtp --engine native on Go: refused" "gsolve: error: --engine native: the game declares no native engine" "$gt_out"
check "gtp --engine native on Go: exit 2" 2 "$gt_st"

# A failed boardsize or komi keeps the game in play, its moves and all
# (issue 25: the old game was dropped first, and the next command
# crashed).  Sizes are those the game's width and height take (1..19).
gt_out=$(printf 'boardsize 20\nname\n' | gs gtp games/go.game 2>/dev/null | tr '\n' '|')
check "gtp: boardsize 20 is refused, the session goes on" "? unacceptable size||= gsolve||" "$gt_out"
gt_out=$(printf 'boardsize 5\nplay b c3\nboardsize 20\nkomi 1001\nkomi 2.5\nkomi\nboardsize x\nplay w d4\nfinal_score\nquit\n' \
  | gs gtp games/go.game 2>/dev/null | tr '\n' '|')
gt_st=$?
check "gtp: after a refused boardsize and komi, the 5x5 game and its moves stay" \
  "= ||= ||? unacceptable size||? unacceptable komi||? komi must be a whole number in this game||? syntax error||? syntax error||= ||= 0||= ||" \
  "$gt_out"
check "gtp: ... and the session ends normally" 0 "$gt_st"
gt_out=$(printf 'boardsize 3\nkomi 0\nplay b b2\nplay w a1\nname\n' | gs gtp games/tictactoe.game 2>/dev/null | tr '\n' '|')
check "gtp: boardsize and komi on Tic-tac-toe (no such parameters) are refused, play goes on" \
  "? unacceptable size||? unacceptable komi||= ||= ||= gsolve||" "$gt_out"

# One line, one answer (issue 25).  A comment runs to the end of its line
# however long (the play in it was once executed after byte 4095); a
# line beginning with NUL is answered; control characters other than HT
# and LF go, HT is a space; a line of more than 64 KB gets one error
# and is read to its end; blank lines get no answer.
gt_out=$(python3 -c '
import sys
w = sys.stdout.buffer.write
w(b"boardsize 5\n# " + b"x" * 5000 + b" play black c3\n")
w(b"\0name\n" + b"na\x01m\x7fe\r\n" + b"\tprotocol_version\t\n")
w(b"5 " + b"a" * 70000 + b"\n")
w(b"7 version # " + b"y" * 100000 + b"\n")
w(b"\x00\x1b\n   \n\t\n12\n")
w(b"final_score\nquit")' | gs gtp games/go.game | tr '\n' '|')
check "gtp: one answer per line whatever its length and bytes" \
  "= ||= gsolve||= gsolve||= 2||?5 line too long (limit is 65536 bytes)||=7 0.1.0||?12 no command||= 0||= ||" \
  "$gt_out"

# genmove's time: time_settings 0 1 1 gives each move one second (one
# stone per one-second byo-yomi period); 19x19 at depth 2 takes minutes
# without it.  The answer must come in well under 5 s, and be a legal
# move.  With no time left (time_left b 0 1: the least, 10 ms) not even
# depth 1 ends, and the first legal move is played; then, with no limit
# (time_settings 0 1 0), a 3x3 genmove solves exactly (b2): the stop
# that ended the first search does not stop the next.  (The 3x3 solve takes
# 0.7 s of CPU: --move-time 120, not the default 10 s, so that a loaded
# machine, where it took over 10 s, does not stop it.)
gt_start=$(date +%s)
gt_out=$(printf 'boardsize 19\ntime_settings 0 1 1\ngenmove b\nquit\n' | gs gtp games/go.game | grep '^[=?]' | sed -n 3p)
gt_secs=$(($(date +%s) - gt_start))
# (A sanitizer build runs several times slower: its bound is wider.)
case $BUILD in *asan*|*tsan*) gt_bound=30 ;; *) gt_bound=5 ;; esac
check "gtp: a 19x19 genmove with one second answers within $gt_bound s (took ${gt_secs}s)" yes \
  "$([ "$gt_secs" -lt "$gt_bound" ] && echo yes || echo no)"
gt_move=$(printf '%s' "$gt_out" | sed -n 's/^= //p')
gt_legal=$(printf 'boardsize 19\nplay b %s\n' "$gt_move" | gs gtp games/go.game | tr '\n' '|')
check "gtp: ... with a legal move ($gt_out)" "= ||= ||" "$gt_legal"
gt_out=$(printf 'boardsize 19\ntime_left b 0 1\ngenmove b\nboardsize 3\ntime_settings 0 1 0\ngenmove b\nquit\n' \
  | gs gtp games/go.game --move-time 120 | grep '^[=?]' | sed -n 6p)
check "gtp: after a genmove stopped by its time, the next one is not stopped" "= B2" "$gt_out"
# The stop reaches the depth-1 search too (the leaves at its horizon, and
# the ordering of the root's moves by eval): with 10 ms left, a 19x19
# genmove adds little to the session's start-up.  It was 0.7 s late on an
# idle machine (the 361 evals of depth 1, twice), 2.4 s under load.
# Measured in CPU time (the shell's `times`: user + system of the
# children), against a session without the genmove, so that a loaded
# machine does not blur it.
gt_cpu_ms() {
  ( printf "$1" | gs gtp games/go.game >/dev/null; times ) | sed -n 2p |
    awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } print int(t * 1000) }'
}
gt_base=$(gt_cpu_ms 'boardsize 19\ntime_left b 0 1\nquit\n')
gt_gen=$(gt_cpu_ms 'boardsize 19\ntime_left b 0 1\ngenmove b\nquit\n')
case $BUILD in *asan*|*tsan*) gt_bound=2000 ;; *) gt_bound=200 ;; esac
check "gtp: a 19x19 genmove with 10 ms left costs under $gt_bound ms of CPU more than the start-up (${gt_gen} - ${gt_base} ms)" \
  yes "$([ $((gt_gen - gt_base)) -lt "$gt_bound" ] && echo yes || echo no)"
gt_out=$(printf 'time_settings 1 2\ntime_settings -1 0 0\ntime_left x 1 1\ntime_left b 1 -2\ntime_left w 10 0\nknown_command time_left\n' \
  | gs gtp games/go.game | tr '\n' '|')
check "gtp: time_settings and time_left check their arguments" \
  "? syntax error||? syntax error||? syntax error||? syntax error||= ||= true||" "$gt_out"

gt_gnugo=/usr/games/gnugo
[ -x "$gt_gnugo" ] || gt_gnugo=$(command -v gnugo)
if [ -n "$gt_gnugo" ] && command -v python3 >/dev/null 2>&1; then
  for gt_size in 3 4 5; do
    gt_out=$(python3 tests/gtp_match.py $gt_size 2 "$GSOLVE gtp games/go.game" \
      "$gt_gnugo --mode gtp --chinese-rules --situational-superko --capture-all-dead --never-resign --level 1" 2>&1)
    gt_st=$?
    check "gtp against gnugo on ${gt_size}x$gt_size: moves accepted, final scores agree" 0 "$gt_st"
    [ "$gt_st" -eq 0 ] || printf '%s\n' "$gt_out"
    check "gtp against gnugo on ${gt_size}x$gt_size: two games" 2 "$(printf '%s\n' "$gt_out" | grep -c ': agree$')"
  done
else
  check "gnugo and python3 are installed (make test-tools, .ci/run)" yes no
fi

# --move-time S: genmove's budget without a clock (the option table sends
# it to gtp only).
gtp_mt=$(printf 'boardsize 19\ngenmove b\nquit\n' | gs gtp games/go.game --move-time 1 | grep -c '^= [A-T][0-9]')
check "gtp --move-time 1 on 19x19: a move" "1" "$gtp_mt"
check "--move-time outside gtp" "gsolve: error: --move-time goes with gsolve gtp FILE" \
  "$(gs games/go.game --move-time 1 2>&1)"
check "--move-time 0 refused" \
  "gsolve: error: --move-time needs a number of seconds above 0 and at most 86400, not '0'" \
  "$(gs gtp games/go.game --move-time 0 2>&1 </dev/null)"
