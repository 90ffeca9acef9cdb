#!/usr/bin/env bash
# Fetches the PGN files Debian's chess packages ship (pgn-extract's eco.pgn, pychess's lessons
# and puzzles) into target/debian-pgn once, and prints their paths, one a line. Prints nothing
# (and says why on stderr) where apt-get is not available.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=target/debian-pgn
if [ ! -f "$dir/.done" ]; then
  if ! command -v apt-get >/dev/null; then
    echo "debian-pgn: no apt-get here; the PGN comparison with python-chess is skipped" >&2
    exit 0
  fi
  rm -rf "$dir" && mkdir -p "$dir/debs"
  if ! ( cd "$dir/debs" && apt-get download -qq pgn-extract pychess 2>/dev/null ) &&
     ! { apt-get update -qq 2>/dev/null && ( cd "$dir/debs" && apt-get download -qq pgn-extract pychess ); }; then
    echo "debian-pgn: could not download pgn-extract and pychess" >&2
    exit 1
  fi
  for deb in "$dir"/debs/*.deb; do
    dpkg-deb -x "$deb" "$dir/files"
  done
  touch "$dir/.done"
fi
find "$dir/files" -name '*.pgn' | sort
