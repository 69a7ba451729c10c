#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the wasm module, writes the sample Parquet files (DuckDB,
# hyparquet-writer) and the dataset and table samples when they are missing, then serves the demo page on
# 127.0.0.1:${PORT:-8080}, with the sample bucket (a local S3 API, s3rver) beside it.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
PB_SKIP_BROWSER=1 "$ROOT/scripts/setup.sh"
"$ROOT/scripts/build.sh" wasm
say "sample Parquet files, dataset and tables (web/samples/)"
node web/build-samples.js
say "serving the demo (Ctrl+C to stop)"
exec node web/server.js
