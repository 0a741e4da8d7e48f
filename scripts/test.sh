#!/usr/bin/env bash
# `make test`: every check and test of both halves, each step timed (summary at the end).
#
# Swift blocks of README.md and docs/ are written into Tests/App/HybridDocSnippetTests and compiled with the tests;
# the README's app quick start is then built as a fresh package and run against SmolLM2 and a loopback fallback.
# Tests run in two passes: all but SERIAL_TESTS three at a time, then SERIAL_TESTS one at a time (suites that share
# the one local model server or measure time against a floor: on 2 cores, parallel suites that start llama-server,
# Chromium and CLI child processes starve each other for seconds, and those would fail for reasons not their own).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/steps.sh
require_swift
read -r -a SWIFT_FLAGS <<<"${SWIFT_BUILD_FLAGS:-}"

SERIAL_TESTS='TransportConformanceTests|HybridDocSnippetTests\.conforms|CurlTransportOnLoopConformanceTests|URLSessionTransportLimitsTests|LoopEndToEndTests|FieldLoopEndToEndTests|SegmentLoopEndToEndTests|LocalLlamaModelTests|LocalLlamaConformanceTests|ModelFactoryTests|RouterLocalModelFallbackTests|RouterHedgeLocalModelTests|RouterStreamRecoveryWireTests|EvalEndToEndTests|PortableSpendLedgerTests|DurabilityTests|FileSpendLedgerCrashTests|CurlTransportTimeoutTests|HTTPBatchEventUploaderTests|MeasuredProcessTests|DocSnippetRunTests|RolloutEndToEndTests|PhoenixTelemetryTests'

step "setup (system packages, llama-server, SmolLM2, Python tools)" make --no-print-directory setup
# Arize Phoenix (PhoenixTelemetryTests' backend) installs from PyPI while the Swift builds run: mostly download.
mkdir -p .hybrid
bash scripts/setup-phoenix.sh >.hybrid/phoenix-setup.log 2>&1 &
PHOENIX_SETUP=$!
phoenix_ready() { wait "$PHOENIX_SETUP" || { cat .hybrid/phoenix-setup.log >&2; return 1; }; }
step "lint" bash scripts/lint.sh
step "public API list" python3 scripts/public-api.py --check
step "doc snippets written" python3 scripts/extract-doc-snippets.py
step "swift build --build-tests" swift build --build-tests "${SWIFT_FLAGS[@]}"
step "Apple adapters type-check" bash scripts/typecheck-apple-adapters.sh
step "tests, three at a time" swift test --disable-xctest --skip-build --parallel --experimental-maximum-parallelization-width 3 \
  --skip "$SERIAL_TESTS" "${SWIFT_FLAGS[@]}"
step "Arize Phoenix (installed in the background)" phoenix_ready
step "tests that need the machine, one at a time" swift test --disable-xctest --skip-build --no-parallel --filter "$SERIAL_TESTS" "${SWIFT_FLAGS[@]}"
step "README quick start as a fresh package" bash scripts/check-quickstart.sh
steps_summary
