# tests/t_go.sh -- Go (games/go.game): counts and values published for
# small boards, and each rule variant on a hand-made position where it
# differs from the others.  Sourced by tests/run.sh (check, field, gs).
#
# Published figures used:
# - legal positions (every chain has a liberty): 1 on 1x1, 5 on 1x2, 15 on
#   1x3, 57 on 2x2, 12,675 on 3x3 (Tromp and Farnebaeck, "Combinatorics of
#   Go", 2007); every legal position is reachable, so --count's `boards`
#   must give them;
# - optimal scores with area scoring, komi 0, no suicide, superko: 1x1 0,
#   1x2 0, 1x3 +3, 1x4 +4, 1x5 0 (Weninger and Hayward, "Exploring
#   positional linear Go"), 2x2 +1 under positional or situational superko
#   (Bill Taylor's proof, Sensei's Library "2x2 board"), 3x3 +9 by the
#   centre alone (van der Werf, van den Herik and Uiterwijk, "Solving Go on
#   small boards", ICGA Journal 2003).

go_g="games/go.game"
go_val() {   # value score best for the player to move
  go_o=$(gs $go_g "$@")
  printf '%s %s %s\n' "$(field value "$go_o")" "$(field score "$go_o")" "$(field best "$go_o")"
}
go_legal() {   # 0 if the last move of --position is legal, else 2
  gs $go_g "$@" --perft 0 >/dev/null 2>&1
  echo $?
}

# ---- Counting legal positions ----------------------------------------
for go_c in "1 1 1" "2 1 5" "3 1 15" "2 2 57" "3 3 12675"; do
  set -- $go_c
  check "go $1x$2: legal boards" "$3" "$(field boards "$(gs $go_g -D width=$1 -D height=$2 --count)")"
done
# The same square as a graph (a 4-cycle): same boards.
check "go on the 4-cycle graph: legal boards" "57" \
  "$(field boards "$(gs $go_g -D nodes=4 -D edges=0,1,1,3,3,2,2,0 --count)")"

# ---- Values --------------------------------------------------------
for go_c in "1 1 draw 0" "2 1 draw 0" "3 1 win 3" "4 1 win 4" "5 1 draw 0" "2 2 win 1"; do
  set -- $go_c
  for go_ko in positional situational; do
    check "go $1x$2, ko=$go_ko: $3 by $4" "$3 $4" \
      "$(go_val -D width=$1 -D height=$2 -D ko=$go_ko | cut -d' ' -f1,2)"
  done
done
check "go 1x3: the centre" "win 3 b1" "$(go_val -D width=3 -D height=1)"
# 1x6 +1 (Drange's table, mathpuzzle.com/go, and Weninger and Hayward).
check "go 1x6: Black +1" "win 1 b1, e1" "$(go_val -D width=6 -D height=1)"
check "go 1x6, positional: Black +1" "win 1 b1, e1" "$(go_val -D width=6 -D height=1 -D ko=positional)"
for go_ko in positional situational; do
  check "go 3x3, ko=$go_ko: Black +9, the centre only" "win 9 b2" "$(go_val -D ko=$go_ko)"
done
# 2x2 with pass tried first: 1,446 nodes in the published search; the
# table keyed by position (with what each subtree met of the line, ghi.h)
# keeps us below that.  go.game says `score only;`: values without the
# distance to the end (--with-plies puts it back, and costs more).  Its
# bound makes the search prove each probe by deepening (800 nodes
# without: --no-deepening; 3x3 does not finish without it).
# go.game declares the board's symmetries: where one fixes the whole line,
# alphabeta searches one move of each set of images (the counts with
# --no-symmetry are those before it).
# Deepening also orders every node by the game's eval (the area margin),
# then by the history of cutoffs; searches to the end by the history alone.
check "go 2x2: nodes (deterministic)" "187" "$(field nodes "$(gs $go_g -D width=2 -D height=2)")"
check "go 2x2 --no-symmetry: nodes (deterministic)" "1133" \
  "$(field nodes "$(gs $go_g -D width=2 -D height=2 --no-symmetry)")"
