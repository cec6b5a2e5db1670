# gsolve play: commands and messages (from a pipe), --show-evals (one value
# per legal move, checked against perft 1), seeds, perfect play to the known
# results, every bundled game to its end, and a game in a real terminal
# driven through tmux.

play_tmp=$(mktemp -d)

# --- From a pipe: plain drawing, the input echoed -----------------------------
out=$(printf 'b2\nb2\nA1\nzz\nhint\nhelp\nundo\nb2\na2\na1\n' |
      gs play games/tictactoe.game --seed 1 --level perfect 2>&1)
check "play: a title with the parameters" "Tic-tac-toe (m=3 n=3 k=3)" "$(printf '%s\n' "$out" | head -n 1)"
check "play: who plays what, level, seed" "X: you, O: the computer; level perfect (exact solve); seed 1" \
  "$(printf '%s\n' "$out" | sed -n 2p)"
check "play: an occupied cell is refused" "'b2' is not a legal move here" \
  "$(printf '%s\n' "$out" | grep -m1 "^'b2'")"
check "play: a near miss gets a suggestion" "'A1' is not a legal move here; did you mean 'a1'?" \
  "$(printf '%s\n' "$out" | grep -m1 "^'A1'")"
check "play: the legal moves are listed after a mistake" "legal moves: a1, b1, a2, c2, a3, b3, c3" \
  "$(printf '%s\n' "$out" | grep -m1 '^legal moves')"
check "play: hint (perfect: every drawing move)" "hint: a1, b1, a2, c2, a3, b3, c3 (draw in 7)" \
  "$(printf '%s\n' "$out" | grep '^hint')"
check "play: help names the commands" "4" "$(printf '%s\n' "$out" | grep -cE '^  (undo|hint|help|quit) ')"
check "play: undo" "move taken back" "$(printf '%s\n' "$out" | grep '^move taken')"
check "play: the computer wins a lost game" "game over: O wins (the computer) (6 moves)" \
  "$(printf '%s\n' "$out" | tail -n 1)"
check "play: no Unicode when not a terminal" "0" "$(printf '%s\n' "$out" | grep -c '│')"
check "play: the engine's own board drawing" "  2  X X O" "$(printf '%s\n' "$out" | grep '^  2' | tail -n 1)"

# quit, end of input, and usage errors.
check "play: quit" "X to move> quit" "$(printf 'quit\n' | gs play games/tictactoe.game --seed 1 | tail -n 1)"
printf '' | gs play games/tictactoe.game --seed 1 >/dev/null 2>&1
check "play: end of input ends the game (exit 0)" 0 $?
gs play games/tictactoe.game --level fast </dev/null >/dev/null 2>"$play_tmp/err"
check "play: --level needs a depth or perfect (exit 2)" "2 gsolve: error: --level needs a depth from 1 to 10000 or 'perfect', not 'fast'" \
  "$? $(cat "$play_tmp/err")"
gs games/tictactoe.game --level 3 >/dev/null 2>"$play_tmp/err"
check "play options need 'gsolve play' (exit 2)" "2 gsolve: error: --level is an option of 'gsolve play FILE'" \
  "$? $(cat "$play_tmp/err")"
check "play: --first computer" "X plays" \
  "$(gs play games/tictactoe.game --first computer --seed 2 --level 1 </dev/null | grep -m1 -o '^X plays')"

# --- --show-evals: one value per legal move -----------------------------------
# Self-play prints, before each move, an "evaluation by P" header and one
# line per move; the number of lines must be the number of legal moves of
# the position (perft 1 from the moves played so far).
for game in "games/nim.game -D heaps=2,3,4" "games/tictactoe.game" "games/hexapawn.game -D width=4 -D height=4"; do
  # shellcheck disable=SC2086
  gs play $game --self-play --show-evals --level 2 --seed 5 >"$play_tmp/evals" 2>&1
  bad=0 blocks=0 moves=""
  # Each block: the moves before it (comma-separated), then its row count.
  awk '/^evaluation by /{ inb=1; rows=0; next }
       inb && /^  /{ rows++; next }
       / plays /{ if (inb) print moves "|" rows; inb=0
                  m=$0; sub(/^[^ ]+ plays /, "", m); sub(/ \([0-9.]+ s\)$/, "", m)
                  moves = moves (moves == "" ? "" : ", ") m }' "$play_tmp/evals" >"$play_tmp/blocks"
  while IFS='|' read -r moves rows; do
    blocks=$((blocks + 1))
    # shellcheck disable=SC2086
    legal=$(field "perft 1" "$(gs $game --position "$moves" --perft 1)")
    [ "$legal" = "$rows" ] || { bad=$((bad + 1)); echo "  after '$moves': $rows values, $legal legal moves"; }
  done <"$play_tmp/blocks"
  check "play --show-evals: one value per legal move, every move of a game ($game)" "0" "$bad"
  [ "$blocks" -gt 2 ] || check "play --show-evals: evaluations were shown ($game)" "more than 2" "$blocks"
