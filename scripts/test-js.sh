#!/usr/bin/env bash
# `npm run test:js`: the node:test suites against the wasm module already in js/wasm/ (no setup, no
# build), the quick loop while editing JS. Arguments go to node --test (e.g. --test-name-pattern=probe).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
[ -f js/wasm/parquet_bloom.wasm ] || { say "js/wasm/ has no module yet: run npm run build (or npm test) once"; exit 1; }
exec node --test "$@" tests/js/
