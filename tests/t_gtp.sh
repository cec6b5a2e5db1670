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
