#!/bin/sh
# tests/bench_mpi.sh -- make bench (when Open MPI is installed): gsolve-mpi
# on 1..4 ranks of one host.  Per run: wall time, the largest table share
# (stored positions and MiB of one rank), and the messages and bytes the
# busiest rank sent, and B/pos: the bytes all ranks sent per reachable
# position.  On 2 cores the wall time does not fall; the share per rank
# falls as 1/N, and the bytes follow the design (docs/mpi.md): per move,
# one enumeration record (key(s) + 8 bytes, + 4 and 2 per ply of path
# for an engine without set_state) and up to three 16-byte label updates,
# times (N-1)/N sent off-rank.  "paths" rows force the path replay
# (GSOLVE_MPI_PATHS=1) on a VM game: the exchange before set_state.  The
# payoff-vector mode (Pig with a turn limit) sends 4 more bytes a record
# and one update of 8 + 8 x (players + 1) bytes per move.
# Figures, not tests.
cd "$(dirname "$0")/.." || exit 1
MPI_BIN=${GSOLVE_MPI:-./gsolve-mpi}
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MPI_BIN" ]; then
  echo "== gsolve-mpi: SKIPPED (no Open MPI or no ./gsolve-mpi: make mpi)"
  exit 0
fi
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_mpi_yield_when_idle
export OMPI_MCA_btl_vader_single_copy_mechanism
tmp=$(mktemp -d)
echo "== gsolve-mpi: retrograde analysis over 1..4 ranks on one host (--oversubscribe)"
printf '%-24s %5s %8s %10s %10s %9s %9s %12s %8s\n' game ranks wall stored "max share" "max MiB" \
  "messages" "bytes" "B/pos"
bench() {
  desc=$1; shift
  for n in 1 2 3 4; do
    t0=$(date +%s.%N)
    mpirun --oversubscribe -np $n "$MPI_BIN" "$@" --solver retro >"$tmp/out" 2>"$tmp/err"
    t1=$(date +%s.%N)
    stored=$(sed -n 's/^stored: //p' "$tmp/out")
    positions=$(sed -n 's/^positions: //p' "$tmp/out")
    awk -v d="$desc" -v n=$n -v w="$(echo "$t1 - $t0" | bc)" -v st="$stored" -v pos="$positions" '
      /^mpi: rank / {
        for (i = 1; i <= NF; i++) {
          if ($i == "stored") s = $(i+1) + 0
          if ($i == "memory") m = $(i+1) + 0; if ($i == "sent") msg = $(i+1) + 0
          if ($i == "messages,") b = $(i+1) + 0
        }
        if (s > ms) ms = s; if (m > mm) mm = m; if (msg > mmsg) mmsg = msg; if (b > mb) mb = b
        tb += b
      }
      END { printf "%-24s %5d %8.2f %10s %10d %9.2f %9d %12d %8.1f\n", d, n, w, st, ms, mm, mmsg, mb,
            pos ? tb / pos : 0 }' "$tmp/err"
  done
}
bench_paths() {
  GSOLVE_MPI_PATHS=1; export GSOLVE_MPI_PATHS
  bench "$@"
  unset GSOLVE_MPI_PATHS
}
bench "tictactoe 3x3" games/tictactoe.game
bench_paths "tictactoe 3x3, paths" games/tictactoe.game
bench "hexapawn 4x4" games/hexapawn.game -D width=4 -D height=4
bench_paths "hexapawn 4x4, paths" games/hexapawn.game -D width=4 -D height=4
bench "chess KQK 5x5" games/chess-endgame.game -D size=5
bench_paths "chess KQK 5x5, paths" games/chess-endgame.game -D size=5
bench "pig 30, 12 turns" games/pig.game -D goal=30 -D turns=12
bench "connect4 5x4" games/connect4.game -D width=5 -D height=4
rm -rf "$tmp"
