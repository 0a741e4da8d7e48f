#!/usr/bin/env bash
# swift-format lint over Sources, Tests and Package.swift with the repository's .swift-format, rules only.
#
# Rules only: `--debug-disable-pretty-print` (a hidden flag of swift-format 6.x, shown by `lint --help-hidden`) skips
# the pretty-printer comparison, which would otherwise report ~1,100 whitespace findings (Indentation, AddLines,
# Spacing, TrailingComma, RemoveLine) that no configuration setting removes: the code's continuation indents and
# "hugged" nested calls like `f(T(` + newline are not a layout swift-format produces. swift-format has no
# configuration key for this (swiftlang/swift-format#764). The formatting keys in .swift-format still describe the
# house style for anyone running `swift-format format` on new code.
#
# Prints one summary line; exits 0 when there are no findings, 1 when there are, 2 when swift-format is missing.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

if command -v swift-format >/dev/null 2>&1; then
  SWIFT_FORMAT="$(command -v swift-format)"
elif [ -x /opt/swift/usr/bin/swift-format ]; then
  SWIFT_FORMAT=/opt/swift/usr/bin/swift-format
else
  echo "lint: swift-format not found on PATH or at /opt/swift/usr/bin/swift-format" >&2
  exit 2
fi

if ! "$SWIFT_FORMAT" lint --help-hidden 2>/dev/null | grep -q -- '--debug-disable-pretty-print'; then
  echo "lint: $SWIFT_FORMAT ($("$SWIFT_FORMAT" --version 2>/dev/null || echo '?')) has no --debug-disable-pretty-print" >&2
  exit 2
fi

OUT="$(mktemp)"
trap 'rm -f "$OUT"' EXIT

status=0
"$SWIFT_FORMAT" lint --strict --parallel --debug-disable-pretty-print --no-color-diagnostics \
  --configuration .swift-format --recursive Sources Tests Package.swift >"$OUT" 2>&1 || status=$?

# swift-format prints some findings twice; count distinct ones.
findings="$(sort -u "$OUT" | grep -c ': error: \[' || true)"
files="$(find Sources Tests -name '*.swift' | wc -l | tr -d ' ')"
if [ "$status" -eq 0 ] && [ ! -s "$OUT" ]; then
  echo "lint: swift-format $("$SWIFT_FORMAT" --version) rules-only lint of $((files + 1)) files: no findings"
  exit 0
fi
sort -u "$OUT" >&2
echo "lint: swift-format rules-only lint of $((files + 1)) files: $findings finding(s), swift-format exit $status" >&2
exit 1
