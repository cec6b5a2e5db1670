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
# The man page's option list is the options table's: each option heads
# exactly one entry, with the table's argument, and no entry heads an
# option the table lacks (tests/gen_man_options.py; `make man` makes them
# agree).  Doctored copies show each disagreement named, and the way back.
if command -v python3 >/dev/null 2>&1; then
  man_check() { python3 tests/gen_man_options.py "$GSOLVE" "$1" 2>&1; }
  check "man page: its options are the table's, with the table's arguments (else run make man)" \
    "" "$(man_check docs/gsolve.1)"
  # Without --move-time's entry; with an entry for an option the table
  # lacks; --tt-size's argument renamed; --json documented twice.
  awk '/^\.BI \\-\\-move\\-time/ { skip = 1; drop = 1 } skip && /^\.(TP|SH)/ && !drop { skip = 0 }
       { drop = 0 } !skip' docs/gsolve.1 | sed '$!N;/^\.TP\n\.TP$/!P;D' |
    sed 's/^\.BI \\-\\-tt\\-size " MB"$/.BI \\-\\-tt\\-size " SIZE"/' |
    awk '{ print } /^\.SH PLAY/ { print ".TP"; print ".B \\-\\-frobnicate"; print "Gone."; print ".TP"; print ".B \\-\\-json"; print "Again." }' \
    >"$docs_tmp/gsolve.1"
  man_out=$(man_check "$docs_tmp/gsolve.1")
  check "man page check: a missing option is named, with the way to regenerate" yes \
    "$(printf '%s\n' "$man_out" | grep -qxF "docs/gsolve.1 has no entry for --move-time, which \`gsolve --help-options\` lists: run \`make man\` to add one from the options table (then reword it if need be)" && echo yes || echo no)"
  check "man page check: an option the table lacks is named" yes \
    "$(printf '%s\n' "$man_out" | grep -qxF "docs/gsolve.1 has an entry for --frobnicate, which the options table no longer has: run \`make man\` to drop it" && echo yes || echo no)"
  check "man page check: an argument other than the table's is named" yes \
    "$(printf '%s\n' "$man_out" | grep -qxF "docs/gsolve.1 gives --tt-size the argument 'SIZE', the options table 'MB': run \`make man\` to take the table's" && echo yes || echo no)"
  check "man page check: an option heading two entries is named" yes \
    "$(printf '%s\n' "$man_out" | grep -qxF "docs/gsolve.1 heads 2 entries with --json: keep one" && echo yes || echo no)"
  check "man page check: four disagreements, exit 1" "4 1" \
    "$(printf '%s\n' "$man_out" | wc -l | tr -d ' ') $(man_check "$docs_tmp/gsolve.1" >/dev/null; echo $?)"
  # --update (make man) puts back, drops and renames; the duplicate is
  # left to a person, and said so.
  python3 tests/gen_man_options.py --update "$GSOLVE" "$docs_tmp/gsolve.1" >"$docs_tmp/update"
  check "man page --update: the entry added, the stale one dropped, the argument taken" "3" \
    "$(grep -cE 'added --move-time|dropped --frobnicate|argument for --tt-size' "$docs_tmp/update")"
  check "man page check after --update: only the duplicate is left" \
    "docs/gsolve.1 heads 2 entries with --json: keep one" "$(man_check "$docs_tmp/gsolve.1")"
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