done
check "play --show-evals: the time taken" "1" \
  "$(gs play games/nim.game --self-play --show-evals --seed 1 | grep -m1 -cE '^evaluation by First \(depth 4, [0-9]+\.[0-9]{3} s, [0-9]+ nodes\):$')"
check "play --show-evals: exact values at level perfect" "  take 1 1  win in 5        best|  take 2 1  loss in 4" \
  "$(gs play games/nim.game -D heaps=1,2,3 --position "take 3 1" --level perfect --self-play --show-evals --seed 1 |
     sed -n '/^evaluation by/,$p' | sed -n 2,3p | tr '\n' '|' | sed 's/|$//')"

# --- Seeds: the same seed plays the same game; ties differ between seeds -----
a=$(gs play games/tictactoe.game --self-play --level 1 --seed 11 | sed 's/ ([0-9.]* s)$//')
b=$(gs play games/tictactoe.game --self-play --level 1 --seed 11 | sed 's/ ([0-9.]* s)$//')
check "play --seed: the same seed, the same game" "$a" "$b"
games=$(for s in 1 2 3 4 5 6; do gs play games/tictactoe.game --self-play --level 1 --seed $s | grep plays | tr -d '\n' | sed 's/([0-9.]* s)//g'; echo; done | sort -u | wc -l)
[ "$games" -gt 1 ] || check "play --seed: six seeds give different games" "more than 1" "$games"
check "play: the seed is shown when not given" "1" \
  "$(gs play games/tictactoe.game </dev/null | sed -n 2p | grep -cE 'seed [0-9]+$')"

# --- Perfect play reaches the known results ------------------------------------
check "play perfect: tic-tac-toe is a draw" "game over: a draw (9 moves)" \
  "$(gs play games/tictactoe.game --self-play --level perfect --seed 3 | tail -n 1)"
check "play perfect: Nim 1,3,5,7 is lost by the first player in 16" "game over: Second wins (16 moves)" \
  "$(gs play games/nim.game --self-play --level perfect --seed 3 | tail -n 1)"
check "play perfect: Black wins Hexapawn" "game over: Black wins (6 moves)" \
  "$(gs play games/hexapawn.game --self-play --level perfect --seed 3 | tail -n 1)"
check "play perfect: Connect Four 4x4 (native solver) is a draw" "game over: a draw (16 moves)" \
  "$(gs play games/connect4.game -D width=4 -D height=4 --self-play --level perfect --seed 3 | tail -n 1)"
check "play perfect: a cycle (token from 5) stops on repetition" \
  "game over: the same position has come up 3 times (this game goes round in cycles; the solvers count that as a draw)" \
  "$(gs play games/token.game -D from=5 --self-play --level perfect --seed 3 | tail -n 1)"
# Positions that recur after dice are luck, not a cycle: Pig played on
# (two of these ten games ended as "the same position has come up 3 times").
pig_ends=""
for s in 1 2 3 4 5 6 7 8 9 10; do
  pig_ends="$pig_ends$(gs play games/pig.game -D goal=4 -D sides=2 --self-play --level perfect \
    --seed $s | tail -n 1 | sed -n 's/^game over: \(First\|Second\) wins .*/w/p')"
done
check "play perfect: Pig (goal 4, 2 sides) always plays to a winner" wwwwwwwwww "$pig_ends"

