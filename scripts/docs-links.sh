#!/usr/bin/env bash
# Checks every relative link of the Markdown files git tracks (README, CONTRIBUTING, docs/, benchmarks/, ...): the
# file or folder it names exists, and its #anchor is a heading there, slugged as GitHub slugs them. Links in code
# (fenced blocks, inline code) and to other sites are left alone. Fails naming each broken link and where it is.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { echo "docs-links: python3 is needed" >&2; exit 1; }
# shellcheck disable=SC2016 # the program is Python, in single quotes on purpose
git ls-files -z --cached --others --exclude-standard '*.md' | python3 -c '
import os, re, sys, unicodedata
files = [f for f in sys.stdin.read().split("\0") if f]

def prose(text, inline=False):
    """The text outside fenced code blocks (and inline code, unless inline), line by line (numbers kept)."""
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"\s*(```+|~~~+)", line)
        if m:
            mark = m.group(1)[0] * 3
            fence = None if fence == mark else (fence or mark)
            out.append("")
            continue
        out.append("" if fence else line if inline else re.sub(r"`[^`]*`", "", line))
    return out

def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"<[^>]+>", "", s)
    s = "".join(c for c in s if c in " -_" or unicodedata.category(c)[0] in "LN")
    return s.replace(" ", "-")

anchors = {}
def anchors_of(path):
    if path not in anchors:
        seen, found = {}, set()
        for line in prose(open(path, encoding="utf-8").read(), inline=True):
            m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            base = slug(m.group(1).replace("`", ""))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        anchors[path] = found
    return anchors[path]

broken, checked = [], 0
link = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
for f in files:
    text = open(f, encoding="utf-8").read()
    for no, line in enumerate(prose(text), 1):
        for target in link.findall(line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
                continue
            checked += 1
            path, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            if not os.path.exists(dest):
                broken.append(f"{f}:{no}: {target}: no {dest}")
            elif anchor and dest.endswith(".md") and anchor not in anchors_of(dest):
                broken.append(f"{f}:{no}: {target}: no heading #{anchor} in {dest}")
for b in broken:
    print("docs-links: " + b, file=sys.stderr)
if broken:
    sys.exit(1)
print(f"docs-links: {checked} relative links in {len(files)} Markdown files resolve")
'