check "go 2x2 --no-deepening: nodes (deterministic)" "371 800" \
  "$(field nodes "$(gs $go_g -D width=2 -D height=2 --no-deepening)") $(field nodes "$(gs $go_g -D width=2 -D height=2 --no-deepening --no-symmetry)")"
check "go 2x2 --with-plies: nodes (deterministic)" "361 1412" \
  "$(field nodes "$(gs $go_g -D width=2 -D height=2 --with-plies)") $(field nodes "$(gs $go_g -D width=2 -D height=2 --with-plies --no-symmetry)")"
# Symmetric lines against the plain search: the same value and the same
# optimal moves, every move's value the same (--all-moves), under both
# superkos, with and without deepening; on 3x3 fewer nodes.
for go_c in "2 2" "3 2" "2 3" "5 1" "6 1" "4 1"; do
  set -- $go_c
  for go_ko in positional situational; do
    go_o1=$(gs $go_g -D width=$1 -D height=$2 -D ko=$go_ko --all-moves --json | sed 's/"nodes":[^,]*,"seconds":[^,]*,//')
    go_o2=$(gs $go_g -D width=$1 -D height=$2 -D ko=$go_ko --all-moves --json --no-symmetry | sed 's/"nodes":[^,]*,"seconds":[^,]*,//')
    check "go $1x$2, ko=$go_ko, --all-moves: symmetric lines = every move" "$go_o2" "$go_o1"
    check "go $1x$2, ko=$go_ko: symmetric lines = every move" \
      "$(go_val -D width=$1 -D height=$2 -D ko=$go_ko --no-symmetry)" "$(go_val -D width=$1 -D height=$2 -D ko=$go_ko)"
  done
  check "go $1x$2 --no-deepening: symmetric lines = every move" \
    "$(go_val -D width=$1 -D height=$2 --no-symmetry --no-deepening)" "$(go_val -D width=$1 -D height=$2 --no-deepening)"
done
for go_ko in positional situational; do
  check "go 3x3, ko=$go_ko, --all-moves: symmetric lines = every move" \
    "$(gs $go_g -D ko=$go_ko --all-moves --json --no-symmetry | sed 's/"nodes":[^,]*,"seconds":[^,]*,//')" \
    "$(gs $go_g -D ko=$go_ko --all-moves --json | sed 's/"nodes":[^,]*,"seconds":[^,]*,//')"
done
# Without a repetition rule (a move limit instead) the line's symmetries
# serve too; minimax, which does not use them, agrees.
for go_c in "2 2 8" "3 2 7" "3 3 5"; do
  set -- $go_c
  go_o1=$(go_val -D width=$1 -D height=$2 -D ko=none -D limit=$3)
  check "go $1x$2, no ko, limit $3: symmetric lines = every move" \
    "$(go_val -D width=$1 -D height=$2 -D ko=none -D limit=$3 --no-symmetry)" "$go_o1"
  check "go $1x$2, no ko, limit $3: symmetric lines = minimax" \
    "$(go_val -D width=$1 -D height=$2 -D ko=none -D limit=$3 --solver minimax)" "$go_o1"
done
go_o=$(gs $go_g --stats 2>&1)
go_o2=$(gs $go_g --stats --no-symmetry 2>&1)
check "go 3x3: symmetric lines skip moves, the same answer in fewer nodes" "yes win 9 b2 yes" \
  "$(printf '%s\n' "$go_o" | grep -q 'symmetry skips [1-9]' && echo yes || echo no) $(field value "$go_o") $(field score "$go_o") $(field best "$go_o") $([ "$(field nodes "$go_o")" -lt "$(field nodes "$go_o2")" ] && echo yes || echo no)"
