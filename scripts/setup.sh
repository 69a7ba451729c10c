#!/usr/bin/env bash
# Installs what the build and tests need, only what is missing: Debian packages (compilers, Emscripten,
# xxHash, GoogleTest, Chromium, Firefox ESR and openssl for the browser tests) and the npm dependencies from
# package-lock.json; with PB_NEED_RUNTIMES=1 also the pinned Node, Bun, Deno and workerd binaries of the
# runtime tests (tests/runtimes/pinned/package-lock.json, about 870 MB on disk).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need=()
command -v cmake >/dev/null || need+=(cmake)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
command -v emcc >/dev/null || need+=(emscripten)
[ -f /usr/include/xxhash.h ] || need+=(libxxhash-dev)
[ -f /usr/src/googletest/CMakeLists.txt ] || need+=(googletest)
if [ "${PB_SKIP_BROWSER:-0}" != 1 ]; then
  command -v chromium >/dev/null || need+=(chromium)
  command -v firefox-esr >/dev/null || need+=(firefox-esr)
  # Recommends are skipped below, so give the browser tests' screenshots a font to render with.
  [ -d /usr/share/fonts/truetype/dejavu ] || need+=(fonts-dejavu-core)
  # The HTTP/2 browser scenarios make a self-signed certificate with it.
  command -v openssl >/dev/null || need+=(openssl)
fi
if [ "${PB_NEED_CLANG:-0}" = 1 ]; then
  command -v clang++ >/dev/null || need+=(clang)
  [ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] || need+=(libclang-rt-dev)
fi

if [ ${#need[@]} -gt 0 ]; then
  say "installing Debian packages: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  say "Debian packages: all present"
fi

cd "$ROOT"
# A node_modules that is a link (a worktree sharing another checkout's packages) is that checkout's to
# install: npm ci would empty the folder it points at.
if [ -L node_modules ]; then
  say "npm dependencies: node_modules is a link to $(readlink node_modules), left as it is"
elif [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
else
  say "npm dependencies: up to date"
fi

pinned="$ROOT/tests/runtimes/pinned"
if [ "${PB_NEED_RUNTIMES:-0}" = 1 ]; then
  if [ ! -d "$pinned/node_modules" ] || [ "$pinned/package-lock.json" -nt "$pinned/node_modules/.package-lock.json" ]; then
    say "installing the runtimes the runtime tests use (npm ci in tests/runtimes/pinned)"
    (cd "$pinned" && npm ci --no-audit --no-fund --loglevel=error)
  else
    say "pinned runtimes: up to date"
  fi
fi
