# tests/t_docs.sh -- every example of docs/language.md is run and its output
# compared (tests/check_docs.py: game blocks must compile, console blocks
# must print exactly what the manual shows).  Needs python3 (.ci/run
# installs it).  Sourced by tests/run.sh.
if command -v python3 >/dev/null 2>&1; then
  docs_out=$(python3 tests/check_docs.py docs/language.md "$GSOLVE" 2>&1)
  docs_st=$?
  check "docs/language.md: every example gives the output shown" 0 "$docs_st"
  [ "$docs_st" -eq 0 ] || printf '%s\n' "$docs_out" | head -n 40
else
  check "python3 is installed (for tests/check_docs.py)" yes no
fi
# docs/architecture.md: where to add a solver, an engine, a built-in, an
# instruction and an option, and every file it names exists (NAME stands
# for the new one's name).
arch_where=$(grep -cE '^- \*\*(A solver|A native engine|A built-in function|An instruction|An option)\*\*' docs/architecture.md)
check "docs/architecture.md: where to add a solver, an engine, a built-in, an instruction, an option" 5 "$arch_where"
arch_missing=""
for arch_path in $(grep -oE '`(src|tests|docs)/[A-Za-z0-9_./*-]+`' docs/architecture.md | tr -d '`' | sort -u); do
  case "$arch_path" in *NAME*) continue ;; esac
  # (unquoted: compile*.c names the files the glob finds)
  ls -d $arch_path >/dev/null 2>&1 || arch_missing="$arch_missing $arch_path"
done
check "docs/architecture.md: every file it names exists" "" "$arch_missing"
