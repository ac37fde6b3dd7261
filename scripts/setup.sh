#!/usr/bin/env bash
# The README's first command: install everything, build, then start docloom's headless service.
# It prints the API base URL, the GUI sign-in link and how to get an API token. Ctrl+C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
# On the Node the desktop app ships (24; scripts/shipped-node.sh), not an end-of-life system Node: what the desktop's
# users run, and 5–15 % less CPU per document than Node 20 on a quiet machine (docs/benchmarks.md, session 17).
node_bin="$(bash scripts/shipped-node.sh)"
echo "docloom: starting the service on Node $("$node_bin" --version) ($node_bin)"
exec "$node_bin" bin/docloom.js serve
