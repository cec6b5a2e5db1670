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
