#!/usr/bin/env bash
# `make otlp`: `hybrid` with the package's `OTLP` trait, in a build folder of its own (.build-otlp), so the default
# build (`make run`, `make test`) never compiles swift-otel, AsyncHTTPClient, BoringSSL and swift-protobuf, and
# switching traits never recompiles either build. About 8 minutes the first time on 2 cores; then incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a SWIFT_FLAGS <<<"${SWIFT_BUILD_FLAGS:-}"
swift build --scratch-path .build-otlp --traits Harness,OTLP --product hybrid "${SWIFT_FLAGS[@]}"
echo "built .build-otlp/debug/hybrid (with --otlp-endpoint)"