# --- Every bundled game plays to its end ---------------------------------------
# Level 2, but level 1 where a position has thousands of moves or games
# are long (the RBG suite's games: a level-2 search of amazons' 2,176
# moves a position, each with as many, takes minutes), and a smaller
# board where even that is slow.
for g in games/*.game; do
  play_args="--level 2"
  play_seed=9
  case $g in
    games/amazons.game) play_args="--level 1 -D size=6" ;;
    # A level-1 search of connect6's 129,240 two-stone moves, each answered
    # by as many, never ends; gomoku's 15x15 is slow too.
    games/connect6.game) play_args="--level 1 -D size=5" ;;
    games/gomoku.game) play_args="--level 1 -D size=9" ;;
    # Paper soccer's eval drives both sides at the goals, where the lines
    # pile up: at seed 9 a position of more than 131,072 paths
    # (GAME_MAX_MOVES: "too many legal moves"); seeds 1-6 end.
    games/papersoccer.game) play_args="--level 1" play_seed=1 ;;
    games/chess.game|games/pentago.game|games/reversi.game|games/hex.game|games/breakthrough.game|\
    games/knightthrough.game|games/foxandhounds.game) play_args="--level 1" ;;
  esac
  gs play "$g" --self-play $play_args --seed $play_seed >"$play_tmp/out" 2>&1
  check "play: $g plays to its end (exit 0)" "0 game over" "$? $(tail -n 1 "$play_tmp/out" | cut -c1-9)"
done

# --- In a real terminal, through tmux -------------------------------------------
# The same short game as above, typed into a tmux pane: Unicode board,
# colours, the messages, then the computer's win.  The pane stays after
# gsolve exits so the screen can be read; its exit status and stderr go
# to files.
if ! command -v tmux >/dev/null 2>&1; then
  echo "tmux is not installed: the play test through a terminal cannot run (apt-get install tmux;"
  echo "make test installs it when run as root)"
  check "tmux is installed for the terminal test of gsolve play" yes no
else
  tmux_sock="$play_tmp/tmux.sock" tmux_session=play   # tm, screen, wait_for: tests/lib.sh
  tm new-session -d -s play -x 80 -y 60 \
    "LANG=C.UTF-8 $GSOLVE play games/tictactoe.game --seed 1 --level perfect 2>$play_tmp/tmux.err; echo \$? >$play_tmp/tmux.rc" \; \
    set-option -t play remain-on-exit on
  prompts=1
  wait_for "X to move>" 1
  for step in "b2|O plays c1" "b2|'b2' is not a legal move here" "A1|did you mean 'a1'?" \
              "hint|hint: a1, b1, a2, c2, a3, b3, c3 (draw in 7)" "undo|move taken back" \
              "b2|O plays c3" "a2|O plays c2" "a1|game over"; do
    tm send-keys -t play "${step%%|*}" Enter
    wait_for "${step#*|}"
  done
  n=0
  while [ ! -s "$play_tmp/tmux.rc" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
  scr=$(screen)
  check "play in tmux: exit status 0, nothing on stderr" "0" "$(cat "$play_tmp/tmux.rc" "$play_tmp/tmux.err" 2>&1)"
  check "play in tmux: a Unicode grid" "  ┌───┬───┬───┐" "$(printf '%s\n' "$scr" | grep -m1 '┌')"
  check "play in tmux: coordinates under the board" "    a   b   c" "$(printf '%s\n' "$scr" | grep -m1 'a   b   c')"
  check "play in tmux: the first move on the board" "2 │   │ X │   │" "$(printf '%s\n' "$scr" | grep '^2 │' | sed -n 2p)"
  check "play in tmux: the final board" "3 │   │   │ O │|2 │ X │ X │ O │|1 │ X │   │ O │" \
    "$(printf '%s\n' "$scr" | grep -E '^[123] │' | tail -n 3 | tr '\n' '|' | sed 's/|$//')"
  check "play in tmux: the messages" "'b2' is not a legal move here|'A1' is not a legal move here; did you mean 'a1'?|move taken back" \
    "$(printf '%s\n' "$scr" | grep -E "^('b2'|'A1'|move taken)" | tr '\n' '|' | sed 's/|$//')"
  check "play in tmux: the result" "game over: O wins (the computer) (6 moves)" \
    "$(printf '%s\n' "$scr" | grep '^game over')"
  esc=$(printf '\033')
  check "play in tmux: X in its colour (red)" "yes" \
    "$(screen -e | grep -q "${esc}\[31mX" && echo yes || echo no)"
  NO_COLOR=1 tm new-session -d -s plain -x 80 -y 30 \
    "NO_COLOR=1 LANG=C.UTF-8 $GSOLVE play games/tictactoe.game --seed 1 --ascii" \; set-option -t plain remain-on-exit on
  n=0
  until tm capture-pane -p -t plain 2>/dev/null | grep -q 'to move>' || [ $n -ge 100 ]; do sleep 0.1; n=$((n + 1)); done
  check "play in tmux --ascii, NO_COLOR: the engine's drawing, no colour" "  1  . . .|no" \
    "$(tm capture-pane -p -t plain | grep '^  1' | head -n 1)|$(tm capture-pane -p -e -t plain | grep -q "$esc\[3" && echo colour || echo no)"
  # Ctrl-C at the prompt ends play with exit 130 (it exited 0, as at the
  # end of the input).
  tm new-session -d -s intr -x 80 -y 30 \
    "LANG=C.UTF-8 $GSOLVE play games/tictactoe.game --seed 1 2>$play_tmp/intr.err; echo \$? >$play_tmp/intr.rc" \; \
    set-option -t intr remain-on-exit on
  n=0
  until tm capture-pane -p -t intr 2>/dev/null | grep -q 'to move>' || [ $n -ge 150 ]; do sleep 0.1; n=$((n + 1)); done
  tm send-keys -t intr C-c
  n=0
  while [ ! -s "$play_tmp/intr.rc" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
  check "play in tmux: Ctrl-C at the prompt: exit 130 and why" "130 gsolve: error: interrupted; play stops" \
    "$(cat "$play_tmp/intr.rc" 2>/dev/null) $(cat "$play_tmp/intr.err" 2>/dev/null)"
  tm kill-server 2>/dev/null
fi

# --- Hostile input (issue 39) ----------------------------------------------------
# An endless line (/dev/zero) spun at 100% CPU and ignored the first
# SIGTERM; now a line is read past LINE_MAX_SKIP bytes at most.
play_t0=$(date +%s)
timeout -k 5 30 $GSOLVE play games/tictactoe.game --seed 1 </dev/zero >/dev/null 2>"$play_tmp/err"
play_st=$?
check "play < /dev/zero: exit 2 and why" "2 gsolve: error: an input line longer than 1048576 bytes: the input does not look like moves and commands; play stops" \
  "$play_st $(cat "$play_tmp/err")"
check "play < /dev/zero: within seconds" yes "$([ $(( $(date +%s) - play_t0 )) -le 10 ] && echo yes)"
# Lines that are never a move nor a command (yes, yes ""): play stops.
yes | timeout -k 5 30 $GSOLVE play games/tictactoe.game --seed 1 >"$play_tmp/out" 2>"$play_tmp/err"
check "play < yes: exit 2 and why" "2 gsolve: error: 100 input lines in a row were no move and no command; play stops" \
  "$? $(cat "$play_tmp/err")"
yes "" | timeout -k 5 30 $GSOLVE play games/tictactoe.game --seed 1 >/dev/null 2>"$play_tmp/err"
check "play < yes \"\": exit 2" 2 $?
# A NUL byte in a line dropped the next line (fgets then strlen); an
# overlong line is refused whole, the next one read.
play_out=$(printf 'a1\000junk\nb1\nquit\n' | gs play games/tictactoe.game --seed 1 --level 1 2>&1)
check "play: a line with a NUL byte is refused, the next one read" \
  "X to move> that line has a NUL byte in it: refused|X to move> b1|X to move> quit" \
  "$(printf '%s\n' "$play_out" | grep 'X to move>' | tr '\n' '|' | sed 's/|$//')"
play_long=$(awk 'BEGIN { for (i = 0; i < 3000; i++) printf "x" }')
play_out=$(printf '%s\nb1\nquit\n' "$play_long" | gs play games/tictactoe.game --seed 1 --level 1 2>&1)
check "play: an overlong line is refused whole, the next one read" \
  "X to move> that line is longer than 1023 bytes: refused|X to move> b1|X to move> quit" \
  "$(printf '%s\n' "$play_out" | grep 'X to move>' | tr '\n' '|' | sed 's/|$//')"
# SIGTERM and SIGINT at the prompt stop play at once: exit 130.  The
# input is a fifo held open and silent, so $! is gsolve itself.
mkfifo "$play_tmp/fifo"
for play_sig in TERM INT; do
  $GSOLVE play games/tictactoe.game --seed 1 <"$play_tmp/fifo" >/dev/null 2>"$play_tmp/err" &
  play_pid=$!
  exec 9>"$play_tmp/fifo"
  sleep 1
  kill -$play_sig $play_pid
  play_t0=$(date +%s)
  wait $play_pid
  play_st=$?
  exec 9>&-
  check "play: SIG$play_sig at the prompt: exit 130 and why, at once" "130 gsolve: error: interrupted; play stops yes" \
    "$play_st $(cat "$play_tmp/err") $([ $(( $(date +%s) - play_t0 )) -le 3 ] && echo yes)"
done
rm -rf "$play_tmp"

# The computer's stored positions (retro, once the search met a cycle)
# answer later positions; one from before their root (after an undo) is
# solved afresh from there.  Token from 5: to 3 lets the other reach 4
# and win, to 0 enters the cycle 0-1-2 (a draw, endless play).
check "play: undo past the stored positions' root, the hint solved again" \
  "hint: to 2 (draw (endless))|hint: to 0 (draw (endless))" \
  "$(printf 'to 0\nhint\nundo\nhint\nquit\n' | gs play games/token.game -D from=5 --seed 2 --level perfect |
     grep '^hint' | tr '\n' '|' | sed 's/|$//')"
