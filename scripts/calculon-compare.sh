#!/usr/bin/env bash
# Times `fabricplan plan --json` against Calculon on Calculon's own
# example run, whole processes side by side (hyperfine), and prints
# each one's peak resident memory:
#
#   scripts/calculon-compare.sh CALCULON_DIR
#
# CALCULON_DIR is a checkout of https://github.com/calculon-ai/calculon.
# Its example is Megatron-1T on 3,072 A100 (models/megatron-1T.json,
# examples/3072_t4_p64_d12_mbs4_full.json, systems/a100_80g.json);
# docs/scenarios/calculon-megatron-1t-3072.toml is the same run as our
# scenario. Calculon needs numpy, pandas and psutil; run as root, the
# script installs them (and hyperfine) from Debian when they are missing.
# Ours runs twice: the headless build (-tags nogui, every command) and
# the lean one (-tags "nogui nocharts": no chart package linked or
# initialised; export and report say so). Issue 49's target: ours at
# least 30 times faster, under 30 MiB.
set -euo pipefail
cd "$(dirname "$0")/.."

calc=${1:?usage: scripts/calculon-compare.sh CALCULON_DIR}
calc=$(cd "$calc" && pwd)
py=/usr/bin/python3
if ! $py -c 'import numpy, pandas, psutil' 2>/dev/null || ! command -v hyperfine >/dev/null; then
	if [ "$(id -u)" = 0 ]; then
		apt-get update -qq && apt-get install -y -qq python3-numpy python3-pandas python3-psutil hyperfine >/dev/null
	else
		echo "calculon-compare: needs python3-numpy, python3-pandas, python3-psutil and hyperfine" >&2
		exit 1
	fi
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -tags "migrated_fynedo nogui" -o "$out/fabricplan" .
go build -tags "migrated_fynedo nogui nocharts" -o "$out/fabricplan-lean" .
run="plan --json docs/scenarios/calculon-megatron-1t-3072.toml"
ours="$out/fabricplan $run"
lean="$out/fabricplan-lean $run"
theirs="env PYTHONPATH=$calc $py $calc/bin/calculon llm $calc/models/megatron-1T.json $calc/examples/3072_t4_p64_d12_mbs4_full.json $calc/systems/a100_80g.json $out/calculon.json"
hyperfine -N --warmup 3 --runs 30 "$ours" "$lean" "$theirs"
for cmd in "$ours" "$lean" "$theirs"; do
	/usr/bin/time -f "peak RSS %M KB, CPU %U s user + %S s system: ${cmd%% *}" $cmd >/dev/null
done
