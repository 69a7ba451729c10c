#!/usr/bin/env bash
# `npm run test:browser`: installs what is missing (Debian's chromium and firefox-esr among it), builds the
# wasm module if it is not there, then drives the demo and the bare example page in headless Chromium and
# Firefox. Arguments go to tests/browser/run.js (--browser=firefox, scenario names).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
"$ROOT/scripts/setup.sh"
[ -f js/wasm/parquet_bloom.wasm ] || "$ROOT/scripts/build.sh" wasm
"$ROOT/scripts/build-bundle.sh" # the bare example page loads the bundle: rebuild it from the current sources
node tests/browser/run.js "$@"
