#!/usr/bin/env bash
# Named, timed steps for `make run`, `make test` and `make test-app`: `step NAME COMMAND...` runs one and records its
# wall time; the summary at the end (also when a step fails, naming it) says where the minutes went.
# Sourced, not run.

STEP_ROWS=()
# Seconds since the epoch with a fraction where bash has EPOCHREALTIME (5.0 on), whole seconds elsewhere (macOS's 3.2).
steps_now() { echo "${EPOCHREALTIME:-$(date +%s)}"; }
STEP_STARTED_AT=$(steps_now)

# Wall seconds since $1 (from `steps_now`), one decimal.
steps_elapsed() { awk -v a="$1" -v b="$(steps_now)" 'BEGIN { printf "%.1f", b - a }'; }

steps_summary() {
  echo
  echo "== time per step (load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'), $(nproc 2>/dev/null || echo '?') cores) =="
  printf '%s\n' "${STEP_ROWS[@]}"
  printf '%8s s  %s\n' "$(steps_elapsed "$STEP_STARTED_AT")" "in all"
}

step() {
  local name="$1"
  shift
  local started
  started=$(steps_now)
  echo "== $name"
  "$@"
  local status=$?
  STEP_ROWS+=("$(printf '%8s s  %s' "$(steps_elapsed "$started")" "$name")")
  if [ "$status" -ne 0 ]; then
    STEP_ROWS+=("         failed: $name (exit $status)")
    steps_summary
    exit "$status"
  fi
}

# Stops with the toolchain's name and where to get it when `swift` is missing (the machine image has it in /opt/swift).
require_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    echo "swift not found: install the Swift 6.3 toolchain (swift.org/install; this project's machines have it in /opt/swift) and put its usr/bin on PATH" >&2
    exit 1
  fi
}
