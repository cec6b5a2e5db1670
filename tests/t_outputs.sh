# tests/t_outputs.sh -- every file gsolve writes goes through one safe
# writer (src/util/file.c, issue 39 "Data loss: --tree-dot OUT"): each
# output flag meets the same attacks.  --tree-dot overwrote the game file
# itself, followed a symlink planted at OUT (both the .dot and the .svg),
# overwrote a database given as OUT and, on a full disk, left a truncated
# file under the real name with the old content lost.  Now: the game file,
# a symlink, a file of another kind, a fifo and a folder are refused
# (exit 2, nothing touched); a full disk (ulimit -f here; a tiny tmpfs
# too when this runs as root and may mount) fails with exit 6, keeps the
# old file and leaves no temporary one; a file of the same kind is
# replaced.  Sourced by tests/run.sh.

ou_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsolve-outputs.XXXXXX")
ou_dot_ok=1
command -v dot >/dev/null 2>&1 || {
  echo "  (Graphviz's dot is missing: the .svg cases are skipped; make test installs it)"
  ou_dot_ok=
}

# ou_run GAME OUT NAME: runs gsolve writing OUT through flag NAME, on the
# rules in GAME; its status in $ou_st, stderr in $ou_tmp/err.
ou_run() {
  case $3 in
    dot|svg) set -- "$1" --tree-dot "$2" ;;
    db) set -- "$1" --solver retro --db "$2" ;;
    strategy) set -- "$1" --strategy "$2" ;;
    book) set -- "$1" -D width=4 -D height=4 --make-book "$2" --book-depth 4 ;;
  esac
  timeout 60 $GSOLVE "$@" >"$ou_tmp/out" 2>"$ou_tmp/err" </dev/null
  ou_st=$?
}

# ou_left DIR: the files in DIR whose name has .tmp- (a temporary file left).
ou_left() { ls -a "$1" | grep -c '\.tmp-'; }

for ou_kind in dot svg db strategy book; do
  case $ou_kind in
    dot) ou_game=games/hexapawn.game ou_ext=dot ;;
    svg) [ -n "$ou_dot_ok" ] || continue; ou_game=games/hexapawn.game ou_ext=svg ;;
    db) ou_game=games/tictactoe.game ou_ext=db ;;
    strategy) ou_game=games/kuhn.game ou_ext=strat ;;
    book) ou_game=games/connect4.game ou_ext=book ;;
  esac
  ou_d=$ou_tmp/$ou_kind
  mkdir -p "$ou_d"
  cp "$ou_game" "$ou_d/g.game"
  echo precious >"$ou_d/victim"

  # 1. The game file itself as OUT.
  ou_run "$ou_d/g.game" "$ou_d/g.game" $ou_kind
  check "$ou_kind: the game file as OUT: exit" 2 $ou_st
  check "$ou_kind: the game file as OUT: message" \
    "gsolve: error: '$ou_d/g.game' is a file this run reads; not replaced (choose another name)" \
    "$(cat "$ou_tmp/err")"
  check "$ou_kind: the game file as OUT: intact" same "$(cmp -s "$ou_game" "$ou_d/g.game" && echo same)"
  # The same file under another name (a hard link) is refused too.
  ln "$ou_d/g.game" "$ou_d/hard.$ou_ext"
  ou_run "$ou_d/g.game" "$ou_d/hard.$ou_ext" $ou_kind
  check "$ou_kind: a hard link to the game as OUT: refused" 2 $ou_st
  check "$ou_kind: a hard link to the game: intact" same "$(cmp -s "$ou_game" "$ou_d/g.game" && echo same)"
  rm -f "$ou_d/hard.$ou_ext"

  # 2. A symlink at OUT (to an unrelated file): refused, not followed.
  ln -s "$ou_d/victim" "$ou_d/link.$ou_ext"
  ou_run "$ou_game" "$ou_d/link.$ou_ext" $ou_kind
  check "$ou_kind: symlink at OUT: exit" 2 $ou_st
  check "$ou_kind: symlink at OUT: message" \
    "gsolve: error: '$ou_d/link.$ou_ext' exists and is not a regular file; not replaced" \
    "$(cat "$ou_tmp/err")"
  check "$ou_kind: symlink at OUT: its target untouched" precious "$(cat "$ou_d/victim")"
  # A dangling symlink: not created through.
  ln -s "$ou_d/made-through-link" "$ou_d/dangling.$ou_ext"
  ou_run "$ou_game" "$ou_d/dangling.$ou_ext" $ou_kind
  check "$ou_kind: dangling symlink at OUT: refused, nothing made" "2 no" \
    "$ou_st $([ -e "$ou_d/made-through-link" ] && echo yes || echo no)"

  # 3. A file of another kind (a database, or for --db a strategy file).
  if [ $ou_kind = db ]; then
    printf '# gsolve strategy 1\n' >"$ou_d/other.$ou_ext"
  else
    $GSOLVE games/tictactoe.game --solver retro --db "$ou_d/other.$ou_ext" >/dev/null 2>&1
  fi
  cp "$ou_d/other.$ou_ext" "$ou_d/other.copy"
  ou_run "$ou_game" "$ou_d/other.$ou_ext" $ou_kind
  check "$ou_kind: a file of another kind as OUT: exit" 2 $ou_st
  check "$ou_kind: a file of another kind as OUT: kept" same \
    "$(cmp -s "$ou_d/other.copy" "$ou_d/other.$ou_ext" && echo same)"

  # 4. A fifo: refused at once (no reader is waited for).
  mkfifo "$ou_d/fifo.$ou_ext"
  ou_run "$ou_game" "$ou_d/fifo.$ou_ext" $ou_kind
  check "$ou_kind: a fifo as OUT: refused" 2 $ou_st
  # 5. A folder.
  mkdir "$ou_d/dir.$ou_ext"
  ou_run "$ou_game" "$ou_d/dir.$ou_ext" $ou_kind
  check "$ou_kind: a folder as OUT: refused" "2 empty" "$ou_st $(ls -A "$ou_d/dir.$ou_ext" | wc -l | sed 's/^ *0$/empty/')"

  # 6. Written, then replaced by a file of its kind; nothing left over.
  ou_run "$ou_game" "$ou_d/out.$ou_ext" $ou_kind
  check "$ou_kind: written: exit" 0 $ou_st
  ou_run "$ou_game" "$ou_d/out.$ou_ext" $ou_kind
  check "$ou_kind: replaced by its kind: exit" 0 $ou_st
  cp "$ou_d/out.$ou_ext" "$ou_d/out.copy"

  # 7. A full disk: no more than 512 bytes may be written (ulimit -f 1,
  # SIGXFSZ ignored so that the write fails with EFBIG).
  (ulimit -f 1 && trap '' XFSZ && ou_run "$ou_game" "$ou_d/out.$ou_ext" $ou_kind && echo $ou_st >"$ou_tmp/st")
  check "$ou_kind: full disk (ulimit -f): exit" 6 "$(cat "$ou_tmp/st")"
  check "$ou_kind: full disk (ulimit -f): message" yes \
    "$(grep -q "^gsolve: error: cannot write '$ou_d/out.$ou_ext': File too large$" "$ou_tmp/err" && echo yes || cat "$ou_tmp/err")"
  check "$ou_kind: full disk (ulimit -f): the old file kept" same \
    "$(cmp -s "$ou_d/out.copy" "$ou_d/out.$ou_ext" && echo same)"
  check "$ou_kind: no temporary file left" 0 "$(ou_left "$ou_d")"
