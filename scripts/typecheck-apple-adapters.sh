#!/usr/bin/env bash
# Type-checks the Apple Foundation Models adapters on Linux against a stub of the FoundationModels API
# (scripts/apple-sdk-stubs/FoundationModels.swift, transcribed from Apple's documentation pages). This catches
# mistakes in our code (labels, types, typed throws, Sendable, name clashes with Apple's own `LanguageModel`); it
# cannot prove that Apple's SDK matches the stub. The `compiler(>=6.4)` guard of the 27 SDK code is lifted for the
# check so the Private Cloud Compute adapter is type-checked too. Run by `make test` after the build (it needs the debug HybridCore module).
set -euo pipefail
cd "$(dirname "$0")/.."
modules=$(swift build --show-bin-path)/Modules
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -emit-module -parse-as-library -swift-version 6 -module-name FoundationModels \
    scripts/apple-sdk-stubs/FoundationModels.swift -emit-module-path "$work/FoundationModels.swiftmodule"
cp Sources/App/HybridProviders/AppleFoundationModels/*.swift "$work/"
sed -i 's/compiler(>=6.4)/compiler(>=6.0)/' "$work"/*.swift
swiftc -typecheck -swift-version 6 -warnings-as-errors \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -I "$work" -I "$modules" -module-name HybridProviders -package-name hybridai "$work"/*.swift
echo "Apple adapters type-check against the documented-API stub"
