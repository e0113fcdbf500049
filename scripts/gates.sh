#!/usr/bin/env bash
# Two ratchets that keep the code from getting worse; scripts/test.sh runs
# them after the tests.
#
#   scripts/gates.sh cyclo              functions over cyclomatic 15 may only leave
#                                       scripts/gocyclo-allow.txt, and none on it may grow
#   scripts/gates.sh coverage LOG       each package's coverage in LOG (the output of
#                                       go test -cover ./...) stays at or above its line
#                                       in scripts/coverage-floor.txt
#   scripts/gates.sh refresh [LOG]      rewrite both files from the code as it is now
#                                       (runs the tests with -cover when no LOG is given);
#                                       after a merge or a split, then review the diff
#
# gocyclo is pinned and installs from the Go module proxy.
set -euo pipefail
cd "$(dirname "$0")/.."
export LANG=en_US.UTF-8

readonly LIMIT=15
readonly ALLOW=scripts/gocyclo-allow.txt
readonly FLOOR=scripts/coverage-floor.txt
readonly GOCYCLO_VERSION=v0.6.0

gocyclo_bin() {
	local bin
	bin="$(go env GOPATH)/bin/gocyclo"
	if ! [ -x "$bin" ] || ! go version -m "$bin" 2>/dev/null | grep -q "gocyclo.*$GOCYCLO_VERSION"; then
		GOBIN="$(go env GOPATH)/bin" go install "github.com/fzipp/gocyclo/cmd/gocyclo@$GOCYCLO_VERSION"
	fi
	echo "$bin"
}

# current prints "complexity dir function" for every non-test function over
# LIMIT, sorted by dir and function; dir and function name it across
# moves between files of one package.
current() {
	local out rc=0
	# gocyclo exits 1 when it finds functions over the limit, 2 and up on errors.
	out=$("$(gocyclo_bin)" -over "$LIMIT" -ignore '(_test\.go|/testdata/.*)$' .) || rc=$?
	[ "$rc" -le 1 ] || { echo "gates: gocyclo failed ($rc)" >&2; exit "$rc"; }
	[ -n "$out" ] || return 0
	printf '%s\n' "$out" |
		awk '{ f = $NF; sub(/:[0-9]+:[0-9]+$/, "", f); n = split(f, p, "/"); d = "."; if (n > 1) { d = p[1]; for (i = 2; i < n; i++) d = d "/" p[i] }
			print $1, d, $3 }' | LC_ALL=C sort -k2,3
}

allow_header() {
	cat <<EOF
# Functions over cyclomatic complexity $LIMIT (gocyclo $GOCYCLO_VERSION, tests
# excluded) that were there before the ratchet: complexity, package dir,
# function. scripts/gates.sh cyclo fails when a function not listed goes
# over $LIMIT, when a listed one grows, and when a listed one has dropped
# to $LIMIT or below or is gone (then delete its line). Split functions
# instead of adding lines; scripts/gates.sh refresh rewrites the list.
EOF
}

