#!/usr/bin/env python3
"""Compares two sample runs' result folders (sample-tests/target/llmbench) by shape, timing values aside.

Used to hold a refactoring to "behaviour unchanged" (issue #31, item 7): the same sweep folders with the same
files; in every JSON document the same key paths; in every table.txt the same lines once numbers are masked; in
every CSV the same header. Prints each difference and a summary; exits 1 when there is any.

  python3 scripts/dev/compare-runs.py BEFORE/sample-tests/target/llmbench AFTER/sample-tests/target/llmbench
"""
import difflib
import json
import os
import re
import sys

NUMBER = re.compile(r"(?<![A-Za-z_])[-+]?\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?")


def files(root):
    out = set()
    for d, _, names in os.walk(root):
        for n in names:
            out.add(os.path.relpath(os.path.join(d, n), root))
    return out


def key_paths(node, prefix=""):
    paths = set()
    if isinstance(node, dict):
        for k, v in node.items():
            paths.add(prefix + "/" + k)
            paths |= key_paths(v, prefix + "/" + k)
    elif isinstance(node, list):
        for v in node:
            paths |= key_paths(v, prefix + "[]")
    return paths


def masked(path):
    with open(path, encoding="utf-8") as fh:
        return [NUMBER.sub("#", re.sub(r" +", " ", line.rstrip("\n"))) for line in fh]


def main(before, after):
    problems = []
    a, b = files(before), files(after)
    for f in sorted(a - b):
        problems.append(f"only before: {f}")
    for f in sorted(b - a):
        problems.append(f"only after: {f}")
    checked = {"json": 0, "txt": 0, "csv": 0}
    for f in sorted(a & b):
        pa, pb = os.path.join(before, f), os.path.join(after, f)
        if f.endswith(".json"):
            with open(pa, encoding="utf-8") as x, open(pb, encoding="utf-8") as y:
                ka, kb = key_paths(json.load(x)), key_paths(json.load(y))
            for k in sorted(ka - kb):
                problems.append(f"{f}: key only before: {k}")
            for k in sorted(kb - ka):
                problems.append(f"{f}: key only after: {k}")
            checked["json"] += 1
        elif f.endswith("table.txt"):
            la, lb = masked(pa), masked(pb)
            if la != lb:
                diff = "\n".join(difflib.unified_diff(la, lb, "before", "after", lineterm="", n=0))
                problems.append(f"{f}: lines differ (numbers masked):\n{diff}")
            checked["txt"] += 1
        elif f.endswith(".csv"):
            with open(pa, encoding="utf-8") as x, open(pb, encoding="utf-8") as y:
                ha, hb = x.readline(), y.readline()
            if ha != hb:
                problems.append(f"{f}: header differs:\n  before: {ha.strip()}\n  after:  {hb.strip()}")
            checked["csv"] += 1
    for p in problems:
        print(p)
    print(f"compare-runs: {len(a)} files before, {len(b)} after; {checked['json']} JSON documents, {checked['txt']} tables, "
          f"{checked['csv']} CSV headers compared; {len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
