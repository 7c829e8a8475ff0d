#!/usr/bin/env bash
# minute.sh: a served wide source's first minute — one question a second
# for sixty seconds against a freshly started `clarify serve` — then the
# server's CPU time and the turns' p50, p90 and slowest, in milliseconds.
#
# usage: tools/widedb/minute.sh CLARIFY CONFIG [SOURCE [PORT]]
#   CLARIFY  the clarify binary to time
#   CONFIG   a config naming the wide database (README.md), as source SOURCE
#   SOURCE   default wide; PORT default 8091
set -euo pipefail
bin=$1 config=$2 src=${3:-wide} port=${4:-8091}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin" serve --config "$config" --data-dir "$dir" --addr "127.0.0.1:$port" >"$dir/serve.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do curl -s "127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
qs=("how many t5s are mauve" "count t40s by colour" "how many t12s are teal"
    "show t9s that are jade and beta" "how many t33s are red" "count t61s by category")
for i in $(seq 0 59); do
  s=$(date +%s%N)
  curl -s -o /dev/null -X POST "127.0.0.1:$port/v1/conversations" -H 'content-type: application/json' \
    -d "{\"question\": \"${qs[$((i % 6))]}\", \"source\": \"$src\", \"interactive\": false}"
  ms=$(( ($(date +%s%N) - s) / 1000000 ))
  echo "$ms" >>"$dir/times"
  if [ "$ms" -lt 1000 ]; then sleep "0.$(printf %03d $((1000 - ms)))"; fi
done
ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat")
kill "$pid"
wait "$pid" 2>/dev/null || true
echo "server CPU $(echo "scale=1; $ticks / $(getconf CLK_TCK)" | bc) s; turns ms: $(sort -n "$dir/times" |
  awk '{a[NR] = $1} END {print "p50", a[int(NR / 2)], "p90", a[int(NR * 0.9)], "max", a[NR]}')"
