#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the wasm module and runs the main job.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
PB_SKIP_BROWSER=1 "$ROOT/scripts/setup.sh"
"$ROOT/scripts/build.sh" wasm
say "probing a sample filter (examples/quickstart.js)"
node examples/quickstart.js
