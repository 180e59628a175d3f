#!/usr/bin/env bash
# Runs every test: installs what the tests need (apt and pip packages), then the whole Maven build with
# unit and integration tests. Safe to run again; needs root for the installs on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-deps.sh
mvn -B -ntp verify
