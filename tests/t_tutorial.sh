# docs/tutorial.md: every "$ command" in its code blocks is run again and
# its output compared with the text (times aside), and the final game of
# the tutorial (docs/examples/kayles.game) has the value the text states.

tut_tmp=$(mktemp -d)
tut_bin="$(cd "$(dirname "$GSOLVE")" && pwd)/$(basename "$GSOLVE")"
ln -s "$(pwd)/docs" "$tut_tmp/docs"
# The commands are written as typed in the checkout after make: ./gsolve.
ln -s "$tut_bin" "$tut_tmp/gsolve"
# The blocks as a script of "cmd" / "out" records: one command per "$ "
# line, then its expected output lines.
awk '/^```/ { inb = !inb; if (!inb && cmd != "") { print "END" }; cmd = ""; next }
     inb && /^\$ / { if (cmd != "") print "END"; cmd = substr($0, 3); print "CMD " cmd; next }
     inb && cmd != "" { print "OUT " $0 }' docs/tutorial.md >"$tut_tmp/script"
tut_norm() { sed -E 's/[0-9]+\.[0-9]{3} s\)/T s)/g; s/^seconds: .*/seconds: T/'; }
tut_n=0
while IFS= read -r rec; do
  case $rec in
    "CMD "*) tut_cmd=${rec#CMD }; : >"$tut_tmp/want" ;;
    "OUT "*) printf '%s\n' "${rec#OUT }" >>"$tut_tmp/want" ;;
    END)
      tut_n=$((tut_n + 1))
      (cd "$tut_tmp" && sh -c "$tut_cmd" 2>&1) |
        tut_norm >"$tut_tmp/got"
      check "tutorial: \$ $tut_cmd" "$(tut_norm <"$tut_tmp/want")" "$(cat "$tut_tmp/got")" ;;
  esac
done <"$tut_tmp/script"
[ "$tut_n" -ge 12 ] || check "tutorial: its commands were found" "at least 12" "$tut_n"

# The value the tutorial ends with: First wins Kayles with 7 pins in 5
# plies, by b1-c1 or e1-f1 (rows of 1 and 4 pins: Grundy 1 XOR 1 = 0).
out=$(gs docs/examples/kayles.game)
check "tutorial: Kayles 7 is a first-player win in 5" "win 5 b1-c1, e1-f1" \
  "$(field value "$out") $(field plies "$out") $(field best "$out")"
# Grundy values of Kayles rows (0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6 for 0..11
# pins): rows of 1 and 4 pins, or 2 and 7, XOR to 0: lost for the mover.
out=$(gs docs/examples/kayles.game -D n=7 --position "b1-c1")
check "tutorial: rows of 1 and 4 pins are lost for the mover" "loss" "$(field value "$out")"
out=$(gs docs/examples/kayles.game -D n=10 --position "c1")
check "tutorial: rows of 2 and 7 pins are lost for the mover" "loss" "$(field value "$out")"
rm -rf "$tut_tmp"
