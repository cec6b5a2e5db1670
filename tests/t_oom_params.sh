# tests/t_oom_params.sh -- out of memory while binding -D parameters is
# reported as such and alone (issue 25): a parameter whose declaration ran
# out of memory was then reported as missing ("-D width=3: the game has no
# parameter 'width'") before the out-of-memory message.  Runs
# $BUILD/gsolve-failalloc with allocation n failing, for every n the
# compilation makes; each run must succeed or print only out-of-memory
# lines and exit 5.  Sourced by tests/run.sh.

om_bin=$BUILD/gsolve-failalloc
om_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-oom.XXXXXX")
if [ -x "$om_bin" ]; then
  set -- games/connect4.game -D width=3 -D height=3 -D k=3 --dump-bytecode
  om_total=$(GSOLVE_COUNT_ALLOC=1 "$om_bin" "$@" 2>&1 >/dev/null | sed -n 's/^allocations: //p')
  om_bad=""
  om_n=1
  while [ "$om_n" -le "${om_total:-0}" ]; do
    GSOLVE_FAIL_ALLOC=$om_n "$om_bin" "$@" >/dev/null 2>"$om_tmp/err"
    om_st=$?
    if [ "$om_st" -eq 5 ]; then
      grep -v -q -E '^gsolve: error: out of memory' "$om_tmp/err" && om_bad="$om_bad n=$om_n:$(head -n 1 "$om_tmp/err")"
    elif [ "$om_st" -ne 0 ]; then
      om_bad="$om_bad n=$om_n:exit$om_st"
    fi
    om_n=$((om_n + 1))
  done
  check "-D binding out of memory: only 'out of memory', exit 5 (${om_total:-?} allocations)" "" "$om_bad"
  [ "${om_total:-0}" -gt 10 ] || check "-D binding: the run counts its allocations" yes no
else
  check "failalloc binary $om_bin exists" yes no
fi
rm -rf "$om_tmp"
