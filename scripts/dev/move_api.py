#!/usr/bin/env python3
"""Moves the public API out of the flat package dev.llmbench into packages by journey (issue #22, item 3).

Deterministic and idempotent: run it on any tree, as often as wanted (after merging a branch that still
uses the old names, run it again). It knows only the table below: a type it does not know stays where it is.

1. git mv extension/src/main/java/dev/llmbench/T.java to dev/llmbench/<package>/T.java, for each T in MOVES.
2. In every text file git knows (tracked, or untracked and not ignored): dev.llmbench.T and dev/llmbench/T
   become dev.llmbench.<package>.T (imports, static imports, fully-qualified names in code, javadoc,
   strings, docs and scripts). extension/api/*.api is left alone: ApiSignatureTests rewrites it.
3. In every Java file that saw the old package's types without an import (it is in dev.llmbench or in one
   of the new packages, or imports dev.llmbench.*): the package declaration of a moved file; an import for
   each API type of another package it names in code or in a javadoc reference ({@link}, {@linkplain}, {@value},
   @see, @throws); imports of its own package dropped. Sorted import groups stay sorted.
4. A package-info.java for each package, when it has none.

Run in the middle of a merge (of a branch written before the move), it first merges each conflicted file
again, three ways, after applying itself to the common ancestor and to their side: only the two sides' real
changes meet, and a conflict of import lines only becomes both sides' imports. It stops on a real conflict,
left with its markers (ours / base / theirs) for you to resolve before running it again.
"""
import functools
import os
import re
import subprocess
import sys
import tempfile

ROOT_PKG = "dev.llmbench"
MAIN = "extension/src/main/java/dev/llmbench"

# old simple name (in dev.llmbench) -> new package under dev.llmbench. Not listed: stays at the root.
MOVES = {}
for package, names in {
    # values read off a result: figures, findings, what a level did
    "result": "Distribution ConfidenceInterval Rate Finding FindingKind LoadShape StopReason SteadyState "
              "DecodeRates ClientLoad WarmupReport ServiceLevels RoundTrip",
    # one request: what it sends and gets back
    "client": "LlmReply CompletionRequest ChatMessage RequestResult RequestFailure ErrorKind Usage TokenSource "
              "ApiStyle LlmHttpException",
    # the server under test: starting it, describing it, what it says about itself
    "server": "LaunchServer LaunchContainer DeploymentFacts DeploymentDescription ServerStartup ServerMetrics "
              "GpuTelemetry TokenCrossCheck PrefixCacheUse EndpointNotReadyException",
    # comparisons beside a sweep: baselines, deployments, capacity, quality
    "compare": "Baseline BaselineComparison Delta Deployment Deployments DeploymentLevels CapacitySearch Capacity "
               "Quality QualityEval QualityComparison Accuracy",
    # prompts other than @Workload's synthetic ones
    "workload": "Dataset Trace SharedPrefix ExactInputTokens InputAlignment Sessions ToolCalls StructuredOutput Embeddings",
    # the fluent assertions
    "assertions": "LlmBenchAssertions SweepLevelResultAssert SweepResultAssert DistributionAssert "
                  "DeploymentLevelsAssert CapacityAssert LlmReplyAssert QualityAssert",
}.items():
    for name in names.split():
        MOVES[name] = package

NEW_PACKAGES = sorted(set(MOVES.values()))
API_PACKAGES = {ROOT_PKG} | {ROOT_PKG + "." + p for p in NEW_PACKAGES}

