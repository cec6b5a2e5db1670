# tests/t_protocols.sh -- protocol verification as a game (docs/protocols.md):
# games/needham-schroeder.game.  The intruder finds Lowe's man-in-the-middle
# attack when A may run with it (the default), cannot win when only A and B
# run the protocol, and cannot win against Lowe's fix; every value is
# cross-checked by retrograde analysis and minimax.  Also the two small
# language changes the game needs: '{{' in a notation, and commas inside
# braces in --position.  Sourced by tests/run.sh.
NS=games/needham-schroeder.game
ns_tmp=$(mktemp -d)

# value plies, by a solver
ns_value() {
  solver=$1; shift
  ns_out=$(gs $NS --solver "$solver" "$@" 2>&1)
  printf '%s %s' "$(field value "$ns_out")" "$(field plies "$ns_out")"
}

# --- Lowe's attack (the defaults: A may start a run with the intruder) ----
LOWE="A->I:{Na,A}pkI, I(A)->B:{Na,A}pkB, B->A:{Na,Nb}pkA, I->A:{Na,Nb}pkA, A->I:{Nb}pkI, I(A)->B:{Nb}pkB"
out=$(gs $NS --pv)
check "NS default: the intruder wins in 6 messages" "win 6" "$(field value "$out") $(field plies "$out")"
check "NS default: --pv is Lowe's man-in-the-middle attack" "$LOWE" "$(field pv "$out")"
check "NS default: the parameters are the attack setting" \
  "Needham-Schroeder (fixed=false partner_i=true sessions=1 messages=3 weak=false)" "$(field game "$out")"
for solver in retro minimax; do
  check "NS default: $solver agrees (win in 6)" "win 6" "$(ns_value $solver)"
done
out=$(gs $NS --solver retro --pv)
check "NS default: retro's pv is the same attack" "$LOWE" "$(field pv "$out")"
# The attack read back with --position: the intruder has won there.
out=$(gs $NS --position "$LOWE")
check "NS: the attack replayed with --position ends in the intruder's win" "win 0" \
  "$(field value "$out") $(field plies "$out")"
# Bigger bounds: two runs of each honest agent, more messages.
for m in 4 6; do
  check "NS sessions=2 messages=$m: alphabeta, a win in 6" "win 6" \
    "$(ns_value alphabeta -D sessions=2 -D messages=$m)"
  check "NS sessions=2 messages=$m: retro agrees" "win 6" \
    "$(ns_value retro -D sessions=2 -D messages=$m)"
done
# The bound matters: with 2 messages the intruder cannot do it.
check "NS messages=2: too few messages for the attack" "loss" \
  "$(field value "$(gs $NS -D messages=2)")"
check "NS messages=2: retro agrees" "loss" \
  "$(field value "$(gs $NS -D messages=2 --solver retro)")"

# --- Only A and B honest, the intruder no legitimate partner: safe --------
for b in "-D sessions=1 -D messages=3" "-D sessions=2 -D messages=6"; do
  for solver in alphabeta retro minimax; do
    check "NS partner_i=0 $b: $solver, the intruder cannot win" "loss" \
      "$(ns_value $solver -D partner_i=0 $b | cut -d' ' -f1)"
  done
done

# --- Lowe's fix (B's name in message 2): safe under the same bounds -------
for b in "-D sessions=1 -D messages=3" "-D sessions=2 -D messages=6"; do
  for solver in alphabeta retro minimax; do
    check "NS fixed=1 $b: $solver, the intruder cannot win" "loss" \
      "$(ns_value $solver -D fixed=1 $b | cut -d' ' -f1)"
  done
done
# Why: B's answer now names B, and A, running with I, takes no message 2
# that names B; the intruder can only send A what it composes itself.
out=$(gs $NS -D fixed=1 --position "A->I:{Na,A}pkI, I(A)->B:{Na,A}pkB, B->A:{Na,Nb,B}pkA" --all-moves)
check "NS fixed=1: after B's answer, the intruder's moves" "I->A:{Na,Na,I}pkA, I->A:{Na,Ni,I}pkA" \
  "$(field best "$out")"
