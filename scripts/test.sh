#!/usr/bin/env bash
# `npm test`: installs what is missing, builds native + wasm, runs the GoogleTest suite natively, under
# ASan/UBSan and as wasm under Node (CTest), then the node:test suites.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

"$ROOT/scripts/setup.sh"
"$ROOT/scripts/build.sh" native asan wasm wasm-tests

say "CTest: native GoogleTest"
(cd "$BUILD_DIR/native" && ctest --output-on-failure -j "$JOBS")
say "CTest: native GoogleTest under AddressSanitizer + UBSan"
(cd "$BUILD_DIR/asan" && ctest --output-on-failure -j "$JOBS")
say "CTest: GoogleTest compiled with em++, run under Node"
(cd "$BUILD_DIR/wasm" && ctest --output-on-failure -j "$JOBS")

say "node --test (release wasm)"
node --test tests/js/
