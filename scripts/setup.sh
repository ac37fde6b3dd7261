#!/usr/bin/env bash
# The README's first command: install everything, build, then start docloom's headless service.
# It prints the API base URL, the GUI sign-in link and how to get an API token. Ctrl+C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
exec node bin/docloom.js serve
