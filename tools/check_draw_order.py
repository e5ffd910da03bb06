#!/usr/bin/env python3
"""Finds statements that draw two or more random numbers in an unspecified order.

C++ leaves unspecified the order in which a call's arguments, and the operands
of most operators, are evaluated: GCC evaluates a constructor's or an
overloaded operator's arguments right to left, clang left to right. A test
that writes `btVector3(random.uniform(..), random.uniform(..), ..)` therefore
tests different cases when built with clang (the sanitizer build) than with
GCC, and a bound it asserts over those cases can hold for one and fail for the
other (it did: a triangle-cache count of 4 000 handed triangles). Draw each
number in its own statement, or with a RandomGeometry helper that fixes the
order (`vector`, `within`).

Usage: tools/check_draw_order.py [ROOT]   (exit 1 naming each statement found)

A draw is a member call on a generator (`random.uniform(`, `rng.next(`,
`random.engine()`, ...), or a call given one (`dist(engine)`,
`random_caster(random, i)`). A conditional `c ? a : b`
sequences its condition before the branch it takes, so one draw in each of
the three is fine when nothing outside the conditional draws too.
"""
import pathlib
import re
import sys

GENERATORS = r"(?:random|random_|rng|engine|engine_|seeded)"
DRAW = re.compile(
    r"\b" + GENERATORS + r"\s*(?:\.|->)\s*(?:engine\s*\(\s*\)|(?!engine\b)[a-z_]+\s*\()"  # random.uniform(, random.engine()
    r"|\(\s*(?:" + GENERATORS + r"|random\.engine)\s*[,)]"  # distribution(engine), make_thing(random, ...)
)
FOLDERS = ("tests", "fuzz", "src", "bench")


def strip_comments_and_strings(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def statements(text):
    """(line number, statement text) for each piece between ; { and }."""
    start, line = 0, 1
    for i, ch in enumerate(text):
        if ch in ";{}":
            yield line, text[start:i]
            line += text.count("\n", start, i + 1)
            start = i + 1


def draws(text):
    return len(DRAW.findall(text))


def condition_start(text, question):
    """Where the condition of the `?` at `question` starts: after the nearest
    unmatched `(`, or top-level `,` or `=`, before it."""
    depth = 0
    for i in range(question - 1, -1, -1):
        ch = text[i]
        if ch in ")]":
            depth += 1
        elif ch in "([":
            if depth == 0:
                return i + 1
            depth -= 1
        elif depth == 0 and (ch == "," or (ch == "=" and text[i - 1 : i] not in ("=", "!", "<", ">")
                                           and text[i + 1 : i + 2] != "=")):
            return i + 1
    return 0


def top_level_split(text, separator):
    """`text` cut at each `separator` outside brackets."""
    pieces, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == separator and depth == 0:
            pieces.append(text[start:i])
            start = i + 1
    return pieces + [text[start:]]


INITIALIZERS = re.compile(r"\)\s*:(?!:)\s*(?=\w+\s*\()")


def unsequenced(statement):
    """Whether two draws in `statement` are unsequenced. A constructor's
    member initializers run one after another: each is judged alone."""
    initializers = INITIALIZERS.search(statement)
    if initializers:
        return any(unsequenced_expression(i) for i in top_level_split(statement[initializers.end():], ","))
    return unsequenced_expression(statement)


def branch_colon(text, question):
    """The `:` that ends the first branch of the `?` at `question` (not a
    `::` of a qualified name), or -1."""
    for match in re.finditer(r"(?<!:):(?!:)", text[question + 1 :]):
        return question + 1 + match.start()
    return -1


def unsequenced_expression(statement):
    question = statement.find("?")
    if question < 0:
        return draws(statement) >= 2
    start = condition_start(statement, question)
    colon = branch_colon(statement, question)
    outside, condition = statement[:start], statement[start:question]
    branches = (statement[question + 1 : colon], statement[colon + 1 :]) if colon > 0 else (statement[question + 1 :],)
    if draws(outside) and draws(statement[start:]):
        return True
    return draws(condition) >= 2 or any(unsequenced_expression(b) for b in branches)


def findings(root):
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".cpp", ".h") or path.name == "random_geometry.h":
                continue
            for line, statement in statements(strip_comments_and_strings(path.read_text())):
                if statement.lstrip().startswith("for"):
                    continue
                if unsequenced(statement):
                    first = line + statement[: len(statement) - len(statement.lstrip())].count("\n")
                    yield f"{path.relative_to(root)}:{first}: {' '.join(statement.split())[:160]}"


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    found = list(findings(root))
    for f in found:
        print(f)
    if found:
        print(f"{len(found)} statement(s) draw two or more random numbers in an order C++ leaves "
              "unspecified (GCC and clang draw them differently): draw one per statement, or use "
              "RandomGeometry::vector/within", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