done

# A real full disk: a tmpfs of 1 MiB filled up (as root where mounting is
# allowed; said otherwise).
ou_mnt=$ou_tmp/mnt
mkdir -p "$ou_mnt"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m tmpfs "$ou_mnt" 2>/dev/null; then
  for ou_kind in dot svg db strategy book; do
    case $ou_kind in
      dot) ou_game=games/hexapawn.game ;;
      svg) [ -n "$ou_dot_ok" ] || continue; ou_game=games/hexapawn.game ;;
      db) ou_game=games/tictactoe.game ;;
      strategy) ou_game=games/kuhn.game ;;
      book) ou_game=games/connect4.game ;;
    esac
    ou_run "$ou_game" "$ou_mnt/out.$ou_kind" $ou_kind
    cp "$ou_mnt/out.$ou_kind" "$ou_tmp/full.copy"
    dd if=/dev/zero of="$ou_mnt/filler" bs=4096 2>/dev/null
    ou_run "$ou_game" "$ou_mnt/out.$ou_kind" $ou_kind
    check "$ou_kind: tmpfs full: exit" 6 $ou_st
    check "$ou_kind: tmpfs full: message" yes \
      "$(grep -q "^gsolve: error: cannot write '$ou_mnt/out.$ou_kind': No space left on device$" "$ou_tmp/err" && echo yes || cat "$ou_tmp/err")"
    check "$ou_kind: tmpfs full: the old file kept" same \
      "$(cmp -s "$ou_tmp/full.copy" "$ou_mnt/out.$ou_kind" && echo same)"
    check "$ou_kind: tmpfs full: no temporary file left" 0 "$(ou_left "$ou_mnt")"
    rm -f "$ou_mnt/filler"
  done
  umount "$ou_mnt"
else
  echo "  (not root, or no tmpfs mount allowed: the full-disk case ran under ulimit -f only)"
fi

# SIGTERM while dot draws: dot is killed, nothing is written, no
# temporary file stays.
if [ -n "$ou_dot_ok" ]; then
  mkdir -p "$ou_tmp/slow"
  printf '#!/bin/sh\nsleep 30\n' >"$ou_tmp/slow/dot"
  chmod +x "$ou_tmp/slow/dot"
  PATH="$ou_tmp/slow:$PATH" $GSOLVE games/hexapawn.game --tree-dot "$ou_tmp/slow.svg" \
    >"$ou_tmp/out" 2>"$ou_tmp/err" &
  ou_pid=$!
  sleep 1
  kill -TERM $ou_pid
  wait $ou_pid
  check "SIGTERM while dot draws: exit" 130 $?
  check "SIGTERM while dot draws: nothing written" "" "$(ls "$ou_tmp" | grep '^slow\.svg')"
fi

rm -rf "$ou_tmp"
