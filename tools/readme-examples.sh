#!/usr/bin/env bash
# The documentation's examples, made by running them: every block between
# `<!-- example: NAME -->` and `<!-- /example -->` in README.md or any
# docs/*.md is written by this script, commands and output alike, so the
# documentation cannot go stale.
#
#   tools/readme-examples.sh [--check] [--binary PATH] [--embed PATH] [--only NAME]...
#
# Without --check, rewrites the blocks where they stand. With --check, changes
# nothing and exits 1 naming each block that differs (with a diff), that no
# document holds or two hold, or that the script does not know. A block may
# move between README.md and docs/*.md freely: it is found by its name.
# Command blocks are run (in a scratch copy of the scenarios) and must
# succeed; output blocks show what the commands print. --binary is the
# stepslide to run (default build/stepslide). The `embed-output` block
# (docs/embedding.md) needs the examples/embed program built against an
# installed package (--embed PATH); without it that block is left alone (the
# install test checks it). The CTest `readme/examples` runs --check; output
# depends on floating point to the last bit, so it is only compared on the
# build that wrote the goldens (exit 77, skipped, elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

check=0
binary=build/stepslide
embed=""
only=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --check) check=1 ;;
    --binary) binary=${2:?--binary needs a path}; shift ;;
    --embed) embed=${2:?--embed needs a path}; shift ;;
    --only) only+=("${2:?--only needs a block name}"); shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "readme-examples: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
[[ -x "$binary" ]] || { echo "readme-examples: $binary is not built (tools/build.sh)" >&2; exit 2; }
[[ -z "$embed" ]] || embed=$(cd "$(dirname "$embed")" && pwd)/$(basename "$embed")

work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-readme.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/blocks"

# A scratch copy of the repository's scenarios and goldens, with the binary
# at build/stepslide, so commands read exactly as they do from a clone.
scratch() {
  local dir=$work/scratch.$1
  mkdir -p "$dir/build"
  cp -r "$root/scenarios" "$root/golden" "$root/schema" "$dir/"
  ln -s "$binary" "$dir/build/stepslide"
  echo "$dir"
}

