#!/bin/bash
# fuzz/long_run.sh TARGET CPU_SECONDS -- runs build-fuzz/fuzz_TARGET (built
# by `make fuzz`) niced, one process, until it has used CPU_SECONDS of CPU
# time; after a crash it keeps the artifact and starts again.  The log of
# each run goes to build-fuzz/long-TARGET.log, the final stats of each
# run are appended to build-fuzz/long-TARGET.stats.
cd "$(dirname "$0")/.." || exit 1
t=$1 budget=$2
bin=build-fuzz/fuzz_$t
[ -x "$bin" ] || { echo "build $bin first (make fuzz FUZZ_SECS=1)" >&2; exit 1; }
mkdir -p build-fuzz/corpus-$t
used=0 run=0
while [ "$used" -lt "$budget" ]; do
  run=$((run + 1))
  left=$((budget - used))
  start=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  TIMEFORMAT='%U %S'
  # The seeds and dictionary of make fuzz (Makefile): the readers of
  # databases, books and positions have corpora of their own.
  case $t in
    db|book|position|efg|http) seeds=fuzz/corpus_$t dict= ;;
    *) seeds="games tests/errors tests/malformed fuzz/corpus" dict=-dict=fuzz/game.dict ;;
  esac
  # shellcheck disable=SC2086
  { time nice -n 10 "$bin" -max_len="${FUZZ_MAX_LEN:-262144}" -timeout=10 -rss_limit_mb=2048 \
      -max_total_time="$left" $dict -print_final_stats=1 \
      -artifact_prefix=build-fuzz/crash-$t- build-fuzz/corpus-$t $seeds \
      >>build-fuzz/long-$t.log 2>&1 ; } 2>build-fuzz/long-$t.time
  rc=$?
  cpu=$(awk '{printf "%d", $1 + $2}' build-fuzz/long-$t.time)
  [ "$cpu" -lt 1 ] && cpu=1
  used=$((used + cpu))
  grep -E '^stat::|^Done|INITED' build-fuzz/long-$t.log | tail -n 8 | sed "s/^/run $run rc $rc cpu $cpu: /" >>build-fuzz/long-$t.stats
done
echo "$t: $run run(s), $used CPU seconds" >>build-fuzz/long-$t.stats
