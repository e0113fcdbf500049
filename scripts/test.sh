#!/usr/bin/env bash
# Installs what is missing and runs the whole test suite: unit, property,
# fuzz-seed, golden-image and headless GUI tests, plus the real window
# under Xvfb in screenshot mode (gui_test.go).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
export LANG=en_US.UTF-8
# migrated_fynedo: the threading model FyneApp.toml declares ([Migrations] fyneDo).
go vet -tags migrated_fynedo ./...
xvfb-run -a -s "-screen 0 1600x1000x24" go test -tags migrated_fynedo -count=1 ./...
