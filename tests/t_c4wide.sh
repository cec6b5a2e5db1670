# Connect Four boards past 64 bits (width * (height + 1) up to 128: the
# native engine and solver on 128-bit words, src/engines/connect4/).
# Against the VM: moves, outcomes, eval and perft along random lines
# (tests/unit/test_native.c), perft from the start, and every move's
# solved value; against Christophe Steininger's labelled 10x6 sets
# (0-based columns); the limits and their messages.
C4=games/connect4.game
C4_10x6="$C4 -D width=10 -D height=6"

# The rules, move by move, against the VM on boards of 70 to 125 bits
# (9x7, 8x8: 72; 13x4: 65; 26x3: 104; 4x26: 108; 5x24: 125).
for size in "10 6" "9 7" "8 8" "13 4"; do
  set -- $size
  unit "native = vm: connect4 ${1}x$2 (past 64 bits)" "$BUILD/test_native" $C4 4 60 -D width="$1" -D height="$2"
done
for size in "26 3" "4 26" "5 24"; do
  set -- $size
  unit "native = vm: connect4 ${1}x$2 (past 64 bits)" "$BUILD/test_native" $C4 3 30 -D width="$1" -D height="$2"
done

# Perft from the empty board, both engines.
for size in "10 6 5" "9 7 5" "8 8 5" "26 3 3"; do
  set -- $size
  v=$(gs $C4 -D width="$1" -D height="$2" --engine vm --perft "$3" | sed -n "s/^perft $3: //p")
  n=$(gs $C4 -D width="$1" -D height="$2" --engine native --perft "$3" | sed -n "s/^perft $3: //p")
  check "connect4 ${1}x$2 perft $3: native = vm ($v)" "$v" "$n"
done
check "connect4 10x6 perft 5 = 10^5 (no column fills in 5 moves)" 100000 \
  "$(gs $C4_10x6 --engine native --perft 5 | sed -n 's/^perft 5: //p')"

# Solved values, every move (score, plies, best moves), native = VM, on
# the general 128-bit search (10x6 has one of its own, below): quiet
# positions (no cell to win on at once, tests/c4_quiet_line.awk) with
# their last 8 moves taken back (2 on 26x3, where the VM is slow).
solved() { gs "$@" --all-moves --json | sed 's/"nodes":[^,]*,"seconds":[^,]*,//; s/"solver":"[^"]*",//; s/"engine":"[^"]*"//'; }
quiet_n=0
for spec in "9 7 50 8" "8 8 50 8" "13 4 40 8" "4 26 90 8" "12 9 90 8" "26 3 62 2"; do
  set -- $spec
  for seed in 1 2 3; do
    pos=$(awk -v w="$1" -v h="$2" -v n="$3" -v seed="$seed" -v back="$4" -f tests/c4_quiet_line.awk)
    vm=$(solved $C4 -D width="$1" -D height="$2" --position "$pos" --engine vm)
    printf '%s\n' "$vm" | grep -q '"score"' && quiet_n=$((quiet_n + 1))
    check "connect4 ${1}x$2 quiet line $seed less $4: native = vm, every move" "$vm" \
      "$(solved $C4 -D width="$1" -D height="$2" --position "$pos" --engine native)"
  done
done
check "connect4 past 64 bits: the VM solved the quiet positions ($quiet_n)" 18 "$quiet_n"

# Solved values, every move (score, plies, best moves), native = VM: the
# first lines of the 10x6 end-game set, whole and with the last one or
# two moves taken back (more empty cells).
STEIN=tests/data/connect4/steininger/10x6
if have_data "$STEIN"; then
  solved_n=0
  for i in 1 2 3 4; do
    line=$(sed -n "${i}p" "$STEIN/endgame_L1.txt")
    for back in 0 1 2; do
      # 0-based digits to 1-based moves, less the last `back` of them.
      pos=$(printf '%s\n' "${line% *}" | awk -v b="$back" '{ n = length($0) - b
        for (k = 1; k <= n; k++) printf "%d ", substr($0, k, 1) + 1 }')
      vm=$(solved $C4_10x6 --position "$pos" --engine vm)
      check "connect4 10x6 endgame line $i less $back: native = vm, every move" "$vm" \
        "$(solved $C4_10x6 --position "$pos" --engine native)"
      solved_n=$((solved_n + 1))
    done
  done
  check "connect4 10x6: the VM solved the positions ($solved_n)" 12 "$solved_n"
  # The generic solvers on the native engine's 128-bit state, hash and
  # mirror image: alphabeta's values, every move, and --count, as on the VM.
  line=$(sed -n 5p "$STEIN/endgame_L1.txt")
  pos=$(printf '%s\n' "${line% *}" | awk '{ for (k = 1; k <= length($0); k++) printf "%d ", substr($0, k, 1) + 1 }')
  check "connect4 10x6 endgame line 5, --solver alphabeta: native = vm, every move" \
    "$(solved $C4_10x6 --position "$pos" --solver alphabeta --engine vm)" \
    "$(solved $C4_10x6 --position "$pos" --solver alphabeta --engine native)"
  # The ordering by windows of four (the first 14 plies) on 128-bit words:
  # the opening set's scores with it and without, and it takes effect.
  a=$(gs $C4_10x6 --zero-based --test-set "$STEIN/opening_L1.txt" --limit 5 2>&1)
  b=$(gs $C4_10x6 --zero-based --test-set "$STEIN/opening_L1.txt" --limit 5 --without windows 2>&1)
  check "connect4 10x6 opening_L1 first 5, with windows and without: exact, nodes differ" "5 0 5 0 yes" \
    "$(field positions "$a") $(field mismatches "$a") $(field positions "$b") $(field mismatches "$b") $(awk -v x="$(field 'mean nodes' "$a")" -v y="$(field 'mean nodes' "$b")" 'BEGIN { print (x != y ? "yes" : x) }')"
