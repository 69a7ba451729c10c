# workerd configuration serving worker.js the way Cloudflare runs it: ES modules, the package's .wasm as
# a precompiled wasm module, no compiling at run time. tests/runtimes/run.js starts it on a free
# loopback port (--socket-addr / --control-fd) with PARQUET_BASE_URL pointing at a local file server:
#   PARQUET_BASE_URL=http://127.0.0.1:8080/web/samples/ \
#     tests/runtimes/pinned/node_modules/.bin/workerd serve examples/cloudflare-worker/config.capnp --socket-addr http=127.0.0.1:8787
# With wrangler none of this is needed: it bundles `parquet-bloom` and turns the .wasm import into
# the same precompiled module (see README, "Cloudflare Workers and other edge runtimes").
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .probeWorker),
    # Outbound fetches may reach loopback addresses only: the example reads a local test server.
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "main") ],
);

const probeWorker :Workerd.Worker = (
  compatibilityDate = "2026-11-01",
  globalOutbound = "loopback",
  bindings = [ (name = "PARQUET_BASE_URL", fromEnvironment = "PARQUET_BASE_URL") ],
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    # `import … from 'parquet-bloom'` and 'parquet-bloom/parquet_bloom.wasm', as package.json exports them.
    (name = "parquet-bloom", esModule = "export * from 'node_modules/parquet-bloom/js/index.js'"),
    (name = "parquet-bloom/parquet_bloom.wasm", wasm = embed "../../js/wasm/parquet_bloom.wasm"),
    (name = "node_modules/parquet-bloom/js/wasm/parquet_bloom.mjs", esModule = embed "../../js/wasm/parquet_bloom.mjs"),
    (name = "node_modules/parquet-bloom/js/abi.js", esModule = embed "../../js/abi.js"),
    (name = "node_modules/parquet-bloom/js/arrow-input.js", esModule = embed "../../js/arrow-input.js"),
    (name = "node_modules/parquet-bloom/js/batch-writer.js", esModule = embed "../../js/batch-writer.js"),
    (name = "node_modules/parquet-bloom/js/bloom-filter.js", esModule = embed "../../js/bloom-filter.js"),
    (name = "node_modules/parquet-bloom/js/bloom-header.js", esModule = embed "../../js/bloom-header.js"),
    (name = "node_modules/parquet-bloom/js/bloom-layout.js", esModule = embed "../../js/bloom-layout.js"),
    (name = "node_modules/parquet-bloom/js/cached-footer.js", esModule = embed "../../js/cached-footer.js"),
    (name = "node_modules/parquet-bloom/js/confirm-lookup.js", esModule = embed "../../js/confirm-lookup.js"),
    (name = "node_modules/parquet-bloom/js/confirm-match.js", esModule = embed "../../js/confirm-match.js"),
    (name = "node_modules/parquet-bloom/js/confirm.js", esModule = embed "../../js/confirm.js"),
    (name = "node_modules/parquet-bloom/js/core.js", esModule = embed "../../js/core.js"),
    (name = "node_modules/parquet-bloom/js/crc32.js", esModule = embed "../../js/crc32.js"),
    (name = "node_modules/parquet-bloom/js/crypto/aad.js", esModule = embed "../../js/crypto/aad.js"),
    (name = "node_modules/parquet-bloom/js/crypto/aes-gcm.js", esModule = embed "../../js/crypto/aes-gcm.js"),
    (name = "node_modules/parquet-bloom/js/crypto/encrypted-dictionary.js", esModule = embed "../../js/crypto/encrypted-dictionary.js"),
    (name = "node_modules/parquet-bloom/js/crypto/encrypted-filter.js", esModule = embed "../../js/crypto/encrypted-filter.js"),
    (name = "node_modules/parquet-bloom/js/crypto/encrypted-footer.js", esModule = embed "../../js/crypto/encrypted-footer.js"),
    (name = "node_modules/parquet-bloom/js/crypto/encrypted-pages.js", esModule = embed "../../js/crypto/encrypted-pages.js"),
    (name = "node_modules/parquet-bloom/js/crypto/file-crypto.js", esModule = embed "../../js/crypto/file-crypto.js"),
    (name = "node_modules/parquet-bloom/js/crypto/thrift-rewrite.js", esModule = embed "../../js/crypto/thrift-rewrite.js"),
    (name = "node_modules/parquet-bloom/js/dictionary.js", esModule = embed "../../js/dictionary.js"),
    (name = "node_modules/parquet-bloom/js/errors.js", esModule = embed "../../js/errors.js"),
    (name = "node_modules/parquet-bloom/js/filter-health.js", esModule = embed "../../js/filter-health.js"),
    (name = "node_modules/parquet-bloom/js/footer-cache.js", esModule = embed "../../js/footer-cache.js"),
    (name = "node_modules/parquet-bloom/js/footer.js", esModule = embed "../../js/footer.js"),
    (name = "node_modules/parquet-bloom/js/index-coverage.js", esModule = embed "../../js/index-coverage.js"),
    (name = "node_modules/parquet-bloom/js/index.js", esModule = embed "../../js/index.js"),
    (name = "node_modules/parquet-bloom/js/link-model.js", esModule = embed "../../js/link-model.js"),
    (name = "node_modules/parquet-bloom/js/page-codecs.js", esModule = embed "../../js/page-codecs.js"),
    (name = "node_modules/parquet-bloom/js/page-decode.js", esModule = embed "../../js/page-decode.js"),
    (name = "node_modules/parquet-bloom/js/page-header.js", esModule = embed "../../js/page-header.js"),
    (name = "node_modules/parquet-bloom/js/page-index-thrift.js", esModule = embed "../../js/page-index-thrift.js"),
    (name = "node_modules/parquet-bloom/js/page-index.js", esModule = embed "../../js/page-index.js"),
    (name = "node_modules/parquet-bloom/js/parquet-file.js", esModule = embed "../../js/parquet-file.js"),
    (name = "node_modules/parquet-bloom/js/probe-plan.js", esModule = embed "../../js/probe-plan.js"),
    (name = "node_modules/parquet-bloom/js/probe.js", esModule = embed "../../js/probe.js"),
    (name = "node_modules/parquet-bloom/js/read-scheduler.js", esModule = embed "../../js/read-scheduler.js"),
    (name = "node_modules/parquet-bloom/js/row-group-answer.js", esModule = embed "../../js/row-group-answer.js"),
    (name = "node_modules/parquet-bloom/js/sources/async-buffer-source.js", esModule = embed "../../js/sources/async-buffer-source.js"),
    (name = "node_modules/parquet-bloom/js/sources/blob-source.js", esModule = embed "../../js/sources/blob-source.js"),
    (name = "node_modules/parquet-bloom/js/sources/buffer-source.js", esModule = embed "../../js/sources/buffer-source.js"),
    (name = "node_modules/parquet-bloom/js/sources/file-source.js", esModule = embed "../../js/sources/file-source.js"),
    (name = "node_modules/parquet-bloom/js/sources/http-source.js", esModule = embed "../../js/sources/http-source.js"),
    (name = "node_modules/parquet-bloom/js/sources/index.js", esModule = embed "../../js/sources/index.js"),
    (name = "node_modules/parquet-bloom/js/sources/shared.js", esModule = embed "../../js/sources/shared.js"),
    (name = "node_modules/parquet-bloom/js/statistics.js", esModule = embed "../../js/statistics.js"),
    (name = "node_modules/parquet-bloom/js/thrift-compact.js", esModule = embed "../../js/thrift-compact.js"),
    (name = "node_modules/parquet-bloom/js/values.js", esModule = embed "../../js/values.js"),
    (name = "node_modules/parquet-bloom/js/values/column-type.js", esModule = embed "../../js/values/column-type.js"),
    (name = "node_modules/parquet-bloom/js/values/decimal.js", esModule = embed "../../js/values/decimal.js"),
    (name = "node_modules/parquet-bloom/js/values/float.js", esModule = embed "../../js/values/float.js"),
    (name = "node_modules/parquet-bloom/js/values/input.js", esModule = embed "../../js/values/input.js"),
    (name = "node_modules/parquet-bloom/js/values/integer.js", esModule = embed "../../js/values/integer.js"),
    (name = "node_modules/parquet-bloom/js/values/temporal.js", esModule = embed "../../js/values/temporal.js"),
    (name = "node_modules/parquet-bloom/js/values/text.js", esModule = embed "../../js/values/text.js"),
    (name = "node_modules/parquet-bloom/js/verdicts.js", esModule = embed "../../js/verdicts.js"),
    (name = "node_modules/parquet-bloom/js/wasm-loader.js", esModule = embed "../../js/wasm-loader.js"),
    (name = "node_modules/parquet-bloom/js/writer-rules.js", esModule = embed "../../js/writer-rules.js"),
  ],
);
