# The include graph of src/ against its layers (docs/architecture.md): no
# folder includes a header of a folder above it; file sizes; no game named
# in the code of the command or the solvers (tests/check_shape.py).
check "src/ includes respect the layers" "layers: 0 violations" \
  "$(python3 tests/check_layers.py 2>&1 | tail -n 1)"
# Split by job: no file of src/ above 1000 lines.
check "src/: no file above 1000 lines" "sizes: 0 files above 1000 lines" \
  "$(python3 tests/check_shape.py sizes 2>&1 | tail -n 1)"
# The command and the solvers name no game in their code: what an engine
# offers comes through the registry and the game interface.
check "src/cli and src/search name no game in their code" "games: 0 names" \
  "$(python3 tests/check_shape.py games 2>&1 | tail -n 1)"
