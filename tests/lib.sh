# tests/lib.sh -- helpers for the shell tests; sourced by tests/run.sh.
#
#   check DESC EXPECTED ACTUAL      pass when the two strings are equal
#   field NAME OUTPUT               the value of "NAME: value" in text output
#   gs ARGS...                      runs gsolve; stdout is the result

pass=0
fail=0
failed_names=""

check() {
  if [ "$2" = "$3" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    failed_names="$failed_names
  $1"
    printf 'FAIL: %s\n  expected: %s\n  actual:   %s\n' "$1" "$2" "$3"
  fi
}

field() {
  printf '%s\n' "$2" | sed -n "s/^$1: //p" | head -n 1
}

gs() {
  $GSOLVE "$@"
}

# unit DESC BINARY ARGS...: runs a C unit-test binary (tests/unit), whose
# last line is "N passed, M failed"; one check, passed when M is 0.  A
# missing binary is a failure, never a skip.
unit() {
  unit_desc=$1; shift
  if [ ! -x "$1" ]; then
    check "$unit_desc: unit test binary $1 exists (make test builds it)" yes no
    return
  fi
  unit_out=$("$@" 2>&1 | tail -n 1)
  check "$unit_desc" "0 failed" "$(printf '%s\n' "$unit_out" | sed 's/.*, //')"
}

# have_data DIR: 0 when the test data folder DIR (tests/data, in the
# repository) is there; else a failure, never a silent skip, and 1.
have_data() {
  if [ -d "$1" ]; then return 0; fi
  check "test data $1 is in the checkout" yes no
  return 1
}

# The terminal tests of gsolve play run it in tmux: set tmux_sock (a
# socket path) and tmux_session (the session's name), then tm runs tmux
# on that socket, screen prints the session's pane (history included) and
# wait_for TEXT [COUNT] waits until TEXT is on it COUNT times (15 s at
# most; a loaded machine is slow to draw).
tm() { tmux -S "$tmux_sock" -f /dev/null "$@"; }
screen() { tm capture-pane -p -J -S - -t "$tmux_session" "$@" 2>/dev/null; }
wait_for() {
  n=0
  while [ $n -lt 150 ]; do
    [ "$(screen | grep -cF -- "$1")" -ge "${2:-1}" ] && return 0
    sleep 0.1
    n=$((n + 1))
  done
  echo "  (timed out waiting for '$1')"
  return 1
}