# Runs one line of a command block in `dir` (expecting exit 0) and prints the
# line. The text after '#' is a comment for the reader.
command_line() {
  local dir=$1 line=$2
  local command=${line%%#*}
  if ! (cd "$dir" && env -u CI bash -c "$command" >"$work/last.out" 2>&1); then
    echo "readme-examples: \`$command\` failed in the documentation's example:" >&2
    tail -5 "$work/last.out" >&2
    return 1
  fi
  printf '%s\n' "$line"
}

# "$ command" then what it prints (stdout and stderr, as a terminal shows them).
output_of() {
  local dir=$1 command=$2
  printf '$ %s\n' "$command"
  (cd "$dir" && env -u CI -u NO_COLOR bash -c "$command" 2>&1) || true
}

# ---------------------------------------------------------------------------
# The blocks, in reading order (README.md, then docs/). Each prints the
# block's text between the markers, fences included.

block_quick_start() {
  local script
  for script in tools/check-scenarios.sh tools/run-tests.sh; do
    [[ -x "$root/$script" ]] || { echo "readme-examples: $script is not executable" >&2; return 1; }
  done
  cat <<'TEXT'
```sh
tools/check-scenarios.sh   # installs what is missing, builds the stepslide command alone, checks every scenario against its golden
tools/run-tests.sh         # same setup, builds everything, then every test: unit tests, one golden gate per scenario, determinism
```
TEXT
}

block_tour() {
  local dir
  dir=$(scratch tour)
  echo '```sh'
  command_line "$dir" 'build/stepslide run scenarios/stairs/up_straight.json --out -      # trajectory CSV to stdout'
  command_line "$dir" 'build/stepslide run scenarios/stairs/up_straight.json              # writes out/up_straight.csv'
  command_line "$dir" 'build/stepslide validate scenarios/stairs/*.json                   # load only; every error with its JSON path'
  command_line "$dir" 'build/stepslide settings                                           # every controller setting, default, unit'
  echo '```'
}

block_check_regression() {
  local dir
  dir=$(scratch regression)
  # The change the README's tour describes: a step height too low for these stairs.
  sed -i 's|^  "format": "stepslide/scenario@1",$|&\n  "character": {"settings": {"max_step_height": 0.15}},|' \
    "$dir/scenarios/stairs/up_straight.json"
  echo '```text'
  output_of "$dir" 'build/stepslide check scenarios/stairs/up_straight.json'
  echo '```'
}

block_trace_riser() {
  local dir
  dir=$(scratch trace)
  echo '```text'
  output_of "$dir" 'build/stepslide trace scenarios/stairs/riser_too_tall.json --tick 20'
  echo '```'
}

block_trace_platform() {
  local dir
  dir=$(scratch platform)
  echo '```text'
  output_of "$dir" 'build/stepslide trace scenarios/platforms/handover_on.json --tick 31'
  echo '```'
}

block_bless() {
  local dir
  dir=$(scratch bless)
  echo '```sh'
  command_line "$dir" 'build/stepslide bless scenarios/stairs/up_straight.json    # atomic write; refused when CI is set (unless --force)'
  echo '```'
}

block_run_stats() {
  local dir
  dir=$(scratch stats)
  command_line "$dir" 'build/stepslide run scenarios/stairs/up_straight.json --stats' >/dev/null
  # The times are wall time: the line's shape is shown, not one machine's numbers.
  local line
  line=$(cd "$dir" && build/stepslide run scenarios/stairs/up_straight.json --stats --repeat 5 | grep '^stats ' |
    sed -E 's/min [0-9.e+-]+ us/min N us/; s/median [0-9.e+-]+ us/median M us/')
  echo '```text'
  echo '$ build/stepslide run scenarios/stairs/up_straight.json --stats'
  (cd "$dir" && build/stepslide run scenarios/stairs/up_straight.json | grep -v '^stats ')
  echo "$line"
  echo '```'
}

block_pictures() {
  local dir
  dir=$(scratch pictures)
  echo '```sh'
  command_line "$dir" 'build/stepslide plot scenarios/stairs/up_spiral.json --golden golden/stairs/up_spiral.csv --out spiral.svg'
  command_line "$dir" 'build/stepslide check --report report   # report/index.html: every status; per failure its plot, divergence, worst errors'
  echo '```'
}

block_install() {
  cat <<'TEXT'
```sh
cmake --install build --prefix /opt/stepslide
```
TEXT
}

block_embed_output() {
  [[ -n "$embed" ]] || return 3  # not made here: left as it is
  echo '```text'
  "$embed"
  echo '```'
}

names=(quick-start tour check-regression trace-riser trace-platform bless run-stats pictures install embed-output)
selected() {
  [[ ${#only[@]} -eq 0 ]] && return 0
  local name
  for name in "${only[@]}"; do [[ "$name" == "$1" ]] && return 0; done
  return 1
}

for name in "${names[@]}"; do
  selected "$name" || continue
  status=0
  "block_${name//-/_}" >"$work/blocks/$name" || status=$?
  if [[ $status -eq 3 ]]; then
    rm "$work/blocks/$name"
  elif [[ $status -ne 0 ]]; then
    echo "readme-examples: could not make the example '$name'" >&2
    exit 1
  fi
done

python3 - "$root" "$work/blocks" "$check" "${names[@]}" <<'PY'
import difflib, glob, os, re, sys

root, blocks_dir, check, known = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4:]
documents = ["README.md"] + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))
pattern = re.compile(r"(<!-- example: ([a-z0-9-]+) -->\n)(.*?)(<!-- /example -->)", re.S)
found = {}  # name -> [documents holding it]
problems, rewritten = [], []

for document in documents:
    path = os.path.join(root, document)
    text = open(path, encoding="utf-8").read()

    def replace(match, document=document):
        name, body = match.group(2), match.group(3)
        found.setdefault(name, []).append(document)
        if name not in known:
            problems.append(f"{document}: example '{name}' is not made by tools/readme-examples.sh")
            return match.group(0)
        made_path = os.path.join(blocks_dir, name)
        if not os.path.exists(made_path):
            return match.group(0)  # not made in this run
        made = open(made_path, encoding="utf-8").read()
        if made != body:
            diff = "".join(difflib.unified_diff(body.splitlines(True), made.splitlines(True),
                                                f"{document} ({name})", f"tools/readme-examples.sh ({name})"))
            problems.append(f"{document}: example '{name}' differs from what tools/readme-examples.sh makes:\n{diff}")
        return match.group(1) + made + match.group(4)

    new_text = pattern.sub(replace, text)
    if not check and new_text != text:
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(new_text)
        os.replace(tmp, path)
        rewritten.append(document)

for name, where in sorted(found.items()):
    if len(where) > 1:
        problems.append(f"example '{name}' appears {len(where)} times: {', '.join(where)}")
for name in sorted(os.listdir(blocks_dir)):
    if name not in found:
        problems.append(f"no <!-- example: {name} --> block in README.md or docs/*.md for the example the script makes")

made = sorted(os.listdir(blocks_dir))
if check:
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print("run tools/readme-examples.sh to update the documentation", file=sys.stderr)
        sys.exit(1)
    places = ", ".join(f"{name} ({found[name][0]})" for name in made)
    print(f"{len(made)} examples match: {places}")
else:
    missing = [p for p in problems if "differs" not in p]
    for p in missing:
        print(p, file=sys.stderr)
    if rewritten:
        print(f"examples rewritten in {', '.join(rewritten)}")
    else:
        print("examples already up to date")
    sys.exit(1 if missing else 0)
PY