fi
pos=$(awk -v w=8 -v h=8 -v n=60 -v seed=2 -v back=0 -f tests/c4_quiet_line.awk)
count8() { gs $C4 -D width=8 -D height=8 --position "$pos" --count "$@" | grep -E '^(positions|terminal|canonical)'; }
check "connect4 8x8 quiet line 2, --count: native = vm" "$(count8 --engine vm)" "$(count8 --engine native)"
check "connect4 8x8 quiet line 2, --count: positions counted" yes \
  "$(count8 --engine native | grep -q '^positions: [1-9]' && echo yes)"
if have_data "$STEIN"; then

  # The labels: make test, the fast sets in full or sampled (seconds);
  # make test-full, the three middle and end sets whole and the opening
  # sets sampled (about 1 s a line).
  specs="endgame_L1:1000 midgame_L1:100 midgame_L2:3 opening_L1:3"
  [ -n "$GSOLVE_FULL" ] && specs="endgame_L1:1000 midgame_L1:1000 midgame_L2:1000 opening_L1:100 opening_L2:100"
  for spec in $specs; do
    f=$STEIN/${spec%%:*}.txt n=${spec#*:}
    out=$(gs $C4_10x6 --zero-based --test-set "$f" --limit "$n" 2>&1)
    check "connect4 10x6 ${spec%%:*} (first $n, native): no mismatch" "native-connect4 $n 0" \
      "$(field engine "$out") $(field positions "$out") $(field mismatches "$out")"
  done
  # The same labels through other paths of the solver: the VM; two
  # threads (shared table, ABDADA); no table; the static bounds off; weak.
  out=$(gs $C4_10x6 --zero-based --test-set "$STEIN/endgame_L1.txt" --limit 30 --engine vm --tt-size 8 2>&1)
  check "connect4 10x6 endgame_L1 (first 30, VM): no mismatch" "30 0" "$(field positions "$out") $(field mismatches "$out")"
  out=$(gs $C4_10x6 --zero-based --test-set "$STEIN/midgame_L2.txt" --limit 3 --threads 2 2>&1)
  check "connect4 10x6 midgame_L2 (first 3, 2 threads): no mismatch" "3 0" "$(field positions "$out") $(field mismatches "$out")"
  out=$(gs $C4_10x6 --zero-based --test-set "$STEIN/endgame_L1.txt" --limit 200 --tt-size 0 2>&1)
  check "connect4 10x6 endgame_L1 (first 200, no table): no mismatch" "200 0" "$(field positions "$out") $(field mismatches "$out")"
  out=$(gs $C4_10x6 --zero-based --test-set "$STEIN/midgame_L1.txt" --limit 30 \
        --without claimeven,odd-threat,double-threat,symmetry,etc,best-move 2>&1)
  check "connect4 10x6 midgame_L1 (first 30, techniques off): no mismatch" "30 0" "$(field positions "$out") $(field mismatches "$out")"
  out=$(gs $C4_10x6 --zero-based --test-set "$STEIN/endgame_L1.txt" --limit 300 --weak 2>&1)
  check "connect4 10x6 endgame_L1 (first 300, weak): no mismatch" "300 0" "$(field positions "$out") $(field mismatches "$out")"
fi

# The limits.  Past 128 bits: a clear reason, and the VM with a note.
err=$(gs $C4 -D width=26 -D height=6 --engine native --perft 1 2>&1 >/dev/null)
check "connect4 26x6 (182 bits) --engine native: the reason" \
  "gsolve: error: --engine native: native connect4 needs width * (height + 1) <= 128 (26x6: 182 bits)" "$err"
out=$(gs $C4 -D width=26 -D height=6 --perft 2 2>&1)
check "connect4 26x6: the VM instead, with a note" \
  "gsolve: note: native connect4 needs width * (height + 1) <= 128 (26x6: 182 bits); using the VM|676" \
  "$(printf '%s\n' "$out" | grep '^gsolve: note')|$(field 'perft 2' "$out")"
check "connect4 8x15 (128 bits): native" native-connect4 \
  "$(gs $C4 -D width=8 -D height=15 --perft 1 --json | sed 's/.*"engine":"\([^"]*\)".*/\1/')"
# Opening books keep 64-bit keys: none past 64 bits, said so.
for flag in --make-book --book; do
  check "connect4 10x6 $flag: refused" \
    "gsolve: error: $flag: opening books take boards with width * (height + 1) <= 64 (10x6 has 70 bits)" \
    "$(gs $C4_10x6 "$flag" "$BUILD/c4wide.book" 2>&1)"
done
check "connect4 10x6: no book written" no "$([ -e "$BUILD/c4wide.book" ] && echo yes || echo no)"
