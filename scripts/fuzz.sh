#!/usr/bin/env bash
# `npm run fuzz`: builds the libFuzzer harnesses of fuzz/ (clang++, ASan + UBSan) and fuzzes each for an
# equal share of FUZZ_SECONDS, starting from the committed corpus plus seeds written at setup time by our
# own encoders (build/fuzz/pb_fuzz_seeds) and real writers (fuzz/footer-seeds.mjs: DuckDB, hyparquet-writer).
#   scripts/fuzz.sh [harness...]     fuzz (names with or without the fuzz_ prefix; default: all)
#   scripts/fuzz.sh --smoke          run every committed corpus and regression input once (for npm test)
#   scripts/fuzz.sh --merge          minimise committed corpus + seeds + what fuzzing found into fuzz/corpus/
# Environment: FUZZ_SECONDS (total, default 60), FUZZ_JOBS (harnesses at a time, default 1),
#   FUZZ_WRITER_SEEDS=0 (skip the DuckDB/hyparquet-writer seeds).
# New inputs go to build/fuzz/corpus/<harness>/, crashes to build/fuzz/artifacts/<harness>/, logs to
# build/fuzz/logs/. A crash fails the run: keep its minimised input in fuzz/regressions/<harness>/ (which
# --merge leaves alone) and turn it into a test in tests/cpp/regression_test.cc.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

mode=fuzz
harnesses=()
for arg in "$@"; do
  case "$arg" in
    --smoke) mode=smoke ;;
    --merge) mode=merge ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    -*) say "unknown option: $arg"; exit 2 ;;
    fuzz_*) harnesses+=("$arg") ;;
    *) harnesses+=("fuzz_$arg") ;;
  esac
done
if [ ${#harnesses[@]} -eq 0 ]; then
  for source in fuzz/fuzz_*.cc; do harnesses+=("$(basename "$source" .cc)"); done
fi

PB_NEED_CLANG=1 PB_SKIP_BROWSER=1 "$ROOT/scripts/setup.sh"
"$ROOT/scripts/build.sh" fuzz

FUZZ_DIR="$BUILD_DIR/fuzz"
mkdir -p "$FUZZ_DIR/logs"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
common=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)

for h in "${harnesses[@]}"; do
  [ -x "$FUZZ_DIR/$h" ] || { say "no harness named $h (fuzz/$h.cc)"; exit 2; }
done

if [ "$mode" = smoke ]; then
  say "fuzz smoke: every committed corpus and regression input once, under ASan + UBSan"
  failed=0
  for h in "${harnesses[@]}"; do
    mkdir -p "$FUZZ_DIR/artifacts/$h" "$FUZZ_DIR/logs"
    start=$SECONDS
    dirs=("fuzz/corpus/$h")
    [ -d "fuzz/regressions/$h" ] && dirs+=("fuzz/regressions/$h")
    if "$FUZZ_DIR/$h" -runs=0 "${common[@]}" -artifact_prefix="$FUZZ_DIR/artifacts/$h/" "${dirs[@]}" \
        >"$FUZZ_DIR/logs/$h.smoke.log" 2>&1; then
      say "  $h: $(find "${dirs[@]}" -type f | wc -l) inputs ok ($((SECONDS - start)) s)"
    else
      say "  $h: FAILED — see $FUZZ_DIR/logs/$h.smoke.log"
      tail -n 40 "$FUZZ_DIR/logs/$h.smoke.log" >&2
      failed=1
    fi
  done
  exit "$failed"
fi

# Seeds are regenerated each time, from this checkout's encoders; they are never committed as such.
rm -rf "$FUZZ_DIR/seeds"
"$FUZZ_DIR/pb_fuzz_seeds" "$FUZZ_DIR/seeds"
if [ "${FUZZ_WRITER_SEEDS:-1}" != 0 ]; then
  node fuzz/footer-seeds.mjs "$FUZZ_DIR/seeds" || say "real-writer seeds unavailable; fuzzing from our own seeds only"
fi

corpora() { # harness → the corpus directories, the writable one first
  mkdir -p "$FUZZ_DIR/corpus/$1" "fuzz/corpus/$1" "$FUZZ_DIR/seeds/$1"
  printf '%s\n' "$FUZZ_DIR/corpus/$1" "fuzz/corpus/$1" "$FUZZ_DIR/seeds/$1"
  [ ! -d "fuzz/regressions/$1" ] || echo "fuzz/regressions/$1"
}

if [ "$mode" = merge ]; then
  for h in "${harnesses[@]}"; do
    mapfile -t dirs < <(corpora "$h")
    merged="$(mktemp -d)"
    "$FUZZ_DIR/$h" -merge=1 "${common[@]}" "$merged" "fuzz/corpus/$h" "${dirs[0]}" "${dirs[2]}" \
      >"$FUZZ_DIR/logs/$h.merge.log" 2>&1 || { say "merge of $h failed: $FUZZ_DIR/logs/$h.merge.log"; exit 1; }
    rm -rf "fuzz/corpus/$h"
    mv "$merged" "fuzz/corpus/$h"
    chmod 755 "fuzz/corpus/$h"
    say "  $h: $(find "fuzz/corpus/$h" -type f | wc -l) inputs, $(du -sb --apparent-size "fuzz/corpus/$h" | cut -f1) bytes"
  done
  exit 0
fi

total="${FUZZ_SECONDS:-60}"
jobs="${FUZZ_JOBS:-1}"
share=$(( total * jobs / ${#harnesses[@]} ))
[ "$share" -ge 1 ] || share=1
say "fuzzing ${#harnesses[@]} harnesses, ${share} s each, $jobs at a time (FUZZ_SECONDS=$total)"

run_one() {
  local h="$1" status=0
  mapfile -t dirs < <(corpora "$h")
  mkdir -p "$FUZZ_DIR/artifacts/$h"
  rm -f "$FUZZ_DIR/logs/$h.status"
  "$FUZZ_DIR/$h" -max_total_time="$share" "${common[@]}" -artifact_prefix="$FUZZ_DIR/artifacts/$h/" "${dirs[@]}" \
    >"$FUZZ_DIR/logs/$h.log" 2>&1 || status=$?
  echo "$status" >"$FUZZ_DIR/logs/$h.status"
}

# Background jobs of a script ignore Ctrl-C: stop the fuzzers our run_one subshells started (libFuzzer
# prints its final stats on SIGTERM), then the subshells.
stop_fuzzers() {
  for pid in $(jobs -p); do
    pkill -TERM -P "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
  done
}
trap 'stop_fuzzers; exit 130' INT TERM

for h in "${harnesses[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  run_one "$h" &
done
wait

failed=0
for h in "${harnesses[@]}"; do
  log="$FUZZ_DIR/logs/$h.log"
  status=$(cat "$FUZZ_DIR/logs/$h.status" 2>/dev/null || echo 1)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  seconds=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
  corpus=$(find "$FUZZ_DIR/corpus/$h" -type f | wc -l)
  if [ "$status" -eq 0 ]; then
    say "  $h: ${runs:-?} executions in ${seconds:-?} s, work corpus $corpus inputs"
  else
    failed=1
    say "  $h: FAILED (exit $status) after ${runs:-?} executions — input in $FUZZ_DIR/artifacts/$h/, log $log"
    grep -E 'ERROR|SUMMARY|invariant broken' "$log" | head -n 5 >&2 || true
  fi
done
exit "$failed"
