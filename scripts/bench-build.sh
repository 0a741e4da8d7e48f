#!/usr/bin/env bash
# `make bench-build`: what a newcomer's first build costs, measured from a clean clone of this checkout's HEAD in a
# temporary folder (nothing of this checkout's .build is reused): dependency resolution, the app products alone
# (`swift build --product HybridAI`), the `hybrid` CLI that `make run` builds, and the tests `make test` builds on top.
# Then one row per package with the wall time its modules took to compile, read from the first and last object file
# each module wrote (modules of different packages compile in parallel on 2 cores, so rows overlap and do not add up).
# apt packages and the llama-server build are not included (`make setup` is idempotent and cached per machine).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export PATH="$PATH:/opt/swift/usr/bin"

load() { cut -d' ' -f1-3 /proc/loadavg; }
step() {  # label, then the command
  local label="$1"; shift
  local start end
  start=$(date +%s)
  "$@" >"$WORK/step.log" 2>&1 || { tail -30 "$WORK/step.log"; exit 1; }
  end=$(date +%s)
  printf '| %s | %d s | %s |\n' "$label" $((end - start)) "$(load)"
}

git clone -q "$ROOT" "$WORK/clone"
cd "$WORK/clone"
echo "clean clone of $(git log --oneline -1 | cut -c1-60) on $(nproc) cores, load $(load) at the start"
echo
echo "| step | wall time | load after (1, 5, 15 min) |"
echo "|---|---|---|"
step "resolve dependencies" swift package resolve
step "app products alone: swift build --product HybridAI (separate scratch path)" \
  swift build --product HybridAI --scratch-path "$WORK/app-only"
step "make run's build: swift build --product hybrid" swift build --product hybrid
step "make test's build on top: swift build --build-tests" swift build --build-tests

echo
echo "Per package, from the object files of the full build (first to last .o written, seconds):"
echo
echo "| package | modules | compile span |"
echo "|---|---|---|"
python3 - "$WORK/clone/.build" <<'PY'
import json, os, pathlib, sys
build = pathlib.Path(sys.argv[1])
debug = build / "debug"
# Which package each module comes from: its sources' folder under .build/checkouts, else this package.
owners = {}
for checkout in (build / "checkouts").iterdir():
    for folder in ("Sources", "Sources/_CShims"):
        root = checkout / folder
        if root.is_dir():
            for module in root.iterdir():
                owners.setdefault(module.name, checkout.name)
spans = {}
for module_dir in debug.glob("*.build"):
    times = [p.stat().st_mtime for p in module_dir.rglob("*.o")]
    if not times:
        continue
    name = module_dir.name[:-len(".build")]
    owner = owners.get(name, "HybridAI (this package)" if any((pathlib.Path(sys.argv[1]).parent / "Sources").glob("*/" + name))
                       or name.startswith("Hybrid") or name.startswith("hybrid") else "other")
    first, last, count = spans.get(owner, (min(times), max(times), 0))
    spans[owner] = (min(first, min(times)), max(last, max(times)), count + 1)
for owner, (first, last, count) in sorted(spans.items(), key=lambda item: item[1][0] - item[1][1]):
    print(f"| {owner} | {count} | {last - first:.0f} s |")
PY
