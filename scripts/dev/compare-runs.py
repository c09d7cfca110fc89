#!/usr/bin/env python3
"""Compares two sample runs' result folders (sample-tests/target/llmbench) by shape, timing values aside.

Used to hold a refactoring to "behaviour unchanged" (issue #31, item 7): the same sweep folders with the same
files; in every JSON document the same key paths; in every table.txt the same lines once numbers are masked; in
every CSV the same header. Prints each difference of shape and a summary; exits 1 when there is any. Findings that
depend on timing (a finding one run had and the other did not, in the JSON or under a table) are counted as content
apart; --content prints them. Number values and duration units are masked.

  python3 scripts/dev/compare-runs.py BEFORE/sample-tests/target/llmbench AFTER/sample-tests/target/llmbench
"""
import difflib
import json
import os
import re
import sys

NUMBER = re.compile(r"(?<![A-Za-z_])[-+]?\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?")
# A level's row of the table (its requests and figures) or of the server's counters; other lines are findings.
ROW = re.compile(r" \| #/# ok \(# err\)| \| server: ")
UNIT = re.compile(r"# (?:µs|ms|s)\b")


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
        return [UNIT.sub("# t", NUMBER.sub("#", re.sub(r" +", " ", line.rstrip("\n")))) for line in fh]


def empty_arrays(node, prefix=""):
    """Paths of the arrays that are empty: keys below them on the other side are content, not shape."""
    out = set()
    if isinstance(node, dict):
        for k, v in node.items():
            out |= empty_arrays(v, prefix + "/" + k)
    elif isinstance(node, list):
        if not node:
            out.add(prefix)
        for v in node:
            out |= empty_arrays(v, prefix + "[]")
    return out


def under(path, arrays):
    return any(path.startswith(a + "[]") for a in arrays)


def main(before, after):
    problems, content = [], []
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
                ja, jb = json.load(x), json.load(y)
            ka, kb = key_paths(ja), key_paths(jb)
            # A key below an array the other run left empty (a finding one run had) is content, not shape.
            for k in sorted(ka - kb):
                (content if under(k, empty_arrays(jb)) else problems).append(f"{f}: key only before: {k}")
            for k in sorted(kb - ka):
                (content if under(k, empty_arrays(ja)) else problems).append(f"{f}: key only after: {k}")
            checked["json"] += 1
        elif f.endswith("table.txt"):
            la, lb = masked(pa), masked(pb)
            rows_a, rows_b = [l for l in la if ROW.search(l)], [l for l in lb if ROW.search(l)]
            if rows_a != rows_b:
                diff = "\n".join(difflib.unified_diff(rows_a, rows_b, "before", "after", lineterm="", n=0))
                problems.append(f"{f}: table rows differ (numbers masked):\n{diff}")
            if la != lb:
                diff = "\n".join(difflib.unified_diff(la, lb, "before", "after", lineterm="", n=0))
                content.append(f"{f}: findings differ (numbers masked):\n{diff}")
            checked["txt"] += 1
        elif f.endswith(".csv"):
            with open(pa, encoding="utf-8") as x, open(pb, encoding="utf-8") as y:
                ha, hb = x.readline(), y.readline()
            if ha != hb:
                problems.append(f"{f}: header differs:\n  before: {ha.strip()}\n  after:  {hb.strip()}")
            checked["csv"] += 1
    if "--content" in sys.argv:
        for p in content:
            print("content: " + p)
    for p in problems:
        print(p)
    print(f"compare-runs: {len(a)} files before, {len(b)} after; {checked['json']} JSON documents, {checked['txt']} tables, "
          f"{checked['csv']} CSV headers compared; {len(problems)} difference(s) of shape; "
          f"{len(content)} of content (findings one run had; --content lists them)")
    return 1 if problems else 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--content"]
    if len(args) != 2:
        sys.exit(__doc__)
    sys.exit(main(args[0], args[1]))
