#!/usr/bin/env bash
# Installs what is missing and runs the whole test suite: unit, property,
# fuzz-seed, golden-image and headless GUI tests, plus the real window
# under Xvfb in screenshot mode (gui_test.go).
#
#   scripts/test.sh                  everything, then the gates (scripts/gates.sh)
#   scripts/test.sh --refresh-gates  only rewrite the gates' lists from the code as it
#                                    is (after a merge or a split); review their diff
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --refresh-gates ]; then
	exec scripts/gates.sh refresh
fi
scripts/deps.sh
export LANG=en_US.UTF-8
# migrated_fynedo: the threading model FyneApp.toml declares ([Migrations] fyneDo).
go mod tidy -diff # go.mod and go.sum say exactly what the code imports
unformatted=$(gofmt -l .)
[ -z "$unformatted" ] || { echo "gofmt: not formatted: $unformatted" >&2; exit 1; }
go vet -tags migrated_fynedo ./...
go vet -tags "migrated_fynedo screenshot" . # the screenshot mode, built for tests and docs only
go vet -tags "migrated_fynedo nogui" .      # the headless build, with no GUI package
go vet -tags "migrated_fynedo nogui nocharts" . ./cli # the lean build: no chart package either
# staticcheck, pinned; staticcheck.conf turns every check on, package
# comments included.
GOBIN="$(go env GOPATH)/bin" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
"$(go env GOPATH)/bin/staticcheck" -tags migrated_fynedo,screenshot ./...
# With -cover, so the coverage floor reads this run's figures.
covlog=$(mktemp)
trap 'rm -f "$covlog"' EXIT
xvfb-run -a -s "-screen 0 1600x1000x24" go test -timeout 60m -tags migrated_fynedo -count=1 -cover ./... | tee "$covlog"
# The ratchets: no function may newly pass cyclomatic 15 or grow past its
# listed figure, and no package's coverage may drop below its floor.
gates=0
scripts/gates.sh cyclo || gates=1
scripts/gates.sh coverage "$covlog" || gates=1
[ "$gates" -eq 0 ] || { echo "test.sh: a gate failed (see above)" >&2; exit 1; }
# The race detector over what can race: the packages whose code starts
# goroutines (the window, background opens, search, phases) and,
# elsewhere, the tests that start goroutines or send a signal (the CLI's
# interrupted writes); scripts/race-targets.sh says which and why.
while read -r -a targets; do
	xvfb-run -a -s "-screen 0 1600x1000x24" go test -race -timeout 60m -tags migrated_fynedo -count=1 "${targets[@]}"
done < <(scripts/race-targets.sh)
# Where the JCT model stands: every published point, its error and fit;
# fails when a point not used to fit a constant drifts past its tolerance.
go run -tags migrated_fynedo . validate