# Simple ko keeps a cell in the state (ko_point), which the symmetries
# would not move: go.game declares none then.
check "go 2x2, simple ko: no symmetry declared" "no" \
  "$(gs $go_g -D width=2 -D height=2 -D ko=simple -D limit=6 --stats 2>&1 | grep -q 'symmetry skips' && echo yes || echo no)"
check "go 2x2 --with-plies: plies 11" "win 1 11" \
  "$(go_o=$(gs $go_g -D width=2 -D height=2 --with-plies); echo "$(field value "$go_o") $(field score "$go_o") $(field plies "$go_o")")"
# Scores only against scores and distances (which use no bound): the same
# score, and every move optimal with distances is optimal by score.  (Not
# after 3x2 b1: there --with-plies takes 30 s, by score 0.1 s.)
for go_c in "2 2 a1" "2 2 a1 b2 b1 pass" "2 2 b2 a1 a2 b1 pass" "5 1 c1" "5 1 b1 e1 d1 pass e1" \
            "3 2 b1 a2" "3 2 a1 c2 b2" "3 2 a1" "3 3 b1 pass a2 pass b2 pass c2 pass a3 pass b3 pass c3" \
            "3 3 b1 pass a2 pass b2 pass c2 pass b3 pass a3" "3 3 b1 pass a2 pass b2 pass c2 pass c3 pass"; do
  set -- $go_c
  go_w=$1 go_h=$2
  shift 2
  go_o1=$(gs $go_g -D width=$go_w -D height=$go_h --position "$*" --json)
  go_o2=$(gs $go_g -D width=$go_w -D height=$go_h --position "$*" --json --with-plies)
  go_s1=$(printf '%s' "$go_o1" | sed 's/.*"score":\([-0-9]*\).*/\1/')
  go_s2=$(printf '%s' "$go_o2" | sed 's/.*"score":\([-0-9]*\).*/\1/')
  check "go ${go_w}x$go_h after $*: scores only = with plies" "$go_s2" "$go_s1"
  go_b1=$(printf '%s' "$go_o1" | sed 's/.*"best":\[\([^]]*\)\].*/\1/' | tr ',' '\n')
  go_b2=$(printf '%s' "$go_o2" | sed 's/.*"best":\[\([^]]*\)\].*/\1/' | tr ',' '\n')
  check "go ${go_w}x$go_h after $*: best with plies within best by score" "" \
    "$(printf '%s\n' "$go_b2" | while read -r m; do printf '%s\n' "$go_b1" | grep -qxF -- "$m" || echo "$m"; done)"
done
# Deepening (proofs to a growing horizon, leaves worth the bounds)
# against a search to the end: both by scores alone, so the same score
# and the same set of optimal moves, on whole boards and positions.
for go_c in "2 2" "3 2" "5 1" "6 1" "2 3" "3 2 b1" "3 2 a1 c2 b2" "2 2 a1 b2 b1 pass" \
            "5 1 b1 e1 d1 pass e1"; do
  set -- $go_c
  go_w=$1 go_h=$2
  shift 2
  go_o1=$(go_val -D width=$go_w -D height=$go_h --position "$*")
  go_o2=$(go_val -D width=$go_w -D height=$go_h --position "$*" --no-deepening)
  check "go ${go_w}x$go_h after ${*:-nothing}: deepening = to the end" "$go_o2" "$go_o1"
done
# On 3x3 a search to the end does not finish (lines of a thousand moves
# under superko), nor does --with-plies: deepening with the table (and
# its records of the line, ghi.h) against deepening without one.
for go_p in "b2 a1 a2 b1 c1 pass c3" "b2 a1 a2 b1 c1 c2 b3" "b2 b1 c1 a1 a2 c2 c3 pass" \
            "b2 a1 a2 b1 c1 pass a1" "b2 a2 b1 a1 pass"; do
  check "go 3x3 after $go_p: table = no table" "$(go_val --position "$go_p" --tt-size 0)" \
    "$(go_val --position "$go_p")"
