#!/usr/bin/env bash
# `npm test`: installs what is missing, type-checks js/ and web/, builds everything, then runs every suite:
#   the GoogleTest suite natively, under ASan + UBSan and compiled with em++ under Node (CTest);
#   the libFuzzer harnesses over their committed corpora (ASan + UBSan);
#   node --test against the release wasm and against the -sASSERTIONS=1 -sSAFE_HEAP=1 debug build;
#   the browser tests (Chromium via playwright-core, Firefox ESR via puppeteer-core);
#   the runtime tests (Node 18/22/24, Bun, Deno and workerd, pinned in tests/runtimes/pinned/).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

PB_NEED_CLANG=1 PB_NEED_RUNTIMES=1 "$ROOT/scripts/setup.sh"
say "typecheck: tsc checks the JSDoc types of js/ and web/ (tsconfig.json, emits nothing)"
npm run --silent typecheck
"$ROOT/scripts/build.sh" native asan wasm wasm-tests wasm-debug

say "CTest: native GoogleTest"
(cd "$BUILD_DIR/native" && ctest --output-on-failure -j "$JOBS")
say "CTest: native GoogleTest under AddressSanitizer + UBSan"
(cd "$BUILD_DIR/asan" && ctest --output-on-failure -j "$JOBS")
say "CTest: GoogleTest compiled with em++, run under Node"
(cd "$BUILD_DIR/wasm" && ctest --output-on-failure -j "$JOBS")

"$ROOT/scripts/fuzz.sh" --smoke

say "node --test (release wasm)"
node --test tests/js/

"$ROOT/scripts/test-wasm-debug.sh"

say "browser tests"
npm run --silent test:browser

say "runtime tests (Node 18/22/24, Bun, Deno, workerd)"
npm run --silent test:runtimes
