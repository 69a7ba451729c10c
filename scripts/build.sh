#!/usr/bin/env bash
# Builds the native core + tests and the wasm module (release, and with --debug the ASSERTIONS/SAFE_HEAP
# variant), copying the module into js/wasm/ where js/wasm-loader.js finds it.
#   scripts/build.sh [native] [wasm] [wasm-tests] [asan] [wasm-debug] [fuzz] [bench]     (default: native wasm)
# wasm-debug installs into build/wasm-debug-module/ (load it with PARQUET_BLOOM_WASM_DIR, see js/wasm-loader.js);
# fuzz builds the libFuzzer harnesses of fuzz/ with clang++, ASan and UBSan into build/fuzz/.
# bench builds the Google Benchmark binary of bench/native/ against the native core into build/bench/ (scripts/bench.sh).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(native wasm)
sources=(src tests/cpp CMakeLists.txt cmake)

configure_native() { # dir, extra cmake args...
  local dir="$1"; shift
  [ -f "$dir/CMakeCache.txt" ] || cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
}

configure_wasm() { # dir, extra cmake args...
  local dir="$1"; shift
  [ -f "$dir/CMakeCache.txt" ] || emcmake cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR="$EM_NODE_EMULATOR" "$@" >/dev/null
}

install_module() { # build dir, destination dir
  mkdir -p "$2"
  cp "$1/parquet_bloom.mjs" "$1/parquet_bloom.wasm" "$2/"
}

for target in "${targets[@]}"; do
  case "$target" in
    native)
      say "building native core and tests ($BUILD_DIR/native)"
      configure_native "$BUILD_DIR/native"
      cmake --build "$BUILD_DIR/native" -j "$JOBS" ;;
    asan)
      say "building native tests with AddressSanitizer + UBSan ($BUILD_DIR/asan)"
      configure_native "$BUILD_DIR/asan" -DPB_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
      cmake --build "$BUILD_DIR/asan" -j "$JOBS" ;;
    wasm)
      say "building wasm module ($BUILD_DIR/wasm -> js/wasm)"
      configure_wasm "$BUILD_DIR/wasm"
      cmake --build "$BUILD_DIR/wasm" -j "$JOBS" --target parquet_bloom_wasm
      install_module "$BUILD_DIR/wasm" "$ROOT/js/wasm"
      "$ROOT/scripts/build-bundle.sh" ;;
    wasm-tests)
      say "building GoogleTest suite with em++ ($BUILD_DIR/wasm)"
      configure_wasm "$BUILD_DIR/wasm"
      cmake --build "$BUILD_DIR/wasm" -j "$JOBS" --target pb_tests ;;
    wasm-debug)
      say "building wasm module with -sASSERTIONS=1 -sSAFE_HEAP=1 ($BUILD_DIR/wasm-debug -> build/wasm-debug-module)"
      configure_wasm "$BUILD_DIR/wasm-debug" -DPB_BUILD_TESTS=OFF -DPB_WASM_DEBUG=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
      cmake --build "$BUILD_DIR/wasm-debug" -j "$JOBS" --target parquet_bloom_wasm
      install_module "$BUILD_DIR/wasm-debug" "$BUILD_DIR/wasm-debug-module" ;;
    fuzz)
      say "building libFuzzer harnesses with clang++, ASan + UBSan ($BUILD_DIR/fuzz)"
      configure_native "$BUILD_DIR/fuzz" -DPB_FUZZ=ON -DPB_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_COMPILER="$(command -v clang++)"
      cmake --build "$BUILD_DIR/fuzz" -j "$JOBS" ;;
    bench)
      say "building the native benchmark binary ($BUILD_DIR/bench)"
      configure_native "$BUILD_DIR/bench" -DPB_BUILD_BENCH=ON -DPB_BUILD_TESTS=OFF
      cmake --build "$BUILD_DIR/bench" -j "$JOBS" --target pb_bench ;;
    *) say "unknown build target: $target"; exit 2 ;;
  esac
done
