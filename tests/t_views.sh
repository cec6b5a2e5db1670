# Hidden information (views, docs/language.md section 4.19): the number of
# information sets of Kuhn poker and Leduc hold'em (the published 12 and
# 936), counted by --perft and by the unit test, which also checks on the
# whole tree that keys and texts of information states agree and that undo
# restores the keys; the texts of a few positions; has_views is 0 and
# infostate NULL on perfect-information games.

# --perft N reports the information sets of the players to move.
out=$(gs games/kuhn.game --perft 6)
check "kuhn: 12 information sets" 12 "$(field infosets "$out")"
check "kuhn: 30 complete games (6 deals x 5 betting lines)" 30 "$(field games "$out")"
out=$(gs games/leduc.game --perft 14)
check "leduc: 936 information sets" 936 "$(field infosets "$out")"
check "leduc: 5520 complete games" 5520 "$(field games "$out")"
check "leduc: 9457 positions in the tree" 9457 "$(field nodes "$out")"
# Shallower: only P1's first decision, one per private card.
check "kuhn: 3 information sets within 3 plies" 3 "$(field infosets "$(gs games/kuhn.game --perft 3)")"
check "leduc: 6 information sets within 3 plies" 6 "$(field infosets "$(gs games/leduc.game --perft 3)")"
# Perfect information: no infosets line.
check "perft on a game without views has no infosets line" "" \
  "$(gs games/dice.game --perft 2 | grep infosets)"
# The JSON report says the same (it once left the count out).
check "leduc: 6 information sets within 3 plies, in JSON" 6 \
  "$(gs games/leduc.game --perft 3 --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["infosets"])')"
check "perft JSON on a game without views has no infosets" False \
  "$(gs games/dice.game --perft 2 --json | python3 -c 'import json, sys; print("infosets" in json.load(sys.stdin))')"

# The whole tree: keys and texts agree, undo restores the keys.
views_unit() {
  unit "information states: $*" "$BUILD/test_views" "$@"
}
views_unit games/kuhn.game
views_unit games/leduc.game
check "unit: kuhn's 12 information sets" "infosets: 12" \
  "$("$BUILD/test_views" games/kuhn.game 2>&1 | grep infosets)"
check "unit: leduc's 936 information sets" "infosets: 936" \
  "$("$BUILD/test_views" games/leduc.game 2>&1 | grep infosets)"
# Perfect information: has_views 0, no infostate, no print_view.
views_unit games/tictactoe.game
views_unit games/dice.game
views_unit games/pot.game

# --info-state: each player's view and observations (docs/cli.md).
out=$(gs games/kuhn.game --position "deal J, deal Q, check, bet" --info-state)
check "kuhn info-state P1 after check, bet (its own move named, the other's seen by its effect)" \
  "card=[J,?] pot=[1,2] folded=none over=false | chance card[0]=J | chance | P1 check | P2 pot[1]=2" \
  "$(field "info-state P1" "$out")"
check "kuhn info-state P2 at P1's turn" \
  "card=[?,Q] pot=[1,2] folded=none over=false | chance | chance card[1]=Q | P1 | P2 bet pot[1]=2 | P1 to move" \
  "$(field "info-state P2" "$out")"
# P1 cannot tell P2's card: the same text and key whatever P2 holds.
a=$(gs games/kuhn.game --position "deal J, deal Q, check, bet" --info-state --json)
b=$(gs games/kuhn.game --position "deal J, deal K, check, bet" --info-state --json)
key_of() { printf '%s\n' "$1" | sed 's/.*"player":"'"$2"'","key":"\([0-9a-f]*\)".*/\1/'; }
check "kuhn: P1's key does not depend on P2's card" "$(key_of "$a" P1)" "$(key_of "$b" P1)"
check "kuhn: P2's key does" yes "$([ "$(key_of "$a" P2)" != "$(key_of "$b" P2)" ] && echo yes)"
check "kuhn: keys are 128 bits in hex" 32 "$(key_of "$a" P1 | tr -d '\n' | wc -c | tr -d ' ')"
out=$(gs games/leduc.game --position "deal Ks, deal Qh, raise, call, deal Qs" --info-state)
check "leduc info-state P2 in round 2: a pair of queens, the raise seen by its effect" \
  "card=[?,Qh] public=Qs pot=[3,3] round=2 raises=0 acted=false folded=none over=false | chance | chance card[1]=Qh | P1 pot[0]=3 raises=1 acted=true | P2 call pot[1]=3 round=2 raises=0 acted=false | chance public=Qs | P1 to move" \
  "$(field "info-state P2" "$out")"