check_cyclo() {
	local now fail=0
	now=$(current)
	# join on "dir function"
	local report
	report=$(awk -v limit="$LIMIT" -v allow="$ALLOW" '
		FNR == NR { if ($0 !~ /^#/ && NF >= 3) { k = $2 " " $3; was[k] = $1; line[k] = $0 } next }
		{ k = $2 " " $3; seen[k] = 1
		  if (!(k in was)) printf "NEW    %s %s is at complexity %d, over %d: split it (it may not join %s)\n", $2, $3, $1, limit, allow
		  else if ($1 > was[k]) printf "GREW   %s %s went from %d to %d: split it back to %d or less\n", $2, $3, was[k], $1, was[k] }
		END { for (k in was) if (!(k in seen)) printf "DROPPED %s is now at %d or below (or gone): delete its line \"%s\" from %s\n", k, limit, line[k], allow }
	' "$ALLOW" <(printf '%s\n' "$now") | LC_ALL=C sort)
	if [ -n "$report" ]; then
		printf 'gates: cyclomatic ratchet failed:\n%s\n' "$report" >&2
		echo "gates: after a deliberate change (a merge, a split), scripts/gates.sh refresh rewrites $ALLOW; review its diff" >&2
		fail=1
	else
		echo "gates: cyclomatic ratchet ok: $(printf '%s\n' "$now" | grep -c . || true) functions over $LIMIT, none new, none grown ($ALLOW)"
	fi
	return $fail
}

# coverage_of LOG prints "package percent" for every package line of a go
# test -cover log ("ok  pkg  1.2s  coverage: 73.8% of statements", and
# "    pkg    coverage: 0.0% of statements" for packages without tests).
coverage_of() {
	awk '/coverage: [0-9.]+% of statements/ {
		p = ""; v = ""
		for (i = 1; i <= NF; i++) if ($i ~ /^fabricplan/) p = $i
		for (i = 1; i <= NF; i++) if ($i == "coverage:") { v = $(i + 1); sub(/%/, "", v) }
		if (p == "") { pending = v; next } # a failing package: its figure comes first
		print p, v; next }
		/^FAIL\t/ && pending != "" { print $2, pending; pending = "" }' "$1" | LC_ALL=C sort -u -k1,1
}

check_coverage() {
	local log=$1 report
	[ -s "$log" ] || { echo "gates: coverage: no test log at $log" >&2; return 1; }
	report=$(awk '
		FNR == NR { if ($0 !~ /^#/ && NF >= 2) floor[$1] = $2; next }
		{ got[$1] = $2 }
		END {
			for (p in floor) {
				if (!(p in got)) printf "MISSING %s: no coverage figure in the log (package gone or renamed? refresh the floors)\n", p
				else if (got[p] + 0 < floor[p] + 0) printf "BELOW  %s: %.1f%% of statements, floor %s%%: test the code you added or changed\n", p, got[p], floor[p]
			}
			for (p in got) if (!(p in floor)) printf "NEW    %s: %.1f%% has no floor: add \"%s %d\" to the floor file (scripts/gates.sh refresh)\n", p, got[p], p, (got[p] >= 1 ? int(got[p]) - 1 : 0)
		}' "$FLOOR" <(coverage_of "$log") | LC_ALL=C sort)
	if [ -n "$report" ]; then
		printf 'gates: coverage floor failed (%s):\n%s\n' "$FLOOR" "$report" >&2
		return 1
	fi
	echo "gates: coverage floor ok: every package at or above its floor ($FLOOR)"
}

refresh() {
	log=${1:-}
	{
		allow_header
		current
	} >"$ALLOW"
	echo "gates: wrote $ALLOW ($(grep -vc '^#' "$ALLOW" || true) functions over $LIMIT)"
	if [ -z "$log" ]; then
		log=$(mktemp)
		trap 'rm -f "$log"' EXIT
		if ! xvfb-run -a -s "-screen 0 1600x1000x24" go test -timeout 60m -tags migrated_fynedo -count=1 -cover ./... | tee "$log"; then
			echo "gates: the tests failed, so $FLOOR is left as it was; fix them (or, for a flaky run, keep the log with" >&2
			echo "gates: go test -cover ./... | tee LOG and run scripts/gates.sh refresh LOG) and refresh again" >&2
			exit 1
		fi
	fi
	{
		cat <<EOF
# Coverage floor per package: each package's own tests must cover at
# least this percentage of its statements (go test -cover). The figures
# are those of the last refresh, rounded down, less one point for the
# run-to-run noise of timing-dependent paths. scripts/gates.sh refresh
# rewrites them; raise a floor by hand when you add tests.
EOF
		coverage_of "$log" | awk '{ v = int($2) - 1; if (v < 0) v = 0; print $1, v }'
	} >"$FLOOR"
	echo "gates: wrote $FLOOR ($(grep -vc '^#' "$FLOOR" || true) packages)"
}

case "${1:-}" in
cyclo) check_cyclo ;;
coverage) check_coverage "${2:?give the go test -cover log}" ;;
refresh) refresh "${2:-}" ;;
*)
	sed -n '2,14p' "$0" >&2
	exit 2
	;;
esac
