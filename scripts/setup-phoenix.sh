#!/usr/bin/env bash
# Arize Phoenix from PyPI in a virtualenv of its own (.hybrid/phoenix), for the test that sends the router's and an
# eval's spans to a real OpenTelemetry backend and reads them back (PhoenixTelemetryTests). Its own virtualenv:
# Phoenix pins many packages (FastAPI, SQLAlchemy, grpcio, pandas) that the project's .venv must not inherit.
# Idempotent; about 3 minutes the first time on 2 cores (bytecode is not compiled ahead: Phoenix starts once per run).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION="20.26.1"
VENV=.hybrid/phoenix
if [ -x "$VENV/bin/phoenix" ] && "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('arize-phoenix') != '$VERSION')" 2>/dev/null; then
  exit 0
fi
python3 -m venv "$VENV" || { echo "could not create $VENV: install python3-venv (sudo apt-get install -y python3-venv)" >&2; exit 1; }
"$VENV/bin/pip" install --quiet --no-compile --disable-pip-version-check "arize-phoenix==$VERSION" \
  || { echo "could not install arize-phoenix==$VERSION from PyPI into $VENV (is PyPI reachable?)" >&2; exit 1; }
echo "Phoenix $VERSION in $VENV"
