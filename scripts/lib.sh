# Shared helpers for the project's scripts: logging and the Emscripten environment Debian's package needs.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PB_BUILD_DIR:-$ROOT/build}"
JOBS="${PB_JOBS:-$(nproc 2>/dev/null || echo 2)}"

say() { printf '\033[1m[parquet-bloom]\033[0m %s\n' "$*" >&2; }

# Debian's emscripten 3.1.6 finds acorn only through NODE_PATH.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"

