#!/usr/bin/env bash
# `npm run test:cpp`: rebuilds the native preset incrementally and runs its GoogleTest suite under CTest,
# the quick loop while editing C++. Arguments go to ctest (e.g. -R FileMetaData).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
"$ROOT/scripts/build.sh" native
exec ctest --test-dir "$BUILD_DIR/native" --output-on-failure -j "$JOBS" "$@"