PACKAGE_INFO = {
    "": """\
/**
 * What you write first: the annotations that make a test a benchmark ({@link LlmEndpoint} for the server,
 * {@link ConcurrencySweep}, {@link RateSweep} or {@link TraceReplay} for the levels, {@link Workload},
 * {@link Measurement}, {@link Warmup} and {@link Slo} for what each level sends and must meet,
 * {@link AfterSweep} for assertions on the whole sweep), what the extension injects ({@link LlmClient},
 * {@link SweepLevelResult}, {@link EarlierLevels}, {@link EndpointInfo}, {@link SweepResult}), the
 * {@link Metric} that names every figure, and {@link SweepAnalysis} for results that already exist.
 *
 * <p>The rest is in packages by what you do next: {@code dev.llmbench.assertions} (the fluent assertions,
 * {@code import static dev.llmbench.assertions.LlmBenchAssertions.assertThat}), {@code dev.llmbench.result}
 * (the values read off a result), {@code dev.llmbench.workload} (datasets, traces, exact lengths, shared
 * prefixes), {@code dev.llmbench.server} (a server the run starts, the deployment's facts, what the server
 * reports), {@code dev.llmbench.compare} (baselines, deployments side by side, capacity, quality) and
 * {@code dev.llmbench.client} (one request and its reply).
 */
""",
    "result": """\
/**
 * The values read off a result: a level's figures as {@link Distribution}s and {@link Rate}s with their
 * {@link ConfidenceInterval}s, what the analysis found ({@link Finding} of a {@link FindingKind}), and what
 * a level did: how it offered load ({@link LoadShape}), why it stopped ({@link StopReason}), its steady
 * state ({@link SteadyState}), its warm-up ({@link WarmupReport}), the SLO it was held to
 * ({@link ServiceLevels}), the client's own cost ({@link ClientLoad}), decode speed as client and server
 * saw it ({@link DecodeRates}) and the network's round trip ({@link RoundTrip}).
 *
 * <p>You need it when you read a {@code SweepLevelResult} or {@code SweepResult} in code, beyond what the
 * fluent assertions of {@code dev.llmbench.assertions} already check.
 */
""",
    "client": """\
/**
 * One request and its reply, for tests that talk to the endpoint through the injected {@code LlmClient}
 * (smoke prompts, checks of content) and for a level's per-request records: {@link CompletionRequest} of
 * {@link ChatMessage}s sent over an {@link ApiStyle}, the {@link LlmReply} with its {@link Usage}, each
 * request's {@link RequestResult} (its tokens counted as {@link TokenSource} says), a {@link RequestFailure}
 * of an {@link ErrorKind}, and {@link LlmHttpException} when a call of the client fails.
 *
 * <p>You need it when a test sends its own requests, or reads a level's requests one by one.
 */
""",
    "server": """\
/**
 * The server under test: a server the run starts itself ({@link LaunchServer} as a process,
 * {@link LaunchContainer} in a container), the facts of its deployment ({@link DeploymentFacts}, read back
 * as {@link DeploymentDescription}), and what it says about itself: its startup log ({@link ServerStartup}),
 * its Prometheus counters ({@link ServerMetrics}, {@link TokenCrossCheck}, {@link PrefixCacheUse}) and its
 * GPUs ({@link GpuTelemetry}). {@link EndpointNotReadyException} is the failure of a server that never
 * became ready.
 *
 * <p>You need it against a real engine: the embedded one needs none of it.
 */
""",
    "compare": """\
/**
 * Comparisons beside a sweep: with a stored {@link Baseline} (its {@link BaselineComparison} of
 * {@link Delta}s), of several {@link Deployment}s at the same load ({@link DeploymentLevels}), the highest
 * load that still meets the SLO ({@link CapacitySearch}, found as a {@link Capacity}), and the quality of
 * the answers beside their speed ({@link QualityEval}, {@link Quality}, {@link Accuracy},
 * {@link QualityComparison}).
 *
 * <p>You need it when the question is not one sweep's figures but how they compare.
 */
""",
    "workload": """\
/**
 * Prompts other than {@code @Workload}'s synthetic ones: a file of your own traffic ({@link Dataset}), a
 * recorded trace ({@link Trace}, replayed at its own clock with {@code @TraceReplay}), the shared-prefix
 * workload ({@link SharedPrefix}), and prompts of an exact token length ({@link ExactInputTokens}, with
 * what aligning them did: {@link InputAlignment}), multi-turn conversations ({@link Sessions}), agents'
 * requests ({@link ToolCalls}, {@link StructuredOutput}) and embeddings ({@link Embeddings}).
 *
 * <p>You need it when the load should look like yours.
 */
""",
    "assertions": """\
/**
 * The fluent assertions (AssertJ): {@code import static dev.llmbench.assertions.LlmBenchAssertions.assertThat}
 * and assert on a level ({@link SweepLevelResultAssert}), a sweep ({@link SweepResultAssert}), one figure
 * ({@link DistributionAssert}), deployments side by side ({@link DeploymentLevelsAssert}), a capacity
 * ({@link CapacityAssert}), quality ({@link QualityAssert}) or one reply ({@link LlmReplyAssert}). A failure
 * names the level, the figure, the actual and the required value; {@code hasNoErrors()} and
 * {@code meetsSlo()} list every violation.
 *
 * <p>{@link LlmBenchAssertions} is the entry point; the other classes are what it returns.
 */
""",
}

