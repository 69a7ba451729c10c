#!/usr/bin/env bash
# Builds the CMakePresets.json presets named on the command line (each in build/<preset>), copying the
# wasm modules where js/wasm-loader.js finds them. A preset is configured again whenever what it was
# configured from changed: the presets file, the fixtures (sbbf-vectors.json is read at configure time)
# or the environment the configuration reads (PB_REQUIRE_FIXTURES, PB_FIXTURES_DIR).
#   scripts/build.sh [native] [wasm] [wasm-tests] [asan] [wasm-debug] [fuzz] [bench]     (default: native wasm)
# wasm installs into js/wasm/; wasm-tests builds the GoogleTest suite with em++ in build/wasm;
# wasm-debug installs into build/wasm-debug-module/ (load it with PARQUET_BLOOM_WASM_DIR, see js/wasm-loader.js);
# fuzz builds the libFuzzer harnesses of fuzz/ with clang++, ASan and UBSan into build/fuzz/.
# bench builds the Google Benchmark binary of bench/native/ against the native core into build/bench/ (scripts/bench.sh).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(native wasm)

FIXTURES_DIR="${PB_FIXTURES_DIR:-$ROOT/../shared/fixtures}"
EMSCRIPTEN_TOOLCHAIN=/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake

# Everything a configuration depends on besides the CMake files (which CMake itself watches).
configure_inputs() { # preset
  printf 'preset %s\n' "$1"
  cat CMakePresets.json
  printf 'PB_REQUIRE_FIXTURES=%s\nPB_FIXTURES_DIR=%s\n' "${PB_REQUIRE_FIXTURES:-}" "$FIXTURES_DIR"
  if [ -d "$FIXTURES_DIR" ]; then
    find "$FIXTURES_DIR" -maxdepth 2 -printf '%P %s %T@\n' | sort
  else
    echo "no fixtures directory"
  fi
}

configure() { # preset
  local preset="$1" dir="$BUILD_DIR/$1" stamp
  stamp="$(configure_inputs "$preset" | sha256sum | cut -d' ' -f1)"
  if [ -f "$dir/CMakeCache.txt" ] && [ "$(cat "$dir/.pb-configured" 2>/dev/null)" = "$stamp" ]; then return; fi
  if [[ "$preset" == wasm* ]] && [ ! -f "$EMSCRIPTEN_TOOLCHAIN" ]; then
    say "Emscripten's toolchain file is not at $EMSCRIPTEN_TOOLCHAIN (em-config EMSCRIPTEN_ROOT says $(em-config EMSCRIPTEN_ROOT 2>/dev/null || echo '?'))"
    exit 1
  fi
  say "configuring preset $preset ($dir)"
  rm -f "$dir/.pb-configured"
  cmake --preset "$preset" -B "$dir" -DPB_FIXTURES_DIR="$FIXTURES_DIR" >"$BUILD_DIR/configure-$preset.log" 2>&1 || {
    cat "$BUILD_DIR/configure-$preset.log" >&2
    exit 1
  }
  echo "$stamp" >"$dir/.pb-configured"
}

build() { # preset, targets...
  local preset="$1"; shift
  configure "$preset"
  local target_args=()
  for t in "$@"; do target_args+=(--target "$t"); done
  cmake --build "$BUILD_DIR/$preset" -j "$JOBS" "${target_args[@]}"
}

install_module() { # build dir, destination dir[, minify: the glue minified (scripts/minify-glue.js)]
  mkdir -p "$2"
  cp "$1/parquet_bloom.wasm" "$2/"
  if [[ "${3:-}" == minify ]]; then
    node "$ROOT/scripts/minify-glue.js" "$1/parquet_bloom.mjs" "$2/parquet_bloom.mjs"
  else
    cp "$1/parquet_bloom.mjs" "$2/"
  fi
}

mkdir -p "$BUILD_DIR"
for target in "${targets[@]}"; do
  case "$target" in
    native)
      say "building native core and tests ($BUILD_DIR/native)"
      build native ;;
    asan)
      say "building native tests with AddressSanitizer + UBSan ($BUILD_DIR/asan)"
      build asan ;;
    wasm)
      say "building wasm module ($BUILD_DIR/wasm -> js/wasm)"
      build wasm parquet_bloom_wasm
      install_module "$BUILD_DIR/wasm" "$ROOT/js/wasm" minify
      "$ROOT/scripts/build-bundle.sh" ;;
    wasm-tests)
      say "building GoogleTest suite with em++ ($BUILD_DIR/wasm)"
      build wasm pb_tests ;;
    wasm-debug)
      say "building wasm module with -sASSERTIONS=1 -sSAFE_HEAP=1 ($BUILD_DIR/wasm-debug -> $BUILD_DIR/wasm-debug-module)"
      build wasm-debug parquet_bloom_wasm
      install_module "$BUILD_DIR/wasm-debug" "$BUILD_DIR/wasm-debug-module" ;;
    fuzz)
      say "building libFuzzer harnesses with clang++, ASan + UBSan ($BUILD_DIR/fuzz)"
      build fuzz ;;
    bench)
      say "building the native benchmark binary ($BUILD_DIR/bench)"
      build bench pb_bench ;;
    *) say "unknown build target: $target"; exit 2 ;;
  esac
done
