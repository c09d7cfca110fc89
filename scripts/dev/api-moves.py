#!/usr/bin/env python3
"""Holds the API dump's diff to a list of moves (issue #31, item 7: "the API dump's diff is exactly the documented moves").

  python3 scripts/dev/api-moves.py OLD_REV MOVES_FILE [DUMP]

Reads extension/api/llmbench-junit.api at OLD_REV, renames every type in it as MOVES_FILE says (lines `old -> new`,
fully-qualified), and compares it with DUMP (default: the working tree's dump) type by type, members in any order.
Prints the types only one side has; exits 1 when there is any.
  python3 scripts/dev/api-moves.py 3d8285c scripts/dev/rooms-api-moves.txt    # the rooms move: 0 and 0
"""
import re
import subprocess
import sys


def blocks(text):
    out = set()
    for b in text.split("\n\n"):
        lines = [l for l in b.strip().split("\n") if l]
        if lines:
            head = [l for l in lines if not l.startswith("  ")]
            out.add(tuple(head + sorted(l for l in lines if l.startswith("  "))))
    return out


def main(rev, moves_file, dump="extension/api/llmbench-junit.api"):
    moves = dict(tuple(x.strip() for x in l.split("->")) for l in open(moves_file) if "->" in l)
    old = subprocess.run(["git", "show", f"{rev}:extension/api/llmbench-junit.api"], check=True, capture_output=True,
                         text=True).stdout
    pattern = re.compile(r"(?<![\w$.])(" + "|".join(re.escape(k) for k in sorted(moves, key=len, reverse=True)) + r")(?!\w)")
    a, b = blocks(pattern.sub(lambda m: moves[m.group(1)], old)), blocks(open(dump).read())
    for x in sorted(a - b):
        print("only before (moved):", x[0] if len(x) == 1 else " / ".join(x[:2]))
    for x in sorted(b - a):
        print("only now:", x[0] if len(x) == 1 else " / ".join(x[:2]))
    print(f"api-moves: {len(moves)} moves; {len(a - b)} type(s) only before, {len(b - a)} only now")
    return 1 if a != b else 0


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
