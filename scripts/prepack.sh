#!/usr/bin/env bash
# `npm pack` / `npm publish` (prepack): installs what is missing, as `npm start` and `npm test` do, then
# builds the wasm module and the browser bundle the tarball carries (js/wasm/, js/parquet-bloom.browser*).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
PB_SKIP_BROWSER=1 "$ROOT/scripts/setup.sh"
"$ROOT/scripts/build.sh" wasm
