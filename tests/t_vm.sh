# The VM against itself (tests/unit/test_vm.c): incremental hash equals
# the hash from scratch after every apply and undo, undo restores the
# state, generation is deterministic, notations are distinct, canonical
# forms are stable -- on every bundled game, along random lines.
vm_check() {
  unit "VM consistency: $*" "$BUILD/test_vm" "$@"
}
vm_check games/nim.game
vm_check games/nim.game -D heaps=3,3,4,7,2
vm_check games/matchsticks.game
vm_check games/tictactoe.game
vm_check games/tictactoe.game -D m=4 -D n=3 -D k=3
vm_check games/hexapawn.game
vm_check games/hexapawn.game -D width=4 -D height=5
vm_check games/connect4.game
vm_check games/connect4.game -D width=5 -D height=4
vm_check games/dice.game
vm_check games/dice.game -D sides=3 -D rolls=4
vm_check games/pot.game
vm_check games/token.game -D repeat=forbidden
vm_check games/token.game -D repeat=drawn
# Games that a move ends (outcome slots), that pass (nomoves pass), that
# use roller and rays: docs/examples and tests/files/lang_*.
vm_check docs/examples/othello.game
vm_check docs/examples/morris3.game
vm_check docs/examples/morris3.game -D repeat=drawn
vm_check docs/examples/chomp.game -D width=5 -D height=4
vm_check docs/examples/domineering.game
vm_check tests/files/lang_ttt_move.game
vm_check tests/files/lang_coins_move.game
vm_check tests/files/lang_claims.game
vm_check tests/files/lang_pig_roller.game -D goal=20
# Games whose moves can be illegal (chess: check; Go: suicide and
# superko), where the effects recorded by the legality test are replayed,
# and whose boards are sparse (chess's canonical forms compare pieces).
vm_check games/chess-endgame.game -D size=5
vm_check games/chess-endgame.game -D size=6 -D material=KPK
vm_check games/chess-endgame.game -D size=5 -D material=KQKR
vm_check games/chess-endgame.game -D size=6 -D material=KBNK
vm_check games/go.game -D width=3 -D height=3
vm_check games/go.game -D width=2 -D height=3 -D ko=positional
vm_check docs/examples/sim.game
# Keys that list the pieces (`at most N pieces`): up to 8 pieces through
# the sparse canonical form, more through the trie's.
vm_check tests/files/lang_at_most.game -D stones=6 -D men=6
vm_check tests/files/lang_at_most.game -D stones=12 -D men=12
vm_check tests/files/lang_at_most.game -D stones=7 -D men=7 -D top=1000000000
# Boards of more than 64 cells: sparse canonical forms compare sorted
# piece lists instead of bit masks.
vm_check games/tictactoe.game -D m=9 -D n=9 -D k=5
vm_check games/tictactoe.game -D m=10 -D n=7 -D k=4
