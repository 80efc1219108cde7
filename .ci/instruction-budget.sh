#!/usr/bin/env bash
# The speed internals (the lent disk, the effects array given back, the sync data moved rather
# than copied) are checked here, by what they save, rather than by unit tests of how: callgrind
# counts the instructions of 10 seeds of swarm.chaos on the release binary, and the count must
# stay within the budget of .ci/instruction-budget (one number; 3% over fails). Instruction
# counts, unlike wall time, do not depend on the machine's load.
#   .ci/instruction-budget.sh BINARY            check
#   .ci/instruction-budget.sh BINARY --record   write the count as the new budget
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$1"
if ! command -v valgrind >/dev/null; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends valgrind
fi
out="$(mktemp -d)"
# The same allocator settings as `synclab bench` (MallocTuning), so counts compare.
GLIBC_TUNABLES=glibc.malloc.tcache_count=127 valgrind --tool=callgrind --dump-instr=no \
    --callgrind-out-file="$out/callgrind.out" \
    "$binary" explore Scenarios/explore/swarm.chaos --seeds 10 --jobs 1 > "$out/explore.txt" 2> "$out/valgrind.txt"
count="$(sed -n 's/^.*Collected : \([0-9]*\).*$/\1/p' "$out/valgrind.txt")"
[ -n "$count" ] || { cat "$out/valgrind.txt" >&2; echo "ci: callgrind gave no count" >&2; exit 1; }
if [ "${2:-}" = "--record" ]; then
    echo "$count" > .ci/instruction-budget
    echo "instruction budget recorded: $count"
    exit 0
fi
budget="$(cat .ci/instruction-budget)"
limit=$((budget + budget * 3 / 100))
echo "instructions for 10 seeds of swarm.chaos: $count (budget $budget, limit $limit)"
if [ "$count" -gt "$limit" ]; then
    echo "ci: $count instructions is over the budget's 3% margin ($limit): a speed internal was lost" >&2
    exit 1
fi
