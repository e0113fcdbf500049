#!/usr/bin/env bash
# Installs what is missing and opens Fabric Planner on the default
# scenario (a 1,024-GPU InfiniBand NDR cluster). Extra arguments go to the
# app, e.g. scripts/run.sh data/scenarios/eth-800g-16k.toml
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
go build -tags migrated_fynedo -o fabricplan .
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run: no display; opening the window on a virtual one (Xvfb) instead." >&2
  exec xvfb-run -a -s "-screen 0 1600x1000x24" ./fabricplan "${@:-data/scenarios/ib-ndr-1k.toml}"
fi
exec ./fabricplan "${@:-data/scenarios/ib-ndr-1k.toml}"
