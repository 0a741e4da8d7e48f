# HybridAI — the two commands a newcomer needs are `make run` and `make test`; both install what they need.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

# Debian packages the build and the tests need: libcurl (transport), SQLite (store), pkg-config (finds libcurl),
# cmake (builds llama-server), nginx (the config-fetch test server), chromium (renders the HTML report in a test),
# postgresql (the shared-store tests start their own throwaway server from its programs; none is left running),
# zlib1g-dev (gzip for the event uploader, CZlib), libpq-dev (the shared PostgreSQL store's client, CLibPQ),
# libssl-dev (SHA-256 and Ed25519 from the system libcrypto on Linux, CLibCrypto; apps on Apple platforms use CryptoKit).
RUN_PACKAGES := libcurl4-openssl-dev libsqlite3-dev pkg-config cmake python3-venv zlib1g-dev libpq-dev libssl-dev
APT_PACKAGES := $(RUN_PACKAGES) nginx-light chromium postgresql
SWIFT_BUILD_FLAGS ?=

.PHONY: all deps deps-run setup build run test test-app otlp bench bench-build clean help local-server

# `make` alone says what there is; `make run` and `make test` are the two commands the README opens with.
all: help

help:
	@echo "make run    set up the local model and run the main job end to end"
	@echo "make test   set up and run the whole test suite"
	@echo "make test-app  the app half's tests alone (no curl, SQLite, PostgreSQL, nginx or Chromium needed)"
	@echo "make otlp   build .build/debug/hybrid-otlp: hybrid with OTLP export (--otlp-endpoint)"
	@echo "make build  swift build of every product (hybrid, hybrid-otlp, hybrid-bench, the tools)"
	@echo "make bench  build in release mode and print benchmark figures"
	@echo "make bench-build  time a clean clone's builds (app products, hybrid, tests) and each package's share"
	@echo "make setup  install system packages, llama-server and SmolLM2 (idempotent)"
	@echo "make local-server  serve SmolLM2 on http://127.0.0.1:8080/v1 for the README's app quick start"

# Installs the Debian packages missing from $(1), or says which and how when it cannot.
define install_packages
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  { $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; } \
	    || { echo "could not install the Debian packages:$$missing; install them with: sudo apt-get install -y$$missing" >&2; exit 1; }; \
	fi
endef

deps:
	$(call install_packages,$(APT_PACKAGES))

# `make run` needs neither nginx, Chromium nor PostgreSQL (tests start them).
deps-run:
	$(call install_packages,$(RUN_PACKAGES))

setup: deps
	@bash scripts/setup-local-model.sh
	@# The second opinion the JSON Schema property tests compare the validator with (HybridCoreTests).
	@.venv/bin/python -c 'import jsonschema' 2>/dev/null || .venv/bin/pip install --quiet 'jsonschema==4.26.0'
	@# The raw Python client `hybrid-bench cli` compares the CLI with (issue #10's reference).
	@.venv/bin/python -c 'import aiohttp' 2>/dev/null || .venv/bin/pip install --quiet 'aiohttp==3.14.5'

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

# The main job end to end on the embedded local model, each step timed: scripts/run.sh says what it runs.
run:
	@bash scripts/run.sh

# Every check and test of both halves, each step timed: scripts/test.sh.
test:
	@bash scripts/test.sh

# The app half's tests alone (Tests/App as a package of its own over the app products), without any of the
# harness's system packages or servers: scripts/test-app.sh.
test-app:
	@bash scripts/test-app.sh

# `hybrid-otlp`: hybrid's commands with HybridOTLP, so `eval --otlp-endpoint` and `ask --otlp-endpoint` send their spans
# to an OpenTelemetry backend. swift-otel, its HTTP client, TLS and protobuf take minutes to build, so `make run`'s
# `hybrid` leaves them out; both share .build (`make test` builds hybrid-otlp with the tests).
otlp: deps-run
	swift build $(SWIFT_BUILD_FLAGS) --product hybrid-otlp
	@echo "built .build/debug/hybrid-otlp: hybrid's commands, with --otlp-endpoint"

BENCHMARKS ?= transport config runner router report cli view workers ingest hedge
# Release builds; hybrid-bench links HybridOTLP, so `router` has its OTLP exporter row.
bench: setup
	swift build -c release --product hybrid-bench
	swift build -c release --product hybrid
	@uptime
	@for b in $(BENCHMARKS); do .build/release/hybrid-bench $$b || exit 1; done

# SmolLM2 on http://127.0.0.1:8080/v1 for the README's app quick start (the server `make setup` built; Ctrl-C stops it).
local-server: setup
	@. .hybrid/local-model.env; \
	echo "serving $$HYBRID_SMOLLM2_GGUF on http://127.0.0.1:8080/v1 (--jinja: the chat template's tool calls, as docs/app-integration.md says)"; \
	exec "$$HYBRID_LLAMA_SERVER" -m "$$HYBRID_SMOLLM2_GGUF" --host 127.0.0.1 --port 8080 --jinja

# A newcomer's first build, measured from a clean clone (docs/benchmarks.md keeps the last figures).
bench-build: deps
	bash scripts/bench-build.sh

clean:
	rm -rf .build .build-app .build-quickstart .hybrid
