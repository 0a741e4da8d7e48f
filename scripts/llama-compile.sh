#!/usr/bin/env bash
# The compiler launcher for the llama-server build (CMAKE_<LANG>_COMPILER_LAUNCHER). Where inference spends its time
# keeps upstream's optimisation: ggml (the tensor kernels, -O3). libllama (`src/`: the model graph, KV cache, the
# sampler chain) runs once per token and compiles at -O1. Everything else (common's argument parsing, chat templates
# and per-model output parsers, the HTTP server and its HTTP library, the multimodal library the server links but
# SmolLM2 never runs) runs once per request or never, and compiles unoptimised (-O0). Unity batches (scripts/llama-unity.cmake) arrive as `.cxx`/`.c` files
# under the same folders, so the rules hold for them too.
# docs/benchmarks.md has the build times and SmolLM2's tokens per second of both builds.
# With HYBRID_LLAMA_COMPILE_LOG set, each compile's seconds and source are appended to that file.
set -u
started=$(date +%s.%N)
source_file=""
for argument in "$@"; do
  case "$argument" in *.c | *.cpp | *.cc | *.cxx) source_file="$argument" ;; esac
done
case "$source_file" in
  */ggml/*) level="" ;;
  */src/*) level=-O1 ;;
  *) level=-O0 ;;
esac
command=()
for argument in "$@"; do
  case "$argument" in -O1 | -O2 | -O3) [ -n "$level" ] && argument="$level" ;; esac
  command+=("$argument")
done
"${command[@]}"
status=$?
if [ -n "${HYBRID_LLAMA_COMPILE_LOG:-}" ] && [ -n "$source_file" ]; then
  printf '%s %s\n' "$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" "$source_file" >>"$HYBRID_LLAMA_COMPILE_LOG"
fi
exit $status