done
# The position where scores alone once took millions of nodes: Black's
# pass ends the game with every point his, but every other move must be
# proved +9 too, through White's invasions of the two-point region under
# superko.  Deepening finds the short proofs first.
go_o=$(gs $go_g --position "b1 pass a2 pass b2 pass c2 pass c3 pass" --stats 2>&1)
check "go 3x3, Black's region of two: +9 by five moves" "win 9 pass, a1, c1, a3, b3" \
  "$(field value "$go_o") $(field score "$go_o") $(field best "$go_o")"
check "go 3x3, Black's region of two: under 1000 nodes" "yes" \
  "$([ "$(field nodes "$go_o")" -lt 1000 ] && echo yes || echo no)"

# The bound (Benson's unconditional life): Black's chain b1 a2 b2 c2 b3
# has four one-point eyes, so every point is his: -9 for White, settled
# by the bound at every child (scores only) instead of searched.
go_o=$(gs $go_g --position "b1 pass a2 pass b2 pass c2 pass b3" --stats 2>&1)
check "go 3x3, Black alive with four eyes: White -9" "loss -9 pass" \
  "$(field value "$go_o") $(field score "$go_o") $(field best "$go_o")"
check "go 3x3, Black alive with four eyes: the bound settles it in 3 nodes" "3" "$(field nodes "$go_o")"
check "go 3x3, Black alive with four eyes: bound cutoffs" "yes" \
  "$(printf '%s\n' "$go_o" | grep -q 'bound cutoffs [1-9]' && echo yes || echo no)"
# Capture rule 4 (stones turned over) has no bound: searched, same value.
go_o=$(gs $go_g -D capture=4 --position "b1 pass a2 pass b2 pass c2 pass b3" --stats 2>&1)
check "go 3x3, capture 4: no bound, same value" "loss -9 0" \
  "$(field value "$go_o") $(field score "$go_o") $(printf '%s\n' "$go_o" | sed -n 's/.*bound cutoffs \([0-9]*\).*/\1/p')"
# The table against no table (plain alpha-beta, exact under any rule) on
# positions of 2x2 and 1x5 where the history matters.
for go_c in "2 2 a1 b2 b1 pass" "2 2 b2 a1 a2 b1 pass" "2 2 a1 b1 a2 pass b2 b1" "5 1 d1 a1 e1 b1 c1 b1" \
            "5 1 b1 e1 d1 pass e1" "5 1 c1 d1" "2 2 pass b2 pass" "2 2 a1 b2 pass a2"; do
  set -- $go_c
  go_w=$1 go_h=$2
  shift 2
  go_o1=$(gs $go_g -D width=$go_w -D height=$go_h --position "$*" --all-moves --json | sed 's/"nodes":[^,]*,"seconds":[^,]*,//')
  go_o2=$(gs $go_g -D width=$go_w -D height=$go_h --position "$*" --all-moves --json --tt-size 0 | sed 's/"nodes":[^,]*,"seconds":[^,]*,//')
  check "go ${go_w}x$go_h after $*: table = no table" "$go_o2" "$go_o1"
done
check "go 2x2 as a graph: the same value" "win 1 0, 1, 2, 3" "$(go_val -D nodes=4 -D edges=0,1,1,3,3,2,2,0)"
check "go 2x2, komi 1: a draw" "draw 0" "$(go_val -D width=2 -D height=2 -D komi=1 | cut -d' ' -f1,2)"
check "go 2x2, komi 2: White wins by 1" "loss -1" "$(go_val -D width=2 -D height=2 -D komi=2 | cut -d' ' -f1,2)"
go_o=$(gs $go_g -D limit=1)
check "go 3x3, one move: any stone owns the board" "win 9 -" \
  "$(field value "$go_o") $(field score "$go_o") $(field plies "$go_o")"
