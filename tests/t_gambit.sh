# tests/t_gambit.sh -- Gambit's file formats (docs/gambit.md): --export efg
# and --export nfg, `gsolve FILE.efg` (engines/efg.c), the round trips of
# Kuhn and Leduc poker (the same file again, the same values), and
# Gambit's own examples (tests/data/gambit) against values worked out by
# hand.  Sourced by tests/run.sh.

near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; print (a != "" && d <= t) ? "yes" : "no (" a " vs " b ")" }'; }
within() {
  printf '%s\n' "$2" | sed -n 's/.*"score_interval":\[\([^],]*\),\([^]]*\)\].*/\1 \2/p' |
    awk -v v="$1" '{ print ($1 - 1e-12 <= v && v <= $2 + 1e-12) ? "yes" : "no (" v " not in [" $1 ", " $2 "])" }'
}
gb_tmp=$(mktemp -d)

# ---- Kuhn poker: export, read back, the same game --------------------------
out=$(gs games/kuhn.game --export efg "$gb_tmp/kuhn.efg")
check "kuhn: --export efg: 58 nodes, 12 information sets" "58 12" \
  "$(field nodes "$out") $(field infosets "$out")"
check "kuhn.efg: the header" 'EFG 2 R "Kuhn poker" { "P1" "P2" }' "$(head -n 1 "$gb_tmp/kuhn.efg")"
check "kuhn.efg: the deal's exact probabilities" 'c "" 1 "" { "deal J" 1/3 "deal Q" 1/3 "deal K" 1/3 } 0' \
  "$(grep -m 1 '^c ' "$gb_tmp/kuhn.efg")"
check "kuhn.efg: 30 ends, 12 information sets' first lines" "30 12" \
  "$(grep -c '^t ' "$gb_tmp/kuhn.efg") $(grep '^p ' "$gb_tmp/kuhn.efg" | awk '{ print $3, $4 }' | sort -u | wc -l)"
a=$(gs games/kuhn.game --exploitability 1e-4 | grep -E '^(score|exploitability|iterations|infosets|histories):')
b=$(gs "$gb_tmp/kuhn.efg" --exploitability 1e-4 | grep -E '^(score|exploitability|iterations|infosets|histories):')
check "kuhn.efg: CFR gives the .game's report (value -1/18 +- 0.000073)" "$a" "$b"
check "kuhn.efg: the engine is efg" efg "$(field engine "$(gs "$gb_tmp/kuhn.efg" --perft 2)")"
check "kuhn.efg: perft 6 as the .game's (30 games)" \
  "$(gs games/kuhn.game --perft 6 | grep -E '^(perft|games|infosets)')" \
  "$(gs "$gb_tmp/kuhn.efg" --perft 6 | grep -E '^(perft|games|infosets)')"
gs "$gb_tmp/kuhn.efg" --export efg "$gb_tmp/kuhn2.efg" >/dev/null
check "kuhn.efg: exported again, the same file" "" "$(cmp "$gb_tmp/kuhn.efg" "$gb_tmp/kuhn2.efg" 2>&1)"

# ---- Leduc hold'em: the same ---------------------------------------------------
gs games/leduc.game --export efg "$gb_tmp/leduc.efg" >/dev/null
a=$(gs games/leduc.game --exploitability 0.01 | grep -E '^(score|exploitability|iterations|infosets|histories):')
b=$(gs "$gb_tmp/leduc.efg" --exploitability 0.01 | grep -E '^(score|exploitability|iterations|infosets|histories):')
check "leduc.efg: CFR gives the .game's report (936 information sets)" "$a" "$b"
gs "$gb_tmp/leduc.efg" --export efg "$gb_tmp/leduc2.efg" >/dev/null
check "leduc.efg: exported again, the same file" "" "$(cmp "$gb_tmp/leduc.efg" "$gb_tmp/leduc2.efg" 2>&1)"

# ---- perfect information: each node its own set, alphabeta's values ----------
# Transpositions share a position but not a node: Hexapawn and Nim 1,2,3
# read back as games of perfect information, with the same values.
gs games/hexapawn.game --export efg "$gb_tmp/hexapawn.efg" >/dev/null
check "hexapawn.efg: alphabeta's answer, as on the .game" \
  "$(gs games/hexapawn.game | grep -E '^(value|score|plies|best):')" \
  "$(gs "$gb_tmp/hexapawn.efg" | grep -E '^(value|score|plies|best):')"
gs games/nim.game -D heaps=1,2,3 --export efg "$gb_tmp/nim.efg" >/dev/null
check "nim 1,2,3 .efg: every move loses, as on the .game" \
  "$(gs games/nim.game -D heaps=1,2,3 --all-moves | awk 'NR > 1 && /^take/ { print $1, $2, $3, $4, $5 }' | tail -n 6)" \
  "$(gs "$gb_tmp/nim.efg" --all-moves | awk '/^take/ { print $1, $2, $3, $4, $5 }')"

# ---- the strategic form of a one-shot game ---------------------------------
gs games/rps.game --export nfg "$gb_tmp/rps.nfg" >/dev/null
check "rps.nfg: players and strategies" \
  'NFG 1 R "Rock-paper-scissors" { "A" "B" }|{ "rock" "paper" "scissors" }|{ "rock" "paper" "scissors" }' \
  "$(sed -n '1p;3p;4p' "$gb_tmp/rps.nfg" | paste -sd '|')"
