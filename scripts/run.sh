#!/usr/bin/env bash
# `make run`: the main job end to end on the embedded local model, each step timed (summary at the end).
#
# Every bundled dataset through every arm of its feature on SmolLM2 (cloud arms without keys are stored as
# unavailable), the reports, SmolLM2 judging the two summarize variants against each other (stored with the run, so
# its report shows them) and re-scoring the run as a rubric judge measured first on answers people scored (its report
# prints that reliability), then the routing recommendation, the input rule a run supports (or why none), the proof that the real router does what it simulated
# (each run replayed through the Router), and the config diff it would publish (a dry run: nothing is uploaded).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/steps.sh
require_swift

TAG="$(date -u +%Y%m%d-%H%M%S)"
HYBRID=.build/debug/hybrid
read -r -a SWIFT_FLAGS <<<"${SWIFT_BUILD_FLAGS:-}"

step "system packages (what make run needs)" make --no-print-directory deps-run
step "llama-server and SmolLM2 (built once per machine)" bash scripts/setup-local-model.sh
step "swift build --product hybrid" swift build "${SWIFT_FLAGS[@]}" --product hybrid
step "hybrid models" "$HYBRID" models
step "eval summarize" "$HYBRID" eval --feature summarize --dataset datasets/summarize.jsonl --run-id "summarize-$TAG"
step "eval extract" "$HYBRID" eval --feature extract --dataset datasets/extract.jsonl --run-id "extract-$TAG"
step "judge-pairs summarize" "$HYBRID" judge-pairs "summarize-$TAG" --arms concise@local-smollm2,bullet@local-smollm2 \
  --judge local-smollm2 --labels datasets/summarize-pair-labels.jsonl
step "report summarize" "$HYBRID" report "summarize-$TAG"
step "report extract" "$HYBRID" report "extract-$TAG"
step "eval assistant (tools)" "$HYBRID" eval --feature assistant --dataset datasets/tools.jsonl --run-id "tools-$TAG"
step "report tools" "$HYBRID" report "tools-$TAG"
step "rescore summarize (judge)" "$HYBRID" rescore "summarize-$TAG" --run-id "summarize-judged-$TAG" \
  --judge local-smollm2 --judge-labels datasets/summarize-judge-calibration.jsonl
step "report summarize-judged" "$HYBRID" report "summarize-judged-$TAG"
step "recommend" "$HYBRID" recommend "summarize-$TAG" "extract-$TAG" --out .hybrid/recommended.config.json
step "recommend --by-input summarize" "$HYBRID" recommend "summarize-$TAG" --by-input
step "simulate --check-router summarize" "$HYBRID" simulate "summarize-$TAG" --check-router --config .hybrid/recommended.config.json
step "simulate --check-router extract" "$HYBRID" simulate "extract-$TAG" --check-router --config .hybrid/recommended.config.json
step "config publish --dry-run" "$HYBRID" config publish .hybrid/recommended.config.json \
  --to "file://$PWD/.hybrid/published/hybrid.config.json" --dry-run
steps_summary