go_o=$(gs $go_g -D limit=1 --with-plies)
check "go 3x3, one move, --with-plies: in 1 ply" "win 9 1" \
  "$(field value "$go_o") $(field score "$go_o") $(field plies "$go_o")"
# Cross-check: expectimax (payoff vectors, no pruning) agrees where it
# can finish quickly.
for go_c in "2 1" "3 1"; do
  set -- $go_c
  check "go $1x$2: expectimax = alphabeta" "$(go_val -D width=$1 -D height=$2)" \
    "$(go_val -D width=$1 -D height=$2 --solver expectimax)"
done

# ---- Suicide (1x4, after Black c1, White b1; Black to move) ----------
# a1 captures b1 but has no liberty before the capture; d1 is suicide
# that captures nothing.  Moves legal: 1 all, 2 a1, 3 neither, 4 both
# (with capture 2 the own chain goes; with capture 4 it stays, so d1 is
# not legal).
for go_c in "1 2 3" "2 2 2" "3 2 1" "4 2 3" "4 4 2" "1 4 3"; do
  set -- $go_c
  check "go suicide=$1 capture=$2: legal moves after c1 b1" "perft 1: $3" \
    "$(gs $go_g -D width=4 -D height=1 -D ko=none -D suicide=$1 -D capture=$2 --position 'c1 b1' --perft 1 | grep '^perft 1')"
done
check "go suicide=2: a1 (captures) is legal" 0 "$(go_legal -D width=4 -D height=1 -D suicide=2 --position 'c1 b1 a1')"
check "go suicide=2: d1 (captures nothing) is not" 2 "$(go_legal -D width=4 -D height=1 -D suicide=2 --position 'c1 b1 d1')"
check "go suicide=3: a1 is not legal" 2 "$(go_legal -D width=4 -D height=1 -D suicide=3 --position 'c1 b1 a1')"

# ---- Captures (1x4, suicide 1: Black a1 after c1 b1 leaves both a1 and
# b1 without liberty): 1 removes both, 2 White's b1 only, 3 Black's a1
# only (b1 lives), 4 turns b1 Black.  White's moves next, and the score
# after two passes (for White), tell the four apart.
for go_c in "1 4 -4" "2 3 -4" "3 3 0" "4 2 -4"; do
  set -- $go_c
  check "go capture=$1: White's moves after c1 b1 a1" "perft 1: $2" \
    "$(gs $go_g -D width=4 -D height=1 -D ko=none -D suicide=1 -D capture=$1 --position 'c1 b1 a1' --perft 1 | grep '^perft 1')"
  check "go capture=$1: the score after two passes" "$3" \
    "$(field score "$(gs $go_g -D width=4 -D height=1 -D ko=none -D suicide=1 -D capture=$1 --position 'c1 b1 a1 pass pass')")"
done

# ---- Ko -------------------------------------------------------------
# 1x4: Black d1 takes c1 (a single stone, by a single stone); White's
# immediate retake at c1 is legal only without a ko rule.
for go_c in "none 0" "simple 2" "positional 2" "situational 2"; do
  set -- $go_c
  check "go ko=$1: the immediate retake" "$2" "$(go_legal -D width=4 -D height=1 -D ko=$1 --position 'b1 c1 d1 c1')"
done
# 2x2: a1 would bring back a board of four moves ago: simple ko allows
# it (not an immediate retake), superko does not.
for go_c in "none 0" "simple 0" "positional 2" "situational 2"; do
  set -- $go_c
  check "go ko=$1: a longer cycle" "$2" \
    "$(go_legal -D width=2 -D height=2 -D ko=$1 --position 'a1 b1 a2 b2 a1 a2 a1')"
done
# 2x2: a1 brings back the board after move 2 with the other player to
# move: positional superko forbids it, situational allows it.
for go_c in "none 0" "simple 0" "positional 2" "situational 0"; do
  set -- $go_c
  check "go ko=$1: the board again, the other player to move" "$2" \
    "$(go_legal -D width=2 -D height=2 -D ko=$1 --position 'a1 b1 a2 pass b2 b1 a1')"
