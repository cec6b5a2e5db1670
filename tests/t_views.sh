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
