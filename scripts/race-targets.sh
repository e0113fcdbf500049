#!/usr/bin/env bash
# Prints what the race pass runs, one `go test` argument list a line:
#
#   - every package whose code starts goroutines (a go statement, or the
#     engine's workers in fabricplan/internal/workers), whole;
#   - in every other package, only the tests and fuzz targets defined in
#     test files that start goroutines themselves (go statements or
#     t.Parallel) or send the process a signal (syscall.Kill: the handler
#     runs on another goroutine), as one -run pattern.
#
# A test that starts no goroutine and calls no code that does cannot
# race, so running it under -race only costs time (the charts package
# took 33 minutes of a 50-minute CI run that way). Code that another
# package runs concurrently is checked through that package's tests:
# instrumentation covers every package in the test binary.
#
# The root package is left out: its tests run the app as a separate
# process, built without -race, so the detector sees none of the
# window's goroutines there (app/... checks them in process).
set -euo pipefail
cd "$(dirname "$0")/.."

module=$(go list -m)
goroutine='^[[:space:]]*(go (func|[A-Za-z_][A-Za-z0-9_.]*[(])|t[.]Parallel[(][)])'
concurrent="$goroutine|syscall[.]Kill[(]"
whole=()
partial=()
names=()
while IFS='|' read -r pkg dir imports gofiles testfiles; do
	[ "$pkg" = "$module" ] && continue
	starts=no
	case " $imports " in *" $module/internal/workers "*) starts=yes ;; esac
	for f in $gofiles; do
		grep -Eq "$goroutine" "$dir/$f" && starts=yes
	done
	if [ "$starts" = yes ]; then
		whole+=("$pkg")
		continue
	fi
	found=no
	for f in $testfiles; do
		grep -Eq "$concurrent" "$dir/$f" || continue
		found=yes
		while read -r name; do
			names+=("$name")
		done < <(sed -nE 's/^func ((Test|Fuzz)[A-Za-z0-9_]*)[(].*/\1/p' "$dir/$f")
	done
	[ "$found" = yes ] && partial+=("$pkg")
done < <(go list -tags migrated_fynedo -f '{{.ImportPath}}|{{.Dir}}|{{join .Imports " "}}|{{join .GoFiles " "}}|{{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}' ./...)

[ ${#whole[@]} -gt 0 ] && echo "${whole[*]}"
if [ ${#partial[@]} -gt 0 ] && [ ${#names[@]} -gt 0 ]; then
	pattern=$(printf '%s\n' "${names[@]}" | sort -u | paste -sd '|')
	echo "-run ^($pattern)\$ ${partial[*]}"
fi
