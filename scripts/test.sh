#!/usr/bin/env bash
# Installs what is missing and runs the whole test suite: unit, property,
# fuzz-seed, golden-image and headless GUI tests, plus the real window
# under Xvfb in screenshot mode (gui_test.go).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
export LANG=en_US.UTF-8
# migrated_fynedo: the threading model FyneApp.toml declares ([Migrations] fyneDo).
go mod tidy -diff # go.mod and go.sum say exactly what the code imports
unformatted=$(gofmt -l .)
[ -z "$unformatted" ] || { echo "gofmt: not formatted: $unformatted" >&2; exit 1; }
go vet -tags migrated_fynedo ./...
go vet -tags "migrated_fynedo screenshot" . # the screenshot mode, built for tests and docs only
# staticcheck, pinned; staticcheck.conf turns every check on, package
# comments included.
GOBIN="$(go env GOPATH)/bin" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
"$(go env GOPATH)/bin/staticcheck" -tags migrated_fynedo,screenshot ./...
xvfb-run -a -s "-screen 0 1600x1000x24" go test -timeout 60m -tags migrated_fynedo -count=1 ./...
# The packages with goroutines (background opens, search, report) under
# the race detector.
xvfb-run -a -s "-screen 0 1600x1000x24" go test -race -timeout 60m -tags migrated_fynedo -count=1 ./app/... ./planner ./charts ./internal/...
# Where the JCT model stands: every published point, its error and fit;
# fails when a point not used to fit a constant drifts past its tolerance.
go run -tags migrated_fynedo . validate
