#!/usr/bin/env python
"""Add the finished seeds of one resumable `bench/cleanrl_reference.py` run (FROM) to another's files (INTO).

Two CleanRL processes on two cores, or runs of several sessions, each write their own CSV + JSON; this merges FROM's
finished seeds (those its JSON lists, or only `--seeds`) into INTO, in place. It refuses, with one line, files made
with other settings (`cleanrl_reference.SAME`: algo, script, env, steps, learning starts, CleanRL commit, package
versions) or a seed both hold. INTO's JSON keeps its runs and gains FROM's; `merged_from` names the command that made
each group of seeds.

    python bench/merge_reference.py bench/reference/cleanrl_td3_jax_hopper_10seeds.csv RUNS/ref_c/cleanrl_td3_jax_hopper_10seeds.csv --seeds 10
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cleanrl_reference import FIELDS, SAME


def merge(into: Path, source: Path, seeds: list[int] | None = None) -> list[int]:
    """Merge `source`'s finished seeds (or `seeds` of them) into `into` (CSV paths, each with its JSON beside it);
    returns the seeds `into` holds after. SystemExit (one line) on files that do not agree."""
    a = json.loads(into.with_suffix(".json").read_text())
    b = json.loads(source.with_suffix(".json").read_text())
    for key in SAME:
        if a.get(key) != b.get(key):
            raise SystemExit(f"merge_reference: {source} was made with another {key} than {into} "
                             f"({b.get(key)!r} against {a.get(key)!r}): only runs of one setting merge")
    finished = {r["seed"] for r in b["runs"]}
    take = finished if seeds is None else set(seeds)
    if not take <= finished:
        raise SystemExit(f"merge_reference: {source} has no finished seed {sorted(take - finished)} "
                         f"(finished: {sorted(finished)})")
    have = {r["seed"] for r in a["runs"]}
    if take & have:
        raise SystemExit(f"merge_reference: {into} already holds seed {sorted(take & have)}: choose --seeds")
    with open(into) as f:
        rows = list(csv.DictReader(f))
    with open(source) as f:
        rows += [r for r in csv.DictReader(f) if int(r["seed"]) in take]
    a["runs"] = sorted(a["runs"] + [r for r in b["runs"] if r["seed"] in take], key=lambda r: r["seed"])
    a.setdefault("merged_from", {f"seeds {sorted(have)}": a["command"]})[f"seeds {sorted(take)}"] = b["command"]
    for path, write in ((into, lambda f: _csv(f, rows)), (into.with_suffix(".json"),
                                                             lambda f: f.write(json.dumps(a, indent=2)))):
        tmp = path.with_name(path.name + ".tmp")  # CSV first, then the JSON, each replaced whole
        with open(tmp, "w", newline="") as f:
            write(f)
        os.replace(tmp, path)
    return sorted(have | take)


def _csv(f, rows: list[dict]) -> None:
    w = csv.DictWriter(f, FIELDS)
    w.writeheader()
    w.writerows(rows)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("into", type=Path, help="the CSV to add to (its JSON beside it)")
    p.add_argument("source", type=Path, help="the CSV whose finished seeds are added (its JSON beside it)")
    p.add_argument("--seeds", type=int, nargs="+", help="only these of its finished seeds (default: all)")
    args = p.parse_args()
    for path in (args.into, args.source):
        if not (path.is_file() and path.with_suffix(".json").is_file()):
            raise SystemExit(f"merge_reference: {path} or its .json is missing: give the CSV that "
                             "bench/cleanrl_reference.py --out wrote")
    print(f"{args.into}: seeds {merge(args.into, args.source, args.seeds)}")


if __name__ == "__main__":
    main()
