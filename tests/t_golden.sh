# tests/t_golden.sh -- the JSON of every bundled game's --solve, --perft and
# --count, byte for byte against tests/golden/expected.txt (timing masked):
# a refactoring must not change a report.
. tests/golden/run_case.sh
golden_actual=$(grep -v '^#' tests/golden/cases.txt | grep -v '^$' | while IFS= read -r args; do
  run_case "$args"
done)
golden_diff=$(printf '%s\n' "$golden_actual" | diff tests/golden/expected.txt - | head -n 20)
check "golden JSON reports match tests/golden/expected.txt" "" "$golden_diff"
# Every bundled game has its cases (a new game adds its lines to cases.txt).
golden_missing=""
for golden_game in games/*.game; do
  grep -q "^$golden_game " tests/golden/cases.txt || golden_missing="$golden_missing $golden_game"
done
check "golden cases cover every bundled game" "" "$golden_missing"
