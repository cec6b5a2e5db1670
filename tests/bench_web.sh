#!/bin/sh
# tests/bench_web.sh -- make bench: gsolve serve under load (docs/web.md):
# 32 clients x 200 requests on loopback (tests/bench_web.py), the
# throughput and the 99th-percentile latency; fails on a failed request.
cd "$(dirname "$0")/.." || exit 1
GSOLVE=${GSOLVE:-./gsolve}
echo "== gsolve serve: a load test (each analysis a child gsolve)"
/usr/bin/python3 tests/bench_web.py "$GSOLVE" 32 200
