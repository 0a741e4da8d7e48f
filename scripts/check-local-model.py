#!/usr/bin/env python3
"""Proves that a llama-server build and a GGUF model answer on this machine: starts the server once on a free
loopback port, asks for a few tokens through /v1/chat/completions, and stops it.

Run by scripts/setup-local-model.sh after every build and on every `make setup`, so a server that cannot run here
(a build for another CPU, missing libraries, a corrupt model) stops setup with the cause and the remedy instead of
turning every eval result into "unavailable" later. Exit 0 with one line on success; exit 1 with the cause, the
log's path and its last lines otherwise.
"""
import argparse, json, os, signal, socket, subprocess, sys, tempfile, time, urllib.error, urllib.request

# What each fatal signal most likely means for llama-server; the Swift side says the same (ChildProcessExit.swift).
MEANINGS = {
    signal.SIGILL: ("illegal instruction", "this llama-server build uses CPU instructions this machine refuses"),
    signal.SIGKILL: ("killed", "something killed it, most often the kernel's out-of-memory killer (see `dmesg`)"),
    signal.SIGSEGV: ("segmentation fault", "it crashed; a corrupt model file or a broken build"),
    signal.SIGBUS: ("bus error", "it crashed reading memory; a truncated model file or a full disk"),
    signal.SIGABRT: ("aborted", "it stopped itself on an internal error; the log's last lines say which"),
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tail(path, lines=15):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return "(no log)\n"


def describe_exit(code):
    if code < 0:
        sig = signal.Signals(-code)
        name, meaning = MEANINGS.get(sig, (signal.strsignal(sig) or "signal", "it was stopped by a signal"))
        return f"llama-server was killed by {sig.name} ({name}): {meaning}"
    return f"llama-server exited with status {code} before it answered"


def ask(port, timeout):
    body = json.dumps({"messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 8,
                       "temperature": 0}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/chat/completions", data=body,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        answer = json.load(r)
    tokens = answer.get("usage", {}).get("completion_tokens", 0)
    if tokens < 1:
        raise RuntimeError(f"the server answered with no generated tokens: {json.dumps(answer)[:400]}")
    return tokens, answer["choices"][0]["message"].get("content", "")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", required=True)
    p.add_argument("--model", required=True)
    p.add_argument("--remedy", default="make setup")
    p.add_argument("--timeout", type=float, default=120)
    a = p.parse_args()
    port = free_port()
    log = tempfile.NamedTemporaryFile(prefix="hybrid-setup-llama-server-", suffix=".log", delete=False)
    started = time.monotonic()
    proc = subprocess.Popen([a.server, "-m", a.model, "--host", "127.0.0.1", "--port", str(port), "-c", "512",
                             "--parallel", "1", "--no-webui"], stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    failure = None
    try:
        while time.monotonic() - started < a.timeout:
            if proc.poll() is not None:
                failure = describe_exit(proc.returncode)
                break
            try:
                tokens, text = ask(port, a.timeout)
                print(f"local model answers: {tokens} tokens in {time.monotonic() - started:.1f} s "
                      f"({text.strip()[:40]!r})")
                return 0
            except urllib.error.HTTPError as e:
                if e.code != 503:  # 503: still loading the model
                    failure = f"llama-server answered HTTP {e.code}: {e.read()[:300]!r}"
                    break
            except (ConnectionError, urllib.error.URLError, socket.timeout):
                pass
            time.sleep(0.2)
        else:
            failure = f"llama-server did not answer within {a.timeout:.0f} s"
        # A request in flight when the server died shows up as a reset connection: report the death, not the reset.
        time.sleep(0.3)
        if proc.poll() is not None and not failure.startswith("llama-server was killed"):
            failure = describe_exit(proc.returncode)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    print(f"setup: the local model does not answer on this machine.\n  cause: {failure}\n"
          f"  server: {a.server}\n  model: {a.model}\n  log: {log.name}, last lines:\n"
          + "".join(f"    {line}" for line in tail(log.name).splitlines(keepends=True))
          + f"  remedy: {a.remedy}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