# Profiles with A's strategy varying fastest: (rock, rock), (paper, rock), ...
check "rps.nfg: the nine payoff pairs" \
  '0, 0|1, -1|-1, 1|-1, 1|0, 0|1, -1|1, -1|-1, 1|0, 0' \
  "$(grep '^{ "" ' "$gb_tmp/rps.nfg" | sed 's/^{ "" \(.*\) }$/\1/' | paste -sd '|')"
check "rps.nfg: each profile its outcome" "1 2 3 4 5 6 7 8 9" "$(tail -n 1 "$gb_tmp/rps.nfg")"
gs games/matrix.game -D rows=2 -D cols=2 -D payoff=-2,3,3,-4 --export "$gb_tmp/oddeven.nfg" >/dev/null
check "odd-or-even.nfg (--export FILE.nfg): payoffs" '-2, 2|3, -3|3, -3|-4, 4' \
  "$(grep '^{ "" ' "$gb_tmp/oddeven.nfg" | sed 's/^{ "" \(.*\) }$/\1/' | paste -sd '|')"
check "kuhn: --export nfg refused (not one-shot), exit 2" 2 \
  "$(gs games/kuhn.game --export nfg "$gb_tmp/k.nfg" >/dev/null 2>&1; echo $?)"
check "--export: the tree within --memory (Tic-tac-toe in 10 MiB: exit 5)" 5 \
  "$(gs games/tictactoe.game --export efg "$gb_tmp/ttt.efg" --memory 10 >/dev/null 2>&1; echo $?)"
check "--export without a format: exit 2" 2 \
  "$(gs games/rps.game --export "$gb_tmp/x.txt" >/dev/null 2>&1; echo $?)"

# ---- Gambit's examples (tests/data/gambit/README.md) --------------------------
if have_data tests/data/gambit; then
  d=tests/data/gambit
  out=$(gs $d/2smp.efg --exploitability 1e-6 --json)
  check "2smp.efg (two-stage matching pennies): value 0 by CFR" yes "$(within 0 "$out")"
  out=$(gs $d/2smp.efg --solver matrix)
  check "2smp.efg: value 0 by the matrix solver, H and T 1/2" "0 ± 0|H 0.500000, T 0.500000" \
    "$(field score "$out")|$(field strategy "$out")"
  out=$(gs $d/e07.efg --exploitability 1e-6 --json)
  check "e07.efg (Harsanyi 1968, Table 1): value 44/5 by CFR" yes "$(within 8.8 "$out")"
  check "e07.efg: the matrix solver refuses it (types by chance), exit 3" 3 \
    "$(gs $d/e07.efg --solver matrix >/dev/null 2>&1; echo $?)"
  out=$(gs $d/e10.efg)
  check "e10.efg (Nim, 5 stones): a win for Player 1 (alphabeta: perfect information)" "win alphabeta Take 2" \
    "$(field value "$out") $(field solver "$out") $(field best "$out")"
  out=$(gs $d/nim7.efg)
  check "nim7.efg (Nim, 7 stones): Player 2 moves first and wins" "Player 2 win take 1" \
    "$(field 'to move' "$out") $(field value "$out") $(field best "$out")"
  out=$(gs $d/nim7.efg --solver cfr --exploitability 1e-6 --json)
  check "nim7.efg: value -1 for Player 1 by CFR" yes "$(within -1 "$out")"
  err=$(gs $d/myerson.efg 2>&1 >/dev/null)
  check "myerson.efg (no perfect recall): refused, exit 3" "3 yes" \
    "$(gs $d/myerson.efg >/dev/null 2>&1; echo $?) $(printf '%s' "$err" | grep -q 'perfect recall' && echo yes)"
fi

# ---- the reader's errors and notes -----------------------------------------------
printf 'EFG 2 R "Coin" { "A" "B" }\nc "" 1 "" { "H" 1/2 "T" 1/3 } 0\nt "" 1 "" { 1 -1 }\nt "" 2 "" { -1 1 }\n' >"$gb_tmp/coin.efg"
check "an .efg whose chance probabilities do not add up to 1: the place, exit 3" \
  "coin.efg:2:11: error: the chance probabilities add up to 5/6, not 1|3" \
  "$(gs "$gb_tmp/coin.efg" 2>&1 | head -n 1 | sed "s|^$gb_tmp/||")|$(gs "$gb_tmp/coin.efg" >/dev/null 2>&1; echo $?)"
printf 'EFG 2 R "Half" { "A" "B" }\np "" 1 1 "" { "x" "y" } 0\nt "" 1 "" { 1/2, -1/2 }\nt "" 2 "" { -1, 1 }\n' >"$gb_tmp/half.efg"
out=$(gs "$gb_tmp/half.efg" 2>&1)
# x gives 1/2 and -1/2, so 1 and -1 scaled: a win by a margin of 2.
check "an .efg with fractional payoffs: scaled by 2, with a note" "yes win 2" \
  "$(printf '%s' "$out" | grep -q 'multiplied by 2' && echo yes) $(field value "$out") $(field score "$out")"
printf 'EFG 2 R "Short" { "A" }\np "" 1 1 "" { "x" "y" } 0\nt "" 1 "" { 1 }\n' >"$gb_tmp/short.efg"
check "an .efg that ends before its tree: exit 3" "3" \
  "$(gs "$gb_tmp/short.efg" >/dev/null 2>&1; echo $?)"
check "an .efg takes no -D, exit 2" "2" "$(gs tests/data/gambit/e10.efg -D n=1 >/dev/null 2>&1; echo $?)"
check "an .efg has no rules to dump, exit 2" "2" "$(gs tests/data/gambit/e10.efg --dump-bytecode >/dev/null 2>&1; echo $?)"
rm -rf "$gb_tmp"
