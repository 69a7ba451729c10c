#!/usr/bin/env bash
# `npm run bench`: benchmarks side by side (never part of `npm test`). Builds the wasm module and the
# native Google Benchmark binary (incrementally), then runs bench/run.js, which prints tables and writes
# bench/results/latest.json. Arguments go to bench/run.js: --quick, --only a,b, --no-native.
# PB_BENCH_NO_BUILD=1 measures the js/wasm module and build/bench binary already there.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

if [ "${PB_BENCH_NO_BUILD:-0}" != 1 ]; then
  PB_SKIP_BROWSER=1 "$ROOT/scripts/setup.sh"
  if [ ! -f /usr/include/benchmark/benchmark.h ]; then
    say "installing Google Benchmark (libbenchmark-dev) for the native column"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends libbenchmark-dev >/dev/null
  fi
  "$ROOT/scripts/build.sh" wasm bench
fi

exec node bench/run.js "$@"
