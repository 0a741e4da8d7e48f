#!/usr/bin/env bash
# The README's app quick start, pasted as is into a fresh package that depends on this one by path, built, and run
# twice: with the local SmolLM2 up (it must answer, typed, served by `llama-server`), then with it stopped (the
# router must fall back to an OpenAI-compatible server on loopback and say so in `servedBy`). The "cloud" is a second
# llama-server speaking OpenAI's /v1/chat/completions: a real server, not a canned answer.
#
# Run by `make test` after the unit tests; needs `make setup` (llama-server and SmolLM2). Prints the build time.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck disable=SC1091
source "$ROOT/.hybrid/local-model.env"
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/QuickStart/Sources/QuickStart"
# A path dependency's package identity is its folder's name, lowercased (`main` here, something else in CI's clone).
IDENTITY="$(basename "$ROOT" | tr '[:upper:]' '[:lower:]')"
cat >"$WORK/QuickStart/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "QuickStart",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "$ROOT", traits: [])],
    targets: [.executableTarget(name: "QuickStart", dependencies: [.product(name: "HybridAI", package: "$IDENTITY")])]
)
EOF
# readme_block HEADING LANGUAGE: the first LANGUAGE block under README.md's HEADING, byte for byte.
readme_block() {
  python3 - "$ROOT/README.md" "$1" "$2" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
section = text.split(sys.argv[2], 1)[1]
print(section.split("```" + sys.argv[3] + "\n", 1)[1].split("\n```", 1)[0])
PY
}
# The quick start's Swift block, byte for byte.
readme_block "## Your app: quick start" swift >"$WORK/QuickStart/Sources/QuickStart/main.swift"

# An app resolves only what it links: with `traits: []`, as the README says, swift-log and the tracing and metrics
# APIs (the router's OpenTelemetry spans and metrics, no-ops until the app bootstraps a backend) are the packages fetched.
grep -q 'traits: \[\])`, product' "$ROOT/README.md" \
  || { echo "README.md's quick start no longer tells apps to depend with traits: [] (check-quickstart.sh writes it)"; exit 1; }
swift package resolve --package-path "$WORK/QuickStart" --scratch-path "$ROOT/.build-quickstart" >/dev/null
resolved="$(python3 -c 'import json, sys; print(" ".join(sorted(p["identity"] for p in json.load(open(sys.argv[1]))["pins"])))' \
  "$WORK/QuickStart/Package.resolved")"
[ "$resolved" = "swift-distributed-tracing swift-log swift-metrics" ] \
  || { echo "a fresh app package resolved '$resolved'; only swift-distributed-tracing, swift-log and swift-metrics were expected (a harness package lost its trait guard in Package.swift?)"; exit 1; }
echo "a fresh app package resolves: $resolved"

start=$(date +%s)
swift build --package-path "$WORK/QuickStart" --scratch-path "$ROOT/.build-quickstart" -q
echo "quick start package built in $(( $(date +%s) - start )) s (scratch path .build-quickstart; clean on a new clone)"
BIN="$ROOT/.build-quickstart/debug/QuickStart"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
serve() {  # port → pid; one llama-server with SmolLM2 on loopback
  "$HYBRID_LLAMA_SERVER" -m "$HYBRID_SMOLLM2_GGUF" --host 127.0.0.1 --port "$1" -c 4096 >"$WORK/server-$1.log" 2>&1 &
  echo $!
}
wait_healthy() {
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$1/health" >/dev/null && return 0
    sleep 0.5
  done
  echo "llama-server on port $1 did not become healthy:"; tail -20 "$WORK/server-$1.log"; exit 1
}

LOCAL_PORT=$(free_port)
CLOUD_PORT=$(free_port)
LOCAL_PID=$(serve "$LOCAL_PORT"); PIDS+=("$LOCAL_PID")
CLOUD_PID=$(serve "$CLOUD_PORT"); PIDS+=("$CLOUD_PID")
wait_healthy "$LOCAL_PORT"
wait_healthy "$CLOUD_PORT"

export LOCAL_MODEL_URL="http://127.0.0.1:$LOCAL_PORT/v1"
export OPENAI_BASE_URL="http://127.0.0.1:$CLOUD_PORT/v1"
export OPENAI_API_KEY="loopback-test-key"

check() {  # expected servedBy id
  local out
  out="$("$BIN" 2>&1)" || { echo "quick start failed:"; echo "$out"; exit 1; }
  echo "$out" | sed 's/^/  | /'
  echo "$out" | grep -q "served by $1 " || { echo "expected an answer served by $1"; exit 1; }
}
echo "local SmolLM2 up:"
check llama-server
kill -9 "$LOCAL_PID"
wait "$LOCAL_PID" 2>/dev/null || true
echo "local SmolLM2 stopped:"
check openai-gpt-4o-mini
kill -9 "$CLOUD_PID"
wait "$CLOUD_PID" 2>/dev/null || true
echo "both stopped:"
out="$("$BIN" 2>&1)" || { echo "the quick start crashed when nothing answered:"; echo "$out"; exit 1; }
echo "$out" | sed 's/^/  | /'
echo "$out" | grep -q "The assistant could not be reached. Check your connection and try again." \
  || { echo "expected the user's message when nothing answers"; exit 1; }
echo "quick start: typed answer on device, the cloud fallback when the local model is down, a readable error when nothing answers"

# The README's harness quick start, as written, from a fresh folder outside the checkout: a HOME of its own, so
# `~/hybrid-try` is new and `hybrid` finds the local model the way a newcomer's shell does, through the per-machine
# record `make setup` wrote (copied into that HOME), not the checkout's `.hybrid/`. `hybrid view` is left out: it
# serves until Ctrl-C.
MACHINE_RECORD="${XDG_CONFIG_HOME:-$HOME/.config}/hybridai/local-model.env"
[ -f "$MACHINE_RECORD" ] || { echo "make setup wrote no per-machine record at $MACHINE_RECORD"; exit 1; }
mkdir -p "$WORK/home/.config/hybridai"
cp "$MACHINE_RECORD" "$WORK/home/.config/hybridai/"
readme_block "## Harness quick start" sh | grep -vx '[[:space:]]*hybrid view[[:space:]]*' >"$WORK/harness-quickstart.sh"
start=$(date +%s)
(cd "$ROOT" && env -u HYBRID_LLAMA_SERVER -u HYBRID_SMOLLM2_GGUF -u XDG_CONFIG_HOME HOME="$WORK/home" \
  bash -euo pipefail "$WORK/harness-quickstart.sh") >"$WORK/harness-quickstart.log" 2>&1 \
  || { echo "the README's harness quick start failed from a fresh folder:"; tail -30 "$WORK/harness-quickstart.log"; exit 1; }
TRY="$WORK/home/hybrid-try"
for made in reports/summarize-try1/report.md .hybrid/recommended.config.json; do
  [ -f "$TRY/$made" ] || { echo "the harness quick start left no $made in its folder:"; tail -30 "$WORK/harness-quickstart.log"; exit 1; }
done
if grep -q "not installed" "$WORK/harness-quickstart.log"; then
  echo "hybrid did not find the installed local model from a fresh folder:"; grep -n "not installed" "$WORK/harness-quickstart.log"; exit 1
fi
echo "harness quick start: run as written from a fresh folder in $(( $(date +%s) - start )) s (models, eval, report, recommend, the router check, a dry-run publish)"
