#!/usr/bin/env bash
# Hybrid against a null model on the public extbench suites (AmbiQT J and P,
# MMSQL): runs `clarify eval` with --engine rules, then --engine hybrid
# against tools/llmbench/nullmodel (every call answered "unanswerable"),
# scores both with extbench's clarify_score.py, prints per group how many
# cases called the model, and fails when hybrid scores differ from rules'.
#
#   tools/llmbench/extbench.sh [OUT]      # from the repository root; OUT defaults to a temp dir
#
# Needs the suites first (docs/llm.md): fetch testzer0/AmbiQT and
# mcxiaoxiao/MMSQL, then in shared/tools/extbench
# `EXTBENCH_MIRROR=… ./run.sh --source mirror` (writes /tmp/extbench).
# EXTBENCH (default /work/shared/tools/extbench) and SUITES (default
# /tmp/extbench/suites) say where they are. Nothing is written into the repo.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
extbench=${EXTBENCH:-/work/shared/tools/extbench}
suites=${SUITES:-/tmp/extbench/suites}
out=${1:-$(mktemp -d /tmp/llmbench.XXXXXX)}
groups=(ambiqt-J-original ambiqt-J-ambiguous ambiqt-P-original ambiqt-P-ambiguous mmsql-first-turns mmsql-all-standalone)

bin=$out/bin
mkdir -p "$bin" "$out/data" "$out/rules" "$out/hybrid"
go build -o "$bin/clarify" ./cmd/clarify
go build -o "$bin/nullmodel" ./tools/llmbench/nullmodel

"$bin/nullmodel" >"$out/nullmodel.url" 2>"$out/nullmodel.log" &
nullpid=$!
trap 'kill "$nullpid" 2>/dev/null; wait "$nullpid" 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$out/nullmodel.url" ] && break; sleep 0.1; done
export CLARIFY_LLM_BASE_URL
CLARIFY_LLM_BASE_URL=$(head -1 "$out/nullmodel.url")
export CLARIFY_LLM_MODEL=null-model CLARIFY_LLM_API_KEY=

for eng in rules hybrid; do
  for g in "${groups[@]}"; do
    "$bin/clarify" eval --data-dir "$out/data" --engine "$eng" "$suites/$g"/*.yaml --json "$out/$eng/$g.json" >"$out/$eng/$g.txt"
  done
done

(cd "$extbench" && python3 clarify_score.py --cases "$suites/cases.tsv" "$out/rules") >"$out/rules.score"
(cd "$extbench" && python3 clarify_score.py --cases "$suites/cases.tsv" "$out/hybrid") >"$out/hybrid.score"

echo "== cases on which hybrid called the model (the rules could not link)"
python3 - "$out" "${groups[@]}" <<'PY'
import json, sys
d, total, called, calls, bad, reworded = sys.argv[1], 0, 0, 0, 0, 0
# what may differ between rules and hybrid on one case: timings, the count
# of calls, and the wording of an UNANSWERABLE both engines reached
free = {"turns_ms", "model_calls", "error_message", "problems"}
for g in sys.argv[2:]:
    rules, hybrid = json.load(open(f"{d}/rules/{g}.json")), json.load(open(f"{d}/hybrid/{g}.json"))
    n = sum(r["scores"]["cases"] for r in hybrid)
    m = sum(r["scores"].get("model_cases", 0) for r in hybrid)
    c = sum(k.get("model_calls", 0) for r in hybrid for k in r["cases"])
    for rs, hs in zip(rules, hybrid):
        for a, b in zip(rs["cases"], hs["cases"]):
            diff = {k for k in a.keys() | b.keys() if a.get(k) != b.get(k)}
            if diff - free:
                bad += 1
                print(f"  {a['id']}: hybrid differs in {sorted(diff - free)}")
            reworded += "error_message" in diff
    total, called, calls = total + n, called + m, calls + c
    print(f"{g:24} {m:4} of {n:4} cases ({c} calls)")
print(f"{'all':24} {called:4} of {total:4} cases ({calls} calls)")
print(f"per case: {bad} outcomes differ from rules; {reworded} UNANSWERABLE reworded by the model")
sys.exit(1 if bad else 0)
PY
echo "== hybrid (null model) scored by clarify_score.py"
cat "$out/hybrid.score"
if ! diff -u "$out/rules.score" "$out/hybrid.score"; then
  echo "hybrid with a null model scores differently from rules (above: - rules, + hybrid)" >&2
  exit 1
fi
echo "== hybrid scores exactly as rules; everything is in $out"
