#!/usr/bin/env python3
"""Checks that every path README.md and docs/*.md name exists in the tree.

What counts as a path reference (code blocks between ``` fences are skipped,
except their #include lines and a folder listing's folders, a line that
starts with src/ or another top folder and a slash):
  - a relative link target, [text](target): resolved from the document's own
    folder, its #anchor dropped;
  - a backticked word starting with one of the repository's top folders
    (src/ include/ tools/ tests/ docs/ ...): resolved from the root;
  - a backticked or #included public header, stepslide/x.h: resolved from
    include/;
  - a backticked source file named from src/ (gate/core/csv.h, as the
    includes write it): resolved from src/;
  - a backticked bare file name (csv.cpp, check_layers.py): some file of
    that name exists under the source folders.
A backticked span is looked at word by word (`tools/x.sh --check` checks
tools/x.sh). Patterns are tolerated: *, ** and ? match as globs, <name>,
NAME-like capitals between slashes and `...` match anything, {a,b} expands,
and a trailing `:LINE`, `.*` or `/` is fine. Files the tools write, not the
repository, and the made-up names of examples are listed in NOT_IN_THE_TREE;
CTest names (tools/draw-order) are not paths.

Usage: tools/check_doc_paths.py [ROOT]   exit 0 clean, 1 with one line per
missing path (document:line: path), 2 on a usage error.
"""
import fnmatch
import glob
import os
import re
import sys

TOP_FOLDERS = ("src", "include", "tools", "tests", "docs", "scenarios", "golden", "examples", "bench",
               "cmake", "schema", "levels", "fuzz", "cli", ".ci")
SRC_FOLDERS = ("geometry", "collision", "controller", "base", "capture", "scenario", "gate", "fuzz")
CODE_SUFFIXES = (".h", ".cpp", ".py", ".sh", ".cmake", ".in", ".js", ".css")
# Where a bare file name may live.
BARE_NAME_FOLDERS = ("src", "include", "cli", "tests", "tools", "bench", "examples", "cmake", "fuzz", ".ci")
# Paths the documents name that are not in the tree on purpose: files the
# tools write as they run (pending results, the walk-through's scenario and
# golden in levels.md) and the made-up names of examples and error messages
# (besides any one-letter name, which is always an example's).
NOT_IN_THE_TREE = (
    "*.csv.new", "*.csv.new.svg",
    "scenarios/bug/*", "scenarios/courtyard/*", "golden/courtyard/*",
    "levels/house.*",
)

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
BACKTICKS = re.compile(r"`([^`]+)`")
INCLUDE = re.compile(r'#\s*include\s*[<"]([^>"]+)[>"]')
TRAILING = ".,;:)'\""


def expand_braces(text):
    match = re.search(r"\{([^{}]*)\}", text)
    if not match:
        return [text]
    out = []
    for part in match.group(1).split(","):
        out.extend(expand_braces(text[:match.start()] + part + text[match.end():]))
    return out


def as_pattern(path):
    """The path with its placeholders as glob wildcards, and whether it has any."""
    original = path
    path = re.sub(r"(?<=/)<[^<>/]*>", "**/*", path)  # any folders deep: golden/<same path>.csv
    path = re.sub(r"<[^<>/]*>", "*", path)
    path = re.sub(r"\.\.\.$", "*", path)
    path = path.replace("...", "*")
    # NAME, KIND, X between slashes (or at the end) are placeholders.
    path = re.sub(r"(?<=/)[A-Z][A-Z_]*(?=/|$|\.)", "*", path)
    return path, path != original or any(c in path for c in "*?[")


def clean(word):
    word = word.strip().rstrip(TRAILING)
    word = re.sub(r":\d+(-\d+)?$", "", word)  # file.cpp:42
    word = re.sub(r"#.*$", "", word)  # doc.md#anchor
    if word.endswith(".*"):  # reference_controller.* : any suffix
        word = word[:-1] + "*"
    return word


def exists(root, path):
    for variant in expand_braces(path):
        pattern, wild = as_pattern(variant)
        full = os.path.join(root, pattern.rstrip("/") or ".")
        if wild:
            if glob.glob(full, recursive=True):
                continue
            return False
        if not os.path.exists(full):
            return False
    return True


def not_in_the_tree(path):
    # A one-letter name (scenarios/x.json, golden/a/b.csv) is an example's.
    if any(len(part.split(".", 1)[0]) == 1 for part in path.split("/")[1:] if part):
        return True
    return any(fnmatch.fnmatch(path, pattern) for pattern in NOT_IN_THE_TREE)


