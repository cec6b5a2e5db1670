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
