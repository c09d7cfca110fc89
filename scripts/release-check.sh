#!/usr/bin/env bash
# Builds the Maven Central bundle as a release does (the release profile: sources, javadoc with every doclint
# check, signatures, central-publishing-maven-plugin) without uploading it, then checks what it holds: the
# parent's pom and the pom, jar, sources and javadoc of each published module (llmbench-engine, llmbench-junit,
# llmbench-cli), each with its md5/sha1/sha256/sha512 checksums (checked against the file), and nothing else;
# signatures only with --sign.
#
#   scripts/release-check.sh [--sign] [maven options...]
#
# Without --sign no key is needed: gpg is skipped and the bundle must hold no .asc. With --sign, gpg's default
# key signs (or -Dgpg.keyname=ID; MAVEN_GPG_PASSPHRASE for its passphrase) and every file must carry a
# signature that gpg verifies. The plugin bundles release versions only, so the build runs on a copy of the
# tree at the release version (-SNAPSHOT dropped, as release:prepare sets it), under target/release-check/.
# Nothing is installed into ~/.m2 and nothing is uploaded. Needs git, a JDK (its jar tool reads the zips) and
# Maven 3.9 (./mvnw brings it).
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "release-check: $*" >&2; exit 1; }

sign=false
if [ "${1:-}" = "--sign" ]; then sign=true; shift; fi
for tool in git jar sha256sum; do command -v "$tool" >/dev/null || die "$tool is needed"; done
if $sign; then command -v gpg >/dev/null || die "--sign needs gpg and a secret key"; fi
for arg in "$@"; do
  case "$arg" in -o|--offline) die "not offline: central-publishing-maven-plugin does nothing in an offline build" ;; esac
done

snapshot=$(grep -m1 '^  <version>' pom.xml | sed 's:.*<version>\(.*\)</version>.*:\1:')
release=${snapshot%-SNAPSHOT}
[ -n "$release" ] || die "no project version in pom.xml"

work=target/release-check
rm -rf "$work"
mkdir -p "$work/tree"
# The files git knows (committed or not, less what .gitignore leaves out), at the release version.
git ls-files -z --cached --others --exclude-standard \
  | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$work/tree"
find "$work/tree" -name pom.xml -not -path "$work/tree/examples/*" \
  -exec sed -i "s:<version>$snapshot</version>:<version>$release</version>:" {} +

# -pl cli -am: the published modules and nothing else (the plugin stages every module of the reactor).
maven=(-Prelease -pl cli -am deploy -Dmaven.test.skip=true -Dmaven.install.skip=true -DskipUpload=true)
$sign || maven+=(-Dgpg.skip=true)
echo "release-check: ./mvnw ${maven[*]} $* (version $release, in $work/tree)"
(cd "$work/tree" && ./mvnw -q "${maven[@]}" "$@") || die "the release build failed (javadoc: every public member of the API needs its comment, @param and @return)"

bundle="$work/tree/target/central-publishing/central-bundle.zip"
[ -f "$bundle" ] || die "central-publishing-maven-plugin wrote no $bundle"
cp "$bundle" "$work/central-bundle.zip"
mkdir -p "$work/bundle"
(cd "$work/bundle" && jar xf "$OLDPWD/$bundle")

# What the bundle must hold, and may hold: nothing else.
parent="dev/llmbench/llmbench-parent/$release/llmbench-parent-$release"
engine="dev/llmbench/llmbench-engine/$release/llmbench-engine-$release"
junit="dev/llmbench/llmbench-junit/$release/llmbench-junit-$release"
cli="dev/llmbench/llmbench-cli/$release/llmbench-cli-$release"
modules=("$engine" "$junit" "$cli")
files=("$parent.pom")
for m in "${modules[@]}"; do files+=("$m.pom" "$m.jar" "$m-sources.jar" "$m-javadoc.jar"); done
expected=()
for f in "${files[@]}"; do
  for sum in md5 sha1 sha256 sha512; do expected+=("$f.$sum"); done
  expected+=("$f")
  if $sign; then expected+=("$f.asc"); fi