out=$(gs $NS -D fixed=1 --position "A->I:{Na,A}pkI, I(A)->B:{Na,A}pkB, B->A:{Na,Nb,B}pkA, I->A:{Na,Nb,B}pkA" 2>&1)
check "NS fixed=1: forwarding B's answer to A is not a legal move" 1 \
  "$(printf '%s\n' "$out" | grep -c "illegal move 'I->A:{Na,Nb,B}pkA' at ply 4")"

# --- A variant broken on purpose: A does not check its nonce in message 2 --
out=$(gs $NS -D partner_i=0 -D weak=1 --pv)
check "NS weak=1 partner_i=0: the intruder wins in 3 messages" "win 3" \
  "$(field value "$out") $(field plies "$out")"
check "NS weak=1: the pv feeds A its own nonce as B's" \
  "A->B:{Na,A}pkB, I(B)->A:{Ni,Ni}pkA, A->B:{Ni}pkB" "$(field pv "$out")"
check "NS weak=1 partner_i=0: retro agrees" "win 3" "$(ns_value retro -D partner_i=0 -D weak=1)"
check "NS weak=1 fixed=1 sessions=2: the fix does not mend it (retro)" "win 3" \
  "$(ns_value retro -D partner_i=0 -D weak=1 -D fixed=1 -D sessions=2 -D messages=6)"

# --- Views: the intruder does not see inside other agents' encryptions ---
out=$(gs $NS --position "A->I:{Na,A}pkI, I(A)->B:{Na,A}pkB" --info-state)
check "NS info-state: B's received nonce is hidden" 1 \
  "$(printf '%s\n' "$out" | grep -c 'b_na=\[?\]')"
# The whole tree: every decision node is an information set of its own
# (126 nodes, 42 of them ends, 84 information sets), which is why the
# views cannot change the value.
out=$(gs $NS --perft 12)
check "NS whole tree: one information set per decision node" "126 42 84" \
  "$(field nodes "$out") $(field games "$out") $(field infosets "$out")"
unit "information states: $NS (keys and texts agree, undo restores)" "$BUILD/test_views" $NS
# One player without chance: the views cannot change the value, so the
# perfect-information solvers take the game (auto picks alphabeta).
out=$(gs $NS --stats 2>&1)
check "NS: --solver auto chooses alphabeta despite the views" 1 \
  "$(printf '%s\n' "$out" | grep -c '^stats: solver alphabeta')"
# With chance, a one-player game with views still needs cfr.
cat >"$ns_tmp/solo.game" <<'GAME'
game "Solo guess";
players P;
state secret: 0..2;
state guess: 0..2;
hidden secret;
start { next chance; }
chance move deal(s: 1..2) { secret = s; }
move say(g: 1..2) when guess == 0 { guess = g; }
end { if guess != 0 { if guess == secret { win P; } else { lose P; } } }
GAME
check "one player, chance and views: alphabeta refused (exit 2)" 2 \
  "$(gs "$ns_tmp/solo.game" --solver alphabeta >/dev/null 2>&1; echo $?)"
check "one player, chance and views: auto picks cfr" 1 \
  "$(gs "$ns_tmp/solo.game" --stats --iterations 10 2>&1 | grep -c '^stats: solver cfr')"

# --- Notation: '{{' is a literal '{'; commas inside braces stay in a move --
cat >"$ns_tmp/braces.game" <<'GAME'
game "Braces";
players A;
state n: 0..3;
move put(x: 1..2, y: 1..2) as "{{{x},{y}}" when n < 2 { n += 1; }
GAME
out=$(gs "$ns_tmp/braces.game" --perft 1 --position "{1,2}, {2,1}")
check "braces: '{{' prints '{', and '{1,2}, {2,1}' is two moves" "{1,2}, {2,1}" "$(field position "$out")"
out=$(gs "$ns_tmp/braces.game" --perft 1 --position "{2,2}")
check "braces: one move with a comma inside braces" "{2,2}" "$(field position "$out")"
out=$(gs "$ns_tmp/braces.game" --perft 1 --position "{1,1} {2,2}")
check "braces: moves split at blanks when no comma is outside braces" "{1,1}, {2,2}" "$(field position "$out")"
rm -rf "$ns_tmp"

# --stats names a one-player game as such (it said "two players").
check "needham-schroeder --stats: one player" \
  "stats: solver alphabeta (one player: alpha-beta with a transposition table)" \
  "$($GSOLVE games/needham-schroeder.game --stats 2>&1 >/dev/null | grep '^stats: solver')"
