#!/usr/bin/env bash
# Builds the minified browser bundle js/parquet-bloom.browser.js from js/ (scripts/build-bundle.js,
# esbuild from the npm devDependencies); scripts/build.sh's wasm target and `npm prepack` run it.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
say "building the browser bundle (js/parquet-bloom.browser.js)"
node scripts/build-bundle.js
