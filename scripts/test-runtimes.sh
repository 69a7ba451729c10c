#!/usr/bin/env bash
# `npm run test:runtimes`: installs what is missing (the pinned runtimes of tests/runtimes/pinned among it),
# builds the wasm module if it is not there, then runs the package under Node 18/22/24, Bun, Deno and workerd.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
PB_NEED_RUNTIMES=1 "$ROOT/scripts/setup.sh"
[ -f js/wasm/parquet_bloom.wasm ] || "$ROOT/scripts/build.sh" wasm
node tests/runtimes/run.js