check "--info-state on a game without views: a usage error" 2 \
  "$(gs games/dice.game --info-state >/dev/null 2>&1; echo $?)"

# play: the person sees his own card only until the end, which reveals all.
# (check or call, whichever the computer's move leaves legal)
out=$(printf 'check\ncall\n' | gs play games/kuhn.game --first computer --seed 5)
before=$(printf '%s\n' "$out" | sed '/revealed/,$d')
check "play: P1's card stays hidden from the person (P2)" "" \
  "$(printf '%s\n' "$before" | grep '^card' | grep -v '^card = \[?, ')"
check "play: chance's deals are not printed" "" "$(printf '%s\n' "$before" | grep '^chance: ')"
check "play: the end reveals both cards" "card = [K, J]" \
  "$(printf '%s\n' "$out" | sed -n '/revealed/,$p' | grep '^card')"
# (A hint gives the CFR strategy of the person's own information state:
# what he sees alone, so nothing of the computer's card.)
check "play: a hint with hidden information is the strategy of the person's view" yes \
  "$(printf 'hint\nquit\n' | gs play games/kuhn.game --seed 1 | grep -q '^hint: the strategy plays check 0.[0-9]*, bet 0.[0-9]*$' && echo yes)"

# Leduc's payoffs by hand (net chips), at the end of a few lines.
leduc_end() {
  printf '' | gs play games/leduc.game --self-play --position "$1" | grep '^game over'
}
check "leduc: a pair of queens beats a king (raise, raise, call; check, check): 5 chips" \
  "game over: P2 wins; final score P1 -5, P2 5 (8 moves)" \
  "$(leduc_end "deal Ks, deal Qh, raise, raise, call, deal Qs, call, call")"
check "leduc: a fold after raises of 2 and 4 loses 9 chips" \
  "game over: P2 wins; final score P1 -9, P2 9 (10 moves)" \
  "$(leduc_end "deal Ks, deal Qh, call, raise, raise, call, deal Js, raise, raise, fold")"
check "leduc: equal ranks split the pot" "game over: a draw (7 moves)" \
  "$(leduc_end "deal Ks, deal Kh, call, call, deal Js, raise, call")"
check "leduc: the higher card wins without a pair" \
  "game over: P1 wins (7 moves)" \
  "$(leduc_end "deal Ks, deal Qh, call, call, deal Js, call, call")"
check "leduc: at most two raises a round" yes \
  "$(gs games/leduc.game --position "deal Ks, deal Qh, raise, raise, raise" --perft 0 2>&1 | grep -q "illegal move 'raise'" && echo yes)"

# Views of every shape (tests/files/views_mix.game): a [board] array
# revealed by a move, a 2-D array seen row by row until opened, a scalar
# hidden from all, one seen by the player it holds.
views_unit tests/files/views_mix.game
out=$(gs tests/files/views_mix.game --position "setup 1" --info-state)
view_part() { printf '%s\n' "$1" | sed 's/ | .*//'; }
check "views_mix: A sees row 0 of grid and that it owns" \
  "mark=[?,?,?,?] shown=[false,false,false,false] grid=[1,1;?,?] open=false secret=? owner=A t=0" \
  "$(view_part "$(field "info-state A" "$out")")"
check "views_mix: B sees row 1, not the owner" \
  "mark=[?,?,?,?] shown=[false,false,false,false] grid=[?,?;0,2] open=false secret=? owner=? t=0" \
  "$(view_part "$(field "info-state B" "$out")")"
out=$(gs tests/files/views_mix.game --position "setup 2, flip a1, open" --info-state)
check "views_mix: flip reveals a1 to both, open reveals column 1; B named its own move only" \
  "mark=[2,?,?,?] shown=[true,false,false,false] grid=[?,1;0,1] open=true secret=? owner=B t=2 | chance grid[1][1]=1 owner=B | A mark[0]=2 shown[0]=true t=1 | B open grid[0][1]=1 open=true t=2 | A to move" \
  "$(field "info-state B" "$out")"
check "views_mix: 52 information sets within 4 plies" 52 \
  "$(field infosets "$(gs tests/files/views_mix.game --perft 4)")"
