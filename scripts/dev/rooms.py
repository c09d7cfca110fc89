#!/usr/bin/env python3
"""Re-lays the packages by feature (issue #31, "one room per feature"): each feature's public annotations and results
beside its implementation, in one package; shared machinery stays under dev.llmbench.internal.

Deterministic and idempotent: run it on any tree, as often as wanted (after merging a branch written before the
move, run it again; it moves what it knows and rewrites names everywhere). A type it does not know stays where it is.

1. Every Java file of every module (src/main/java and src/test/java) whose package or class is in the table below
   is git-moved to its new package, in the same module and source set.
2. In every text file git knows: the old fully-qualified names (dotted and slashed) become the new ones.
3. In every Java file: the package declaration follows the file's folder; an import is added for each type it
   named without one (a type of its old package that now lives elsewhere); imports of its own package dropped.

Afterwards: mvn -B -o -pl extension -am test -Dtest=ApiSignatureTests -Dllmbench.api.update=true, then build.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from move_api import IMPORT_RE, PACKAGE_RE, TYPE_DECL_RE, edit_imports, referenced_names, sortedness, split_code  # noqa: E402

R = "dev.llmbench"
I = R + ".internal"

# Whole packages: old package -> new package.
PACKAGES = {
    I + ".agents": R + ".workload",
    I + ".baseline": R + ".baseline",
    I + ".capacity": R + ".capacity",
    I + ".container": R + ".launch",
    I + ".deployments": R + ".deployments",
    I + ".embedded": R + ".engine",
    I + ".launch": R + ".launch",
    I + ".offline": R + ".offline",
    I + ".quality": R + ".quality",
    I + ".quality.sets": R + ".engine.sets",
    I + ".replay": R + ".trace",
    I + ".session": R + ".sessions",
    I + ".structured": R + ".workload",
    I + ".telemetry": R + ".telemetry",
    I + ".trace": R + ".trace",
}

# Single types: old fully-qualified name -> new fully-qualified name (a new simple name renames it).
TYPES = {}
for target, names in {
    R + ".offline": ["SweepAnalysis"],
    R + ".trace": ["TraceReplay", "workload.Trace"],
    R + ".capacity": ["assertions.CapacityAssert", "compare.Capacity", "compare.CapacitySearch",
                      "internal.junit.CapacityExtension"],
    R + ".deployments": ["assertions.DeploymentLevelsAssert", "compare.Deployment", "compare.Deployments",
                         "compare.DeploymentLevels", "internal.junit.DeploymentSettings"],
    R + ".quality": ["assertions.QualityAssert", "compare.Quality", "compare.QualityEval", "compare.QualityComparison",
                     "compare.Accuracy", "internal.junit.QualitySettings"],
    R + ".baseline": ["compare.Baseline", "compare.BaselineComparison", "internal.junit.BaselineSettings"],
    R + ".result": ["compare.Delta"],
    R + ".sessions": ["workload.Sessions", "internal.junit.SessionSettings"],
    R + ".datasets": ["workload.Dataset"] + [f"internal.workload.{n}" for n in (
        "ShareGptReader", "OpenAiChatReader", "VllmCustomReader", "JsonlReader", "DatasetLoader", "DatasetReader")],
    R + ".telemetry": ["internal.report.GpuText"],
    R + ".launch": ["server.LaunchServer", "server.LaunchContainer"],
}.items():
    for name in names:
        TYPES[f"{R}.{name}"] = f"{target}.{name.rsplit('.', 1)[-1]}"

# Tests that move by class (the root package's whole-run tests go to their feature's package).
for target, names in {
    "baseline": ["BaselineTests", "NetworkBaselineTests"],
    "capacity": ["CapacitySearchTests"],
    "deployments": ["DeploymentComparisonTests"],
    "quality": ["QualityEvalTests"],
    "sessions": ["SessionsTests"],
    "trace": ["TraceReplayTests"],
    "datasets": ["DatasetSweepTests"],
    "telemetry": ["GpuTelemetryTests"],
    "launch": ["LaunchContainerTests", "LaunchServerTests", "NoDockerDaemonTests"],
    "workload": ["ToolCallSweepTests", "SharedPrefixTests", "ExactInputTokensTests", "EmbeddingsSweepTests"],
}.items():
    for name in names:
        TYPES[f"{R}.{name}"] = f"{R}.{target}.{name}"
# Two classes that would share a package and a name: the unit test of the deployments' statements.
TYPES[I + ".deployments.DeploymentComparisonTests"] = R + ".deployments.DeploymentStatementsTests"

# Went back to the machinery once the input seam landed (d105c38): a sweep's rows, whatever source read them.
TYPES[R + ".datasets.LoadedDataset"] = I + ".workload.LoadedDataset"
# One JSON check of a reply against a schema, shared by the structured output's checks and the quality's grader:
# machinery, which both features may use, not one feature's class the other reaches into.
TYPES[R + ".workload.JsonReplyCheck"] = I + ".workload.JsonReplyCheck"
TYPES[R + ".workload.JsonReplyCheckTests"] = I + ".workload.JsonReplyCheckTests"
# The readers' unit tests beside the readers.
TYPES[I + ".workload.ShareGptReaderTests"] = R + ".datasets.ShareGptReaderTests"
TYPES[I + ".workload.JsonlReadersTests"] = R + ".datasets.JsonlReadersTests"

# One noun, one class (#31 item 4; NamesTests): each simple name names one top-level class of dev.llmbench.
TYPES.update({
    R + ".quality.Verdict": R + ".quality.Grade",  # a grader's correct/wrong/unparsed; Delta.Verdict judges a change
    I + ".report.Verdict": I + ".report.SweepAnswer",  # the page's "Answer" box
    R + ".baseline.VllmResults": R + ".baseline.VllmReference",  # vLLM results read as a baseline's Reference
    R + ".baseline.VllmResultsTests": R + ".baseline.VllmReferenceTests",
    R + ".offline.VllmResults": R + ".offline.VllmLevels",  # vLLM runs read as levels to analyse
    R + ".engine.Embeddings": R + ".engine.EmbeddingReplies",  # beside EvalReplies; workload.Embeddings is the annotation
    R + ".quality.Generated": R + ".quality.GeneratedEvals",  # the generated sets as EvalSets; QualityEval.Generated picks one
})

# One type per role (#31 item 4; docs/glossary.md, "Level"): a noun that says which role.
TYPES.update({
    R + ".offline.TableLevel": R + ".offline.SummaryLevel",  # a level from a summary: a table row or a vLLM result
    I + ".core.LevelInProgress": I + ".core.RunningLevel",  # the level running now; LevelProgress is a progress line
})

# Results every level may carry stay in the shared API, which the machinery may name (ArchitectureTests): what the
# server's GPUs reported beside ServerMetrics, what aligning prompts to exact lengths did beside the level's figures.
TYPES.update({
    R + ".telemetry.GpuTelemetry": R + ".server.GpuTelemetry",
    R + ".workload.InputAlignment": R + ".result.InputAlignment",
})

# The launch seam (#31): what every server the run starts has in common (the running server the readiness wait
# watches, its log, its startup phases, its exit) is machinery, in internal.startup; the launch feature keeps what
# starts a process or a container, and the spec of a process it starts (LaunchSpec) beside ContainerSpec.
for name in ["RunningServer", "ServerLog", "LogTail", "RecentLines", "LogLine", "LineSplitter", "StartupPhase",
             "StartupPhases", "PhaseHistory", "PhaseSpan", "Engine", "EngineTiming", "ServerExitedException",
             "ServerLaunchException", "LogTailTests", "StartupPhasesTests", "VllmSglangPhasesTests"]:
    for old in (R + ".launch", I + ".launch"):  # after step 1, and before it (a branch written before any move)
        TYPES[f"{old}.{name}"] = f"{I}.startup.{name}"
TYPES[I + ".core.LaunchSpec"] = R + ".launch.LaunchSpec"

# Package docs of packages that merge into another: the new package's own package-info says it all.
DROPPED = {I + ".agents.package-info", I + ".replay.package-info", I + ".structured.package-info",
           I + ".container.package-info", R + ".compare.package-info", I + ".quality.package-info",
           I + ".trace.package-info", I + ".session.package-info"}

RESOURCE_RE = re.compile(r"^(?P<root>(?:[\w.-]+/)*src/(?:main|test)/resources)/(?P<dir>dev/llmbench(?:/[\w]+)*)/(?P<name>[^/]+)$")
SOURCE_RE = re.compile(r"^(?P<root>(?:[\w.-]+/)*src/(?:main|test)/java)/(?P<path>.+)\.java$")
TEXT_SUFFIXES = (".java", ".md", ".sh", ".xml", ".yml", ".yaml", ".properties", ".json", ".mjs", ".js",
                 ".txt", ".py", ".html", ".api", ".dot", ".svg")
TEXT_NAMES = ("run",)
SKIP = re.compile(r"^scripts/dev/(move[-_]api|rooms)\.(sh|py)$|(^|/)node_modules/|package-lock\.json$|^CHANGELOG\.md$")


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def new_name(fqn):
    """Where type fqn lives after the move (itself when it stays)."""
    if fqn in TYPES:
        return TYPES[fqn]
    pkg, simple = fqn.rsplit(".", 1)
    return PACKAGES[pkg] + "." + simple if pkg in PACKAGES else fqn


def main():
    os.chdir(git("rev-parse", "--show-toplevel").strip())
    files = [f for f in git("ls-files", "-co", "--exclude-standard", "-z").split("\0") if f and os.path.isfile(f)]
    sources = {}  # path -> (source root, old fqn)
    for f in files:
        m = SOURCE_RE.match(f)
        if m and "/dev/llmbench/" in "/" + m.group("path"):
            sources[f] = (m.group("root"), m.group("path").replace("/", "."))

    # What each Java file names of its own package without an import: read before anything moves.
    by_package = {}
    for f, (_, fqn) in sources.items():
        by_package.setdefault(fqn.rsplit(".", 1)[0], set()).add(fqn.rsplit(".", 1)[1])
    needs = {}
    for f, (_, fqn) in sources.items():
        pkg = fqn.rsplit(".", 1)[0]
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        used = referenced_names(text) - set(TYPE_DECL_RE.findall(split_code(text)[0]))
        needs[f] = {f"{pkg}.{n}" for n in used & by_package[pkg] if n != fqn.rsplit(".", 1)[1]}

    # 1. Move.
    moves, clashes = {}, []
    for f, (root, fqn) in sorted(sources.items()):
        if fqn in DROPPED:
            git("rm", "-q", f)
            continue
        target = new_name(fqn)
        if target != fqn:
            dst = f"{root}/{target.replace('.', '/')}.java"
            if os.path.exists(dst) or dst in moves.values():
                clashes.append(f"{f} -> {dst}")
            moves[f] = dst
    if clashes:
        sys.exit("rooms: stopped, two files would share a name:\n  " + "\n  ".join(clashes))
    for src, dst in moves.items():
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        git("mv", src, dst)
    # A package's resources (test logs read with getResource, relative to the class) follow the package.
    for f in files:
        m = RESOURCE_RE.match(f)
        if m and os.path.exists(f):
            package = m.group("dir").replace("/", ".")
            if package in PACKAGES:
                dst = f"{m.group('root')}/{PACKAGES[package].replace('.', '/')}/{m.group('name')}"
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                git("mv", f, dst)

    # 2. Names everywhere, longest first so that a.b.C.D is not caught as a.b.C.
    renamed = {}
    for f, (_, fqn) in sources.items():
        if new_name(fqn) != fqn:
            renamed[fqn] = new_name(fqn)
    files = [f for f in git("ls-files", "-co", "--exclude-standard", "-z").split("\0") if f and os.path.isfile(f)]
    present = {SOURCE_RE.match(f).group("path").replace("/", ".") for f in files if SOURCE_RE.match(f)}
    # A merged branch's names of a type moved before it came: the old file is gone, the names are not.
    for old, new in TYPES.items():
        if old not in present and new in present:
            renamed.setdefault(old, new)
    for old, new in list(renamed.items()):
        renamed[old.replace(".", "/")] = new.replace(".", "/")
    pattern = re.compile(r"(?<![\w$])(" + "|".join(re.escape(k) for k in sorted(renamed, key=lambda k: (-len(k), k)))
                         + r")(?![\w$])")
    changed = 0
    for f in files:
        if SKIP.search(f) or not (f.endswith(TEXT_SUFFIXES) or os.path.basename(f) in TEXT_NAMES):
            continue
        try:
            with open(f, encoding="utf-8") as fh:
                before = fh.read()
        except UnicodeDecodeError:
            continue
        text = pattern.sub(lambda m: renamed[m.group(1)], before) if renamed else before
        old_path = next((s for s, d in moves.items() if d == f), f)
        if f.endswith(".java") and old_path in needs:
            text = fix_java(f, text, {new_name(n) for n in needs[old_path]}, sortedness(before))
            old_simple, new_simple = sources[old_path][1].rsplit(".", 1)[1], os.path.basename(f)[:-5]
            if old_simple != new_simple:  # a renamed type: its declaration too
                text = re.sub(r"\b(class|interface|record|enum) " + old_simple + r"\b", r"\1 " + new_simple, text)
        if f.endswith(".java"):
            text = rename_simple(f, text, present)
        if text != before:
            with open(f, "w", encoding="utf-8") as fh:
                fh.write(text)
            changed += 1
    print(f"rooms: {len(moves)} file(s) moved, {changed} file(s) rewritten")


def rename_simple(path, text, present):
    """Bare uses of each type TYPES gives a new simple name, in its package and in files that import it: code,
    and javadoc references in comments ({@link}, {@linkplain}, {@code}, @see, @throws); never a literal, never
    after a dot (another type's member of that name). Runs whether or not the old file is still there, so that
    a merged branch's new uses of an old name follow too. A file that declares or imports another type of the
    old name is left alone, and so is a package where a type of the old name still lives (present: every
    source's fully-qualified name)."""
    m = SOURCE_RE.match(path)
    if not m:
        return text
    package = m.group("path").rsplit("/", 1)[0].replace("/", ".")
    for old, new in TYPES.items():
        (old_pkg, o), (new_pkg, n) = old.rsplit(".", 1), new.rsplit(".", 1)
        if o == n or o not in text or old in present or f"{new_pkg}.{o}" in present:
            continue
        imported = re.search(r"^import\s+(?:static\s+)?" + re.escape(new) + r"\s*[;.]", text, re.M)
        if package not in (old_pkg, new_pkg) and not imported:
            continue
        if re.search(r"\b(?:class|interface|enum|record|@interface)\s+" + o + r"\b", split_code(text)[0]) or re.search(
                r"^import\s+(?:static\s+)?[\w.]+\." + o + r"\s*;", text, re.M):
            continue
        word = re.compile(r"(?<![\w$.#])" + o + r"(?![\w$])")
        ref = re.compile(r"(\{@(?:link|linkplain|code)\s+[^}]*\}|@(?:see|throws)\s+\S+)")
        token = re.compile(r'"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*[\s\S]*?\*/|'
                           + word.pattern)
        text = token.sub(lambda t: n if t.group() == o else ref.sub(lambda r: word.sub(n, r.group()), t.group())
                         if t.group().startswith("/") else t.group(), text)
    return text


def fix_java(path, text, needed, was_sorted):
    """The package line from the folder; imports for the old package-mates now elsewhere; none of its own package."""
    m = SOURCE_RE.match(path)
    package = m.group("path").rsplit("/", 1)[0].replace("/", ".")
    p = PACKAGE_RE.search(text)
    if p and p.group(1) != package:
        text = text[:p.start(1)] + package + text[p.end(1):]
    if os.path.basename(path) == "package-info.java":
        return text
    lines = text.split("\n")
    imported = {x.group(2).rsplit(".", 1)[-1] for x in map(IMPORT_RE.match, lines) if x and not x.group(1)}
    add = sorted(n for n in needed if n.rsplit(".", 1)[0] != package and n.rsplit(".", 1)[1] not in imported)
    own = {x.group(2) for x in map(IMPORT_RE.match, lines)
           if x and not x.group(1) and x.group(2).rsplit(".", 1)[0] == package}
    return "\n".join(edit_imports(lines, add, own, was_sorted))


if __name__ == "__main__":
    main()
