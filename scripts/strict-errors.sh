#!/usr/bin/env bash
# tsc --strict's errors, for the files under the given path prefixes (all files when none): the staging
# check while the tree moves to "strict": true folder by folder.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(npx tsc -p tsconfig.strict.json 2>&1 | grep 'error TS')
if [ "$#" -gt 0 ]; then
  pattern=$(printf '^%s|' "$@"); pattern=${pattern%|}
  out=$(printf '%s\n' "$out" | grep -E "$pattern")
fi
printf '%s\n' "$out" | grep -v '^$'
echo "strict errors: $(printf '%s\n' "$out" | grep -c 'error TS')" >&2