done

# ---- Bigger boards load and play; GTP vertices skip the letter i -----
check "go 19x19: 362 first moves" "perft 1: 362" "$(gs $go_g -D width=19 -D height=19 --perft 1 | grep '^perft 1')"
check "go 19x19: t19 j10 a1 pass" "perft 1: 359" \
  "$(gs $go_g -D width=19 -D height=19 --position 't19 j10 a1 pass' --perft 1 | grep '^perft 1')"
check "go 19x19: there is no column i" 2 "$(go_legal -D width=19 -D height=19 --position 'i5')"
check "go: two passes end the game" "draw 0" "$(go_val -D width=2 -D height=2 --position 'pass pass' | cut -d' ' -f1,2)"

# 2x3: a draw, Black's best first move a pass (Drange's table: "(0)"):
# 33 million nodes, about 3 minutes: the full suite only.
# 2x3: a draw, and Black's only optimal move is a pass (Drange's table:
# "(0)").  33 million nodes with distances, 8,220 by score alone.
check "go 2x3: a draw, pass first" "draw 0 pass" "$(go_val -D width=3 -D height=2)"
check "go 3x2 as a graph (the 2x3 grid): a draw, pass first" "draw 0 pass" \
  "$(go_val -D nodes=6 -D edges=0,1,1,2,3,4,4,5,0,3,1,4,2,5)"
# gsolve play on a `score only` game: values in words without distances.
go_o=$(gs play $go_g -D width=2 -D height=2 --self-play --level perfect --show-evals --ascii 2>&1)
check "go play, scores only: 'loss by 4' without 'in N'" "yes no" \
  "$(printf '%s\n' "$go_o" | grep -q ' loss by 4 *$' && echo yes || echo no) $(printf '%s\n' "$go_o" | grep -q 'by [0-9]* in [0-9]' && echo yes || echo no)"

# ---- 4x4 (make test-full) ----------------------------------------------
# The empty 4x4 board: Black +2 by the centre (van der Werf, van den
# Herik and Uiterwijk, "Solving Go on small boards", ICGA Journal 2003;
# Drange's table), the four centre points by symmetry.  62,721,271 nodes,
# 4 to 8 minutes on this project's loaded 2-core machine through the compiled
# tier (docs/go.md); the VM is 5 to 8 times slower.  Black +2 after b2 c3
# c2 b3 and +16 after b4 c1 as well are gsolve's own
# values: the same under three move orders (history, eval, both), and
# with deepening steps of 4 to 10 plies (the first) and 8 (the second);
# 1.4 M and 4.5 M nodes, a minute or two through the VM.
if [ -n "$GSOLVE_FULL" ]; then
  go_e=vm
  command -v "${GSOLVE_CC:-cc}" >/dev/null 2>&1 && go_e=compiled
  go_o=$(gs $go_g -D width=4 -D height=4 --tt-size 3072 --engine $go_e)
  check "go 4x4: Black +2 by the centre (published)" "win 2 b2, c2, b3, c3" \
    "$(field value "$go_o") $(field score "$go_o") $(field best "$go_o")"
  check "go 4x4: under 100 M nodes (62,721,271 when measured)" "yes" \
    "$([ "$(field nodes "$go_o")" -lt 100000000 ] && echo yes || echo no)"
  check "go 4x4 after b2 c3 c2 b3 b4 c1: Black +16 by d3" "win 16 d3" \
    "$(go_val -D width=4 -D height=4 --position 'b2 c3 c2 b3 b4 c1' --tt-size 512)"
  check "go 4x4 after b2 c3 c2 b3: Black +2 by a3 or d3" "win 2 a3, d3" \
    "$(go_val -D width=4 -D height=4 --position 'b2 c3 c2 b3' --tt-size 512)"
fi
