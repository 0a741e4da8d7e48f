#!/usr/bin/env bash
# `make test-app`: the app half's tests alone (Tests/App, a package of its own over the app products), each step timed.
# Needs Swift and the two system libraries the app half links on Linux (libcrypto, zlib); none of the harness's
# (libcurl, SQLite, libpq) nor its servers (nginx, Chromium, PostgreSQL, llama-server).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/steps.sh
require_swift

if [ "$(uname -s)" = Linux ]; then
  missing=""
  [ -f /usr/include/openssl/evp.h ] || missing="$missing libssl-dev"
  [ -f /usr/include/zlib.h ] || missing="$missing zlib1g-dev"
  if [ -n "$missing" ]; then
    echo "make test-app: the app half links the system's libcrypto and zlib on Linux; install them: apt-get install -y$missing" >&2
    exit 1
  fi
fi

APP_SERIAL='HybridDocSnippetTests\.conforms|URLSessionTransportLimitsTests|PortableSpendLedgerTests'
APP=(--package-path Tests/App --scratch-path .build-app)
step "doc snippets written" python3 scripts/extract-doc-snippets.py
step "swift build --build-tests (Tests/App)" swift build "${APP[@]}" --build-tests
step "app tests, three at a time" swift test "${APP[@]}" --disable-xctest --skip-build --parallel --experimental-maximum-parallelization-width 3 \
  --skip "$APP_SERIAL"
step "app tests that time themselves, one at a time" swift test "${APP[@]}" --disable-xctest --skip-build --no-parallel --filter "$APP_SERIAL"
echo
echo "Left to make test (Tests/Harness: curl, SQLite, PostgreSQL, nginx, Chromium or the local model):"
ls Tests/Harness | sed 's/^/  /'
steps_summary