SKIP_REWRITE = (re.compile(r"^extension/api/.*\.api$"), re.compile(r"^scripts/dev/move[-_]api\.(sh|py)$"))
TEXT_SUFFIXES = (".java", ".md", ".sh", ".xml", ".yml", ".yaml", ".properties", ".json", ".mjs", ".js",
                 ".txt", ".py", ".html", ".kts", ".gradle", ".cfg", ".toml")
TEXT_NAMES = ("run",)  # .ci/run

IMPORT_RE = re.compile(r"^import\s+(static\s+)?([\w.]+(?:\.\*)?)\s*;\s*$")
PACKAGE_RE = re.compile(r"^package\s+([\w.]+)\s*;", re.M)
TYPE_DECL_RE = re.compile(r"\b(?:class|interface|enum|record|@interface)\s+([A-Z]\w*)")
JAVADOC_REF_RE = re.compile(r"\{@(?:link|linkplain|value)\s+([^\s}(]*(?:\([^)]*\))?)|@(?:see|throws|exception)\s+([\w.#]+(?:\([^)]*\))?)")
IDENT_RE = re.compile(r"[A-Za-z_$][\w$]*")


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


@functools.lru_cache(maxsize=None)
def fqn_patterns():
    names = "|".join(sorted(MOVES, key=lambda n: (-len(n), n)))
    dotted = re.compile(r"(?<![\w.$])dev\.llmbench\.(" + names + r")(?![\w$])")
    slashed = re.compile(r"(?<![\w/$])dev/llmbench/(" + names + r")(?![\w$])")
    return dotted, slashed


def rewrite_fqns(text, dotted, slashed):
    text = dotted.sub(lambda m: f"{ROOT_PKG}.{MOVES[m.group(1)]}.{m.group(1)}", text)
    return slashed.sub(lambda m: f"dev/llmbench/{MOVES[m.group(1)]}/{m.group(1)}", text)


def split_code(src):
    """Returns (code, comments): code with comments and literals blanked, and the comments' text."""
    code, comments = [], []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            comments.append(src[i:j])
            code.append(" ")
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            comments.append(src[i:j])
            code.append(" ")
            i = j
        elif src.startswith('"""', i):
            j = src.find('"""', i + 3)
            j = n if j < 0 else j + 3
            code.append('""')
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            code.append(c + c)
            i = j + 1
        else:
            code.append(c)
            i += 1
    return "".join(code), comments


def referenced_names(src):
    """Simple names used as a type in code (not after a dot) or in a javadoc reference."""
    code, comments = split_code(src)
    names = set()
    for m in IDENT_RE.finditer(code):
        k = m.start() - 1
        while k >= 0 and code[k] in " \t\r\n":
            k -= 1
        if k >= 0 and code[k] == ".":
            continue
        names.add(m.group())
    for comment in comments:
        for m in JAVADOC_REF_RE.finditer(comment):
            target = m.group(1) or m.group(2) or ""
            for r in IDENT_RE.finditer(target):
                if r.start() == 0 or target[r.start() - 1] not in ".#":
                    names.add(r.group())
    return names


