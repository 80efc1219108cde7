#!/usr/bin/env bash
# Usage: .ci/identity.sh BINARY OUTDIR   (from the repository root: output paths are relative)
# The byte-identity check of a performance change: run it with the old and the new binary and
# `diff -r` the two OUTDIRs; nothing may differ.
# Writes, for every bundled scenario and regression, the run's stdout, exit code and trace;
# for every bundled chaos file, explore's JSON summary and results (60 seeds; swarm 200).
set -u
bin="$1"; out="$2"
rm -rf "$out"; mkdir -p "$out"
find Scenarios Tests/Regressions -name '*.scenario' | sort | while read -r f; do
  key=$(echo "$f" | tr '/' '_')
  "$bin" run "$f" --trace-out "$out/$key.trace" > "$out/$key.out" 2>&1
  echo "exit $?" >> "$out/$key.out"
done
for f in Scenarios/explore/*.chaos; do
  key=$(basename "$f" .chaos)
  seeds=60; [ "$key" = swarm ] && seeds=200
  "$bin" explore "$f" --seeds $seeds --jobs 2 --json "$out/$key.json" --out "$out/$key.dir" > "$out/$key.explore.out" 2>&1
  echo "exit $?" >> "$out/$key.explore.out"
done
echo "identity outputs in $out: $(ls "$out" | wc -l) entries"
