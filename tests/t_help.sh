# tests/t_help.sh -- the help fits one screen, and every option it names is documented in the
# man page and docs/cli.md; make install puts the program and the man page
# under PREFIX.

docs_tmp=$(mktemp -d)
gs --help >"$docs_tmp/help"
check "help: one screen (at most 24 lines of at most 80 columns)" "ok" \
  "$(awk '{ if (length($0) > 80) bad = 1 } END { print (NR <= 24 && !bad) ? "ok" : NR " lines" }' "$docs_tmp/help")"
for opt in $(grep -oE -- '--[a-z][a-z-]+' "$docs_tmp/help" | sort -u); do
  man_opt=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
  grep -q -- "$man_opt" docs/gsolve.1 || check "man page documents $opt" yes no
  grep -q -- "\`$opt" docs/cli.md || check "docs/cli.md documents $opt" yes no
done
# The man page has an entry for every option of the options table (and
# none for an option it no longer has); `make man` adds what is missing
# (tests/gen_man_options.py).  A copy without --move-time's entry shows
# the check at work and the way back.
if command -v python3 >/dev/null 2>&1; then
  man_out=$(python3 tests/gen_man_options.py "$GSOLVE" docs/gsolve.1 2>&1)
  check "man page: an entry for every option of --help-options (else run make man)" "" "$man_out"
  awk '/^\.BI \\-\\-move\\-time/ { skip = 1; drop = 1 } skip && /^\.(TP|SH)/ && !drop { skip = 0 }
       { drop = 0 } !skip' docs/gsolve.1 | sed '$!N;/^\.TP\n\.TP$/!P;D' >"$docs_tmp/gsolve.1"
  man_out=$(python3 tests/gen_man_options.py "$GSOLVE" "$docs_tmp/gsolve.1" 2>&1)
  check "man page check: a missing option is named, with the way to regenerate" \
    "docs/gsolve.1 has no entry for --move-time, which \`gsolve --help-options\` lists: run \`make man\` to add one from the options table (then reword it if need be)" \
    "$man_out"
  python3 tests/gen_man_options.py --update "$GSOLVE" "$docs_tmp/gsolve.1" >/dev/null
  check "man page check: --update (make man) adds the entry back" "" \
    "$(python3 tests/gen_man_options.py "$GSOLVE" "$docs_tmp/gsolve.1" 2>&1)"
else
  check "python3 is installed (for tests/gen_man_options.py)" yes no
fi
check "help: names the play command" "1" "$(grep -c 'gsolve play FILE' "$docs_tmp/help")"
if command -v groff >/dev/null 2>&1; then
  groff -man -Tutf8 -ww docs/gsolve.1 >/dev/null 2>"$docs_tmp/err"
  check "man page: groff has no warnings" "" "$(cat "$docs_tmp/err")"
fi
# make install (without rebuilding: -o gsolve), when the program is built.
if [ -x ./gsolve ]; then
  make -s -o gsolve install PREFIX="$docs_tmp/prefix" >/dev/null 2>&1
  check "make install PREFIX: program and man page" "yes yes" \
    "$([ -x "$docs_tmp/prefix/bin/gsolve" ] && echo yes || echo no) $(cmp -s docs/gsolve.1 "$docs_tmp/prefix/share/man/man1/gsolve.1" && echo yes || echo no)"
fi
rm -rf "$docs_tmp"
