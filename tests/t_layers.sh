# The include graph of src/ against its layers (docs/architecture.md): no
# folder includes a header of a folder above it; file sizes; no game named
# in the code of the command or the solvers; no header comment naming a
# file that is not there (tests/check_shape.py).
check "src/ includes respect the layers" "layers: 0 violations" \
  "$(python3 tests/check_layers.py 2>&1 | tail -n 1)"
# The rooms side by side do not see each other: an exact solver that
# includes CFR's header, or the frame that includes a solver, is refused.
layers_tmp=$(mktemp -d)
mkdir -p "$layers_tmp/solve" "$layers_tmp/search"
printf '#include "cfr/cfr.h"\n' > "$layers_tmp/solve/peer.c"
printf '#include "retro/retro.h"\n' > "$layers_tmp/search/up.c"
layers_out=$(python3 tests/check_layers.py "$layers_tmp" 2>&1)
rm -rf "$layers_tmp"
check "a room including a peer's header is refused" \
  "src/solve/peer.c:1: the solve room includes \"cfr/cfr.h\" from cfr, which it may not reach" \
  "$(printf '%s\n' "$layers_out" | grep peer.c)"
check "the frame including a solver's header is refused" "layers: 2 violations" \
  "$(printf '%s\n' "$layers_out" | tail -n 1)"
# Split by job: no file of src/ above 1000 lines.
check "src/: no file above 1000 lines" "sizes: 0 files above 1000 lines" \
  "$(python3 tests/check_shape.py sizes 2>&1 | tail -n 1)"
# The command and the solvers name no game in their code: what an engine
# offers comes through the registry and the game interface.
check "src/cli and the solvers' rooms name no game in their code" "games: 0 names" \
  "$(python3 tests/check_shape.py games 2>&1 | tail -n 1)"
# Each file's header comment opens with its own name and names only files
# that exist (a file renamed or moved to another room leaves none behind).
check "src/: every header names its own file and files that exist" "headers: 0 stale" \
  "$(python3 tests/check_shape.py headers 2>&1 | tail -n 1)"
headers_tmp=$(mktemp -d)
mkdir -p "$headers_tmp/engines" "$headers_tmp/solve"
printf '/*\n** native.c -- the registry of native engines.\n*/\n' > "$headers_tmp/engines/registry.c"
printf '/*\n** walk.c -- the walk (see search/alphabeta.c and docs/cli.md).\n*/\n' > "$headers_tmp/solve/walk.c"
headers_out=$(python3 tests/check_shape.py headers "$headers_tmp" 2>&1)
rm -rf "$headers_tmp"
check "a header under another file's name is refused" \
  "src/engines/registry.c:1: the header comment does not open with \"registry.c -- \"" \
  "$(printf '%s\n' "$headers_out" | grep 'does not open')"
check "a header naming a file moved to another room is refused" \
  "src/solve/walk.c: the header comment names search/alphabeta.c, which does not exist" \
  "$(printf '%s\n' "$headers_out" | grep walk.c)"
check "stale headers: the old name, the moved file, the old name's file" "headers: 3 stale" \
  "$(printf '%s\n' "$headers_out" | tail -n 1)"
# What a solver is comes from its registry row (src/driver/solvers.c):
# the command names none in its code, outside the options' help text.
check "src/cli names no solver outside the options' help text" "solvers: 0 names" \
  "$(python3 tests/check_shape.py solvers 2>&1 | tail -n 1)"
# A report that asks for a solver by name, or a message telling the user
# to give one, is refused (the rows' names read from the table itself).
shape_tmp=$(mktemp -d)
mkdir -p "$shape_tmp/cli" "$shape_tmp/driver"
cp src/driver/solvers.c "$shape_tmp/driver/"
printf 'int f(const SolveJob *j) {\n  return strcmp(j->solver->name, "retro") == 0;\n}\n' \
  > "$shape_tmp/cli/report.c"
printf 'const char *m = "use --solver cfr";\n/* "minimax" in a comment */\n' \
  > "$shape_tmp/cli/modes.c"
shape_out=$(python3 tests/check_shape.py solvers "$shape_tmp" 2>&1)
rm -rf "$shape_tmp"
check "a report comparing a solver's name is refused" \
  "src/cli/report.c:2: names the solver 'retro'" \
  "$(printf '%s\n' "$shape_out" | grep report.c)"
check "a message naming --solver NAME is refused, a comment is not" \
  "src/cli/modes.c:1: names the solver 'cfr'
solvers: 2 names" "$(printf '%s\n' "$shape_out" | grep -v report.c)"