def import_targets(text, static):
    return [m.group(2) for m in map(IMPORT_RE.match, text.split("\n")) if m and bool(m.group(1)) == static]


def sortedness(original):
    """Whether the static and the other imports were in order before this run touched them."""
    return {k: (lambda t: t == sorted(t))(import_targets(original, k == "s")) for k in ("s", "p")}


def edit_imports(lines, add, drop, was_sorted):
    """Adds import lines, drops imports of the given names, dedupes; keeps sorted groups sorted."""
    idx = [i for i, l in enumerate(lines) if IMPORT_RE.match(l)]
    existing = [lines[i] for i in idx]
    statics = [l for l in existing if IMPORT_RE.match(l).group(1)]
    plain = [l for l in existing if not IMPORT_RE.match(l).group(1)]

    def target(l):
        return IMPORT_RE.match(l).group(2)

    new_plain = []
    seen = set()
    for l in plain:
        t = target(l)
        if t in drop or t in seen:
            continue
        seen.add(t)
        new_plain.append(l)
    for t in add:
        if t not in seen:
            seen.add(t)
            new_plain.append(f"import {t};")
    new_statics = []
    seen_s = set()
    for l in statics:
        t = target(l)
        if t not in seen_s:
            seen_s.add(t)
            new_statics.append(l)
    if was_sorted["p"]:
        new_plain.sort(key=lambda l: target(l))
    if was_sorted["s"]:
        new_statics.sort(key=lambda l: target(l))
    if new_plain == plain and new_statics == statics:
        return lines
    if not idx:
        # No import yet: after the package line, in a block of its own.
        p = next(i for i, l in enumerate(lines) if l.startswith("package "))
        return lines[:p + 1] + [""] + new_plain + lines[p + 1:]
    # Rewrite the import region: statics, a blank line, the others (the project's layout).
    first, last = idx[0], idx[-1]
    region = lines[first:last + 1]
    if any(l.strip() and not IMPORT_RE.match(l) for l in region):
        # Something other than imports between them (unusual): drop in place, add after the last one.
        keep = set(new_plain) | set(new_statics)
        out = [l for i, l in enumerate(lines) if i not in idx or l in keep]
        extra = [l for l in new_plain if l not in plain]
        pos = max(i for i, l in enumerate(out) if IMPORT_RE.match(l)) + 1
        return out[:pos] + extra + out[pos:]
    block = list(new_statics)
    if new_statics and new_plain:
        block.append("")
    block += new_plain
    return lines[:first] + block + lines[last + 1:]


def java_files(files):
    return [f for f in files if f.endswith(".java")]


def api_homes():
    """Where each API type lives now: the moved ones, and whatever is at the root (known or not)."""
    home = {n: f"{ROOT_PKG}.{p}" for n, p in MOVES.items()}
    for f in sorted(os.listdir(MAIN)):
        if f.endswith(".java") and f != "package-info.java":
            home.setdefault(f[:-5], ROOT_PKG)
    for package in NEW_PACKAGES:  # types other branches add to a new package later
        d = f"{MAIN}/{package}"
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if f.endswith(".java") and f != "package-info.java":
                home.setdefault(f[:-5], f"{ROOT_PKG}.{package}")
    return home


def transform(path, text, home):
    """What this script makes of a file's text at path: (new text, imports added)."""
    out = rewrite_fqns(text, *fqn_patterns())
    if path.endswith(".java") and os.path.basename(path) != "package-info.java":
        return fix_java(path, out, home, sortedness(text))
    return out, 0


def stage(number, path):
    r = subprocess.run(["git", "show", f":{number}:{path}"], capture_output=True)
    return r.stdout.decode("utf-8") if r.returncode == 0 else None


