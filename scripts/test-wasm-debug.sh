#!/usr/bin/env bash
# Runs the node:test suites once against the debug wasm module (-sASSERTIONS=1 -sSAFE_HEAP=1: checked
# heap accesses, alignment and bounds), which js/wasm-loader.js loads via PARQUET_BLOOM_WASM_DIR.
#   scripts/test-wasm-debug.sh [extra node --test arguments]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

"$ROOT/scripts/build.sh" wasm-debug
say "node --test against the debug wasm module ($BUILD_DIR/wasm-debug-module)"
PARQUET_BLOOM_WASM_DIR="$BUILD_DIR/wasm-debug-module" node --test "$@" tests/js/