done
actual=$(cd "$work/bundle" && find . -type f | sed 's:^\./::' | grep -v '\.asc\.\(md5\|sha1\|sha256\|sha512\)$' | sort)
wanted=$(printf '%s\n' "${expected[@]}" | sort)
if [ "$actual" != "$wanted" ]; then
  diff <(echo "$wanted") <(echo "$actual") >&2 || true
  die "the bundle does not hold what it should (< expected, > in $work/central-bundle.zip)"
fi

cd "$work/bundle"
for f in "${files[@]}"; do
  for sum in md5 sha1 sha256 sha512; do
    [ "$("${sum}sum" "$f" | cut -d' ' -f1)" = "$(tr -d ' \n' < "$f.$sum")" ] || die "$f.$sum does not match $f"
  done
  if $sign; then gpg --batch --verify "$f.asc" "$f" 2>/dev/null || die "$f.asc is not a good signature of $f"; fi
done
# Listings into variables first: grep -q closing the pipe early would fail jar under pipefail.
has() { local listing; listing=$(jar tf "$1"); grep -qx "$2" <<< "$listing" || die "$1 lacks $2"; }
has "$junit.jar" 'dev/llmbench/LlmClient.class'
has "$junit-sources.jar" 'dev/llmbench/LlmClient.java'
has "$junit-javadoc.jar" 'dev/llmbench/LlmClient.html'
has "$engine.jar" 'dev/llmbench/engine/EmbeddedLlmServer.class'
has "$engine-sources.jar" 'dev/llmbench/engine/EmbeddedLlmServer.java'
has "$cli.jar" 'dev/llmbench/cli/AnalyseMain.class'
has "$cli-sources.jar" 'dev/llmbench/cli/AnalyseMain.java'
# Central's required metadata: on the parent, which every module inherits; name and description on each.
for tag in '<url>https://github.com/llmbench/llmbench</url>' '<licenses>' '<name>Apache-2.0</name>' '<developers>' '<scm' \
           '<connection>scm:git:https://github.com/llmbench/llmbench.git</connection>' '<description>'; do
  grep -qF "$tag" "$parent.pom" || die "$parent.pom lacks $tag"
done
declare -A module_name=([$engine]=dev.llmbench.engine [$junit]=dev.llmbench [$cli]=dev.llmbench.cli)
for m in "${modules[@]}"; do
  has "$m.jar" 'META-INF/LICENSE'
  has "$m-javadoc.jar" 'index.html'
  javadoc=$(jar tf "$m-javadoc.jar")
  if grep -q '^dev/llmbench/internal/' <<< "$javadoc"; then die "$m-javadoc.jar documents dev.llmbench.internal"; fi
  manifest=$(rm -rf ../manifest && mkdir -p ../manifest && cd ../manifest && jar xf "$OLDPWD/$m.jar" META-INF/MANIFEST.MF && cat META-INF/MANIFEST.MF)
  grep -q "^Automatic-Module-Name: ${module_name[$m]}\s*\$" <<< "$manifest" || die "$m.jar's Automatic-Module-Name is not ${module_name[$m]}"
  grep -qF '<description>' "$m.pom" || die "$m.pom lacks <description>"
  grep -qF '<name>' "$m.pom" || die "$m.pom lacks <name>"
done
# A user's one dependency: llmbench-junit brings the engine, and picocli comes with the command-line module only.
grep -qF '<artifactId>llmbench-engine</artifactId>' "$junit.pom" || die "$junit.pom does not depend on llmbench-engine"
for m in "$engine" "$junit"; do
  if grep -qF 'picocli' "$m.pom"; then die "$m.pom names picocli: it belongs to llmbench-cli only"; fi
done
grep -qF '<artifactId>picocli</artifactId>' "$cli.pom" || die "$cli.pom does not depend on picocli"

signatures="none (no key: gpg skipped)"
if $sign; then signatures="one per file, verified by gpg"; fi
echo "release-check: $work/central-bundle.zip ($(jar tf "../central-bundle.zip" | grep -vc /$) files): llmbench-parent pom;" \
  "llmbench-engine, llmbench-junit, llmbench-cli: pom, jar, sources, javadoc; md5, sha1, sha256, sha512 each, matching;" \
  "signatures: $signatures"
