#!/usr/bin/env bash
# Installs what Fabric Planner needs on Debian/Ubuntu and is not there yet:
# the C headers Fyne's cgo build needs (OpenGL, X11), Xvfb for headless GUI
# checks and poppler-utils (pdftotext, pdftoppm) and librsvg2-bin (rsvg-convert) for the
# export read-back tests, and ibutils (ibdmchk) to check the expected
# InfiniBand topology that `fabricplan cables --topo` writes.
set -euo pipefail

need=()
for pkg in gcc libgl1-mesa-dev xorg-dev xvfb xauth poppler-utils librsvg2-bin ibutils; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "deps: installing ${need[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
command -v go >/dev/null || { echo "deps: Go 1.26 or newer is required (https://go.dev/dl/)" >&2; exit 1; }