def merge_file(ours, base, theirs):
    """git merge-file: (merged text, whether conflicts are left)."""
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for label, text in (("ours", ours), ("base", base), ("theirs", theirs)):
            paths.append(os.path.join(d, label))
            with open(paths[-1], "w", encoding="utf-8") as fh:
                fh.write(text)
        r = subprocess.run(["git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", *paths],
                           capture_output=True)
        if r.returncode < 0 or r.returncode > 127:
            raise RuntimeError(r.stderr.decode())
        return r.stdout.decode("utf-8"), r.returncode != 0


CONFLICT_RE = re.compile(r"^<<<<<<< ours\n(.*?)^=======\n(.*?)^>>>>>>> theirs\n", re.M | re.S)


def union_import_hunks(text):
    """A conflict of import lines only (both sides added imports at one place) becomes both sides' imports."""
    def union(m):
        lines = [l for l in (m.group(1) + m.group(2)).split("\n") if l.strip()]
        if not all(IMPORT_RE.match(l) for l in lines):
            return m.group(0)
        return "".join(f"{l}\n" for l in sorted(set(lines), key=lines.index))
    return CONFLICT_RE.sub(union, text)


def resolve_conflicts(home):
    """
    A merge of a branch written before the move conflicts wherever the move and the branch changed the same
    lines (mostly imports). Each such file is merged again, three ways, with this script's work applied to
    the common ancestor and to their side, so that only the real changes of each side meet; conflicts of
    import lines only become the union of both sides' imports. What is still in conflict is left, with its
    markers, for you.
    """
    unmerged = sorted({l.split("\t", 1)[1] for l in git("ls-files", "-u", "-z").split("\0") if "\t" in l})
    resolved, left = [], []
    for path in unmerged:
        base, ours, theirs = stage(1, path), stage(2, path), stage(3, path)
        if SKIP_REWRITE[0].match(path) and ours is not None:
            # The API dump: ApiSignatureTests writes it again from the merged classes (the command below).
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(ours)
            git("add", "--", path)
            resolved.append((path, "kept ours; write it again with the command below"))
            continue
        name = os.path.basename(path)[:-5]
        moved_from_root = os.path.dirname(path) == MAIN and name in MOVES and ours is None
        target = f"{MAIN}/{MOVES[name]}/{name}.java" if moved_from_root else path
        if moved_from_root and os.path.exists(target):
            # They changed a file we moved, and git did not follow the rename.
            with open(target, encoding="utf-8") as fh:
                ours = fh.read()
        if base is None or ours is None:
            left.append(path)
            continue
        moved_base = transform(target, base, home)[0]
        if theirs is None:
            if ours == moved_base:
                git("rm", "-q", "--", path)  # they deleted it; ours only carried the move
                resolved.append((path, "deleted, as they did"))
            else:
                left.append(path)
            continue
        merged, conflicts = merge_file(ours, moved_base, transform(target, theirs, home)[0])
        if conflicts:
            merged = union_import_hunks(merged)
            conflicts = bool(re.search(r"^(<<<<<<< ours|>>>>>>> theirs)$", merged, re.M))
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(merged)
        if conflicts:
            left.append(target)
            continue
        if moved_from_root:
            git("rm", "-q", "--cached", "--", path)
            if os.path.exists(path):
                os.remove(path)
        git("add", "--", target)
        resolved.append((path, "merged again after the move" + (f", as {target}" if target != path else "")))
    return resolved, left