def test_names(root):
    """CTest names (tools/draw-order) look like paths but are not."""
    names = set()
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = [d for d in subdirs if not d.startswith((".", "build"))]
        for name in files:
            if name == "CMakeLists.txt" or name.endswith(".cmake"):
                with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as handle:
                    names.update(re.findall(r'add_test\(\s*NAME\s+"?([^"\s)]+)', handle.read()))
    return names


class Names:
    """Every file's base name under the source folders, for bare names."""

    def __init__(self, root):
        self.names = set()
        for folder in BARE_NAME_FOLDERS:
            for directory, subdirs, files in os.walk(os.path.join(root, folder)):
                subdirs[:] = [d for d in subdirs if not d.startswith("build")]
                self.names.update(files)
        for name in os.listdir(root):
            if os.path.isfile(os.path.join(root, name)):
                self.names.add(name)

    def has(self, name):
        for variant in expand_braces(name):
            pattern, wild = as_pattern(variant)
            if wild:
                if not fnmatch.filter(self.names, pattern):
                    return False
            elif pattern not in self.names:
                return False
        return True


def word_problem(root, names, tests, word):
    """None when `word` is not a path or names something that exists, else the path."""
    word = clean(word)
    if word in tests:
        return None
    if not word or "://" in word or word.startswith("-") or "=" in word:
        return None
    if not_in_the_tree(word):
        return None
    first = word.split("/", 1)[0]
    if "/" in word and first in TOP_FOLDERS:
        return None if exists(root, word) else word
    if word.startswith("stepslide/") and word.endswith(".h"):
        return None if exists(root, "include/" + word) else word
    if "/" in word and first in SRC_FOLDERS and word.endswith(CODE_SUFFIXES):
        return None if exists(root, "src/" + word) else word
    if "/" not in word and re.fullmatch(r"[\w.*?<>{},-]+", word) and word.endswith(CODE_SUFFIXES) \
            and not word.startswith("."):
        return None if names.has(word) else word
    return None


def check_document(root, names, tests, document):
    problems = []
    base = os.path.dirname(document)
    name = os.path.relpath(document, root)
    in_fence = False
    prose = []  # (line number, text) outside fences; a backticked span may run over a line break
    with open(document, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
                prose.append((number, "\n"))
                continue
            if not in_fence:
                prose.append((number, line))
                continue
            # A folder listing: a line that starts with a folder of the tree.
            first = line.split()[0] if line.split() else ""
            if first.endswith("/") and first.split("/", 1)[0] in TOP_FOLDERS and not exists(root, first):
                problems.append((number, first))
            for header in INCLUDE.findall(line):
                if header.startswith("stepslide/") and not exists(root, "include/" + header):
                    problems.append((number, header))
    # The prose as one text, each paragraph apart (a span never crosses a
    # blank line), with a map from offset to line number.
    text = "".join(line for _, line in prose)
    starts, offset = [], 0
    for number, line in prose:
        starts.append((offset, number))
        offset += len(line)

    def line_of(position):
        found = starts[0][1] if starts else 1
        for begin, number in starts:
            if begin > position:
                break
            found = number
        return found

    for match in LINK.finditer(text):
        target = match.group(1)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # https:, mailto:, an anchor in this document
        path = target.split("#", 1)[0]
        if path and not os.path.exists(os.path.normpath(os.path.join(base, path))):
            problems.append((line_of(match.start()), target))
    for paragraph in re.finditer(r"(?:[^\n]|\n(?!\s*\n))+", text):
        for match in BACKTICKS.finditer(paragraph.group(0)):
            where = line_of(paragraph.start() + match.start())
            span = match.group(1)
            for include in INCLUDE.findall(span):
                if include.startswith("stepslide/") and not exists(root, "include/" + include):
                    problems.append((where, include))
            if "#include" in span.replace(" ", ""):
                continue
            # A placeholder may hold spaces: golden/<same path>.csv.
            span = re.sub(r"<[^<>]*>", "<name>", span)
            for word in span.split():
                missing = word_problem(root, names, tests, word)
                if missing:
                    problems.append((where, missing))
    return [f"{name}:{number}: {path}" for number, path in sorted(problems)]


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in ("-h", "--help")):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1] if len(argv) == 2 else ".")
    documents = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    documents = [d for d in documents if os.path.isfile(d)]
    if not documents:
        print(f"check_doc_paths: no README.md or docs/*.md under {root}", file=sys.stderr)
        return 2
    names = Names(root)
    tests = test_names(root)
    problems = []
    for document in documents:
        problems.extend(check_document(root, names, tests, document))
    for problem in problems:
        print(f"{problem}: no such path in the tree")
    if problems:
        print(f"check_doc_paths: {len(problems)} missing path(s) in {len(documents)} documents", file=sys.stderr)
        return 1
    print(f"check_doc_paths: every path in {len(documents)} documents exists")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
