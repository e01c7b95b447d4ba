"""Issue #27 item 6: read a suite run's logs and say where its time went (not part of the package).

    python wip/compile_ledger.py CPU.jsonl COMPILES.jsonl [N]

CPU.jsonl: CAMEL_JAX_TEST_CPU's per-test CPU and wall seconds; COMPILES.jsonl: CAMEL_JAX_TEST_COMPILES' tracing,
lowering and compiling events of every process (tests/compile_log). Prints the N costliest test files, tests and
programs, and the share of the suite's CPU seconds that went to each stage.
"""

import collections
import json
import sys
from pathlib import Path

cpu_rows = [json.loads(x) for x in Path(sys.argv[1]).read_text().splitlines() if x.strip()]
events, seen = [], set()
for x in Path(sys.argv[2]).read_text().splitlines():  # logs of 2026-11-28 evening: the listener was registered up to
    e = json.loads(x)  # three times in a process (fixed since), so duplicates are dropped
    key = (e["pid"], e["fun"], e["stage"], e["s"])
    if key not in seen:
        seen.add(key)
        events.append(e)
n = int(sys.argv[3]) if len(sys.argv) > 3 else 25
tests = [r for r in cpu_rows if "cpu_s" in r]
total = sum(r["cpu_s"] for r in tests)
stage = collections.Counter()
for e in events:
    stage[e["stage"]] += e["s"]
print(f"{len(tests)} tests, {total:,.0f} CPU-s; wall span "
      f"{max(r['start'] + r['wall_s'] for r in tests) - min(r['start'] for r in tests):,.0f} s")
print("stages (seconds, all processes): " + ", ".join(f"{k} {v:,.0f}" for k, v in stage.most_common()))
by_file = collections.Counter()
for r in tests:
    by_file[r["test"].split("::")[0]] += r["cpu_s"]
print(f"\n## the {n} costliest files (CPU-s)")
for f, v in by_file.most_common(n):
    print(f"{v:8.0f}  {f}")
print(f"\n## the {n} costliest tests (CPU-s, wall-s)")
for r in sorted(tests, key=lambda r: -r["cpu_s"])[:n]:
    print(f"{r['cpu_s']:8.0f} {r['wall_s']:7.0f}  {r['test']}")
per_test = collections.defaultdict(collections.Counter)
for e in events:
    per_test[e["test"]][e["stage"]] += e["s"]
print(f"\n## the {n} tests with most compiling (compile, trace, lower s)")
for t, c in sorted(per_test.items(), key=lambda kv: -kv[1]["compile"])[:n]:
    print(f"{c['compile']:8.0f} {c['trace']:6.0f} {c['lower']:6.0f}  {t}")
def by_function(stage: str, heading: str, what: str) -> None:
    """The n functions with the most seconds in `stage`, summed over the suite, with their counts."""
    total = collections.defaultdict(lambda: [0.0, 0])
    for e in events:
        if e["stage"] == stage:
            total[e["fun"]][0] += e["s"]
            total[e["fun"]][1] += 1
    print(f"\n## the {n} {heading} (s, {what})")
    for f, (s, k) in sorted(total.items(), key=lambda kv: -kv[1][0])[:n]:
        print(f"{s:8.0f} {k:5d}  {f}")


by_function("compile", "programs with most compiling, summed over the suite", "compiles incl. cache loads")
by_function("trace", "functions with most tracing", "traces")