def main():
    os.chdir(git("rev-parse", "--show-toplevel").strip())
    resolved, left = resolve_conflicts(api_homes())
    for path, how in resolved:
        print(f"move-api: resolved the conflict in {path}: {how}")
    if left:
        sys.exit("move-api: stopped: conflicts this script cannot resolve (resolve them, then run it again):\n  "
                 + "\n  ".join(left))
    moved, problems = 0, []
    for name, package in sorted(MOVES.items()):
        src = f"{MAIN}/{name}.java"
        dst = f"{MAIN}/{package}/{name}.java"
        if os.path.exists(src) and os.path.exists(dst):
            problems.append(f"both {src} and {dst} exist: keep one (a merge that did not follow the move?)")
            continue
        if os.path.exists(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            tracked = subprocess.run(["git", "ls-files", "--error-unmatch", src], capture_output=True).returncode == 0
            if tracked:
                git("mv", src, dst)
            else:
                os.rename(src, dst)
            moved += 1
    if problems:
        sys.exit("move-api: " + "\n  ".join(["stopped:"] + problems))

    for package in [""] + NEW_PACKAGES:
        path = f"{MAIN}/{package}/package-info.java" if package else f"{MAIN}/package-info.java"
        if not os.path.exists(path):
            name = ROOT_PKG + ("." + package if package else "")
            with open(path, "w", encoding="utf-8") as f:
                f.write(PACKAGE_INFO[package] + f"package {name};\n")

    home = api_homes()
    files = [f for f in git("ls-files", "-co", "--exclude-standard", "-z").split("\0") if f]
    files = [f for f in files if os.path.isfile(f) and not any(p.match(f) for p in SKIP_REWRITE)
             and (f.endswith(TEXT_SUFFIXES) or os.path.basename(f) in TEXT_NAMES)]
    changed, imports_added = [], 0
    for f in sorted(files):
        with open(f, encoding="utf-8") as fh:
            try:
                before = fh.read()
            except UnicodeDecodeError:
                continue
        text, added = transform(f, before, home)
        imports_added += added
        if text != before:
            with open(f, "w", encoding="utf-8") as fh:
                fh.write(text)
            changed.append(f)
    print(f"move-api: {moved} type(s) moved, {len(changed)} file(s) rewritten, {imports_added} import(s) added")
    for f in changed:
        print(f"  {f}")
    if moved or changed or resolved:
        print("next: mvn -B -o -pl extension -am test -Dtest=ApiSignatureTests -Dllmbench.api.update=true")


def fix_java(path, text, home, was_sorted):
    m = PACKAGE_RE.search(text)
    if not m:
        return text, 0
    declared = m.group(1)
    # A moved file still declaring the root package gets its new package, read off its folder.
    d = os.path.dirname(path).replace(os.sep, "/")
    folder = re.search(r"/java/(dev/llmbench(?:/\w+)?)$", d)
    package = declared
    if folder and declared == ROOT_PKG:
        from_folder = folder.group(1).replace("/", ".")
        if from_folder in API_PACKAGES and from_folder != ROOT_PKG and os.path.basename(path)[:-5] in MOVES:
            package = from_folder
            text = text[:m.start(1)] + package + text[m.end(1):]
    lines = text.split("\n")
    imports = [IMPORT_RE.match(l) for l in lines]
    imports = [x for x in imports if x]
    wildcard = any(not x.group(1) and x.group(2) == ROOT_PKG + ".*" for x in imports)
    if package not in API_PACKAGES and not wildcard:
        # Imports only renamed: keep them in order.
        return "\n".join(edit_imports(lines, [], set(), was_sorted)), 0
    imported_simple = {x.group(2).rsplit(".", 1)[-1] for x in imports if not x.group(1) and not x.group(2).endswith(".*")}
    declared_types = set(TYPE_DECL_RE.findall(split_code(text)[0]))
    used = referenced_names(text)
    add = []
    for name in sorted(used & set(home)):
        if home[name] == package or name in declared_types or name in imported_simple:
            continue
        if wildcard and home[name] == ROOT_PKG:
            continue
        add.append(f"{home[name]}.{name}")
    drop = {f"{package}.{n}" for n, h in home.items() if h == package}
    new_lines = edit_imports(lines, add, drop, was_sorted)
    return "\n".join(new_lines), len(add)


if __name__ == "__main__":
    main()
