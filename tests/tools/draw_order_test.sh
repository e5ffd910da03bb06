#!/usr/bin/env bash
# The CTest `tools/draw-order`: tools/check_draw_order.py finds statements
# that draw two random numbers in an order C++ leaves to the compiler (GCC and
# clang draw them differently, so the sanitizer build tested other cases), lets
# sequenced ones pass, and finds none in the project's own sources.
# Usage: tests/tools/draw_order_test.sh SOURCE_DIR
set -euo pipefail

source_dir=$(cd "${1:?usage: draw_order_test.sh SOURCE_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-draw-order.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tests" "$work/src" "$work/fuzz" "$work/bench"
cat >"$work/tests/cases.cpp" <<'CPP'
struct Pair { Pair(R& random) : a(random.uniform(0, 1), random.uniform(0, 2)), b(random.point(1)) {} };
void arguments() { x = btVector3(random.uniform(0, 1), 0, random.uniform(0, 1)); }
void operands() { y = make(random, 1) * random.uniform(0, 1); }
void argument_and_branch() { z = f(random.uniform(0, 1), c ? random.uniform(0, 1) : 0.0); }
void engine() { w = random.engine() % 3 + random.uniform(0, 1); }
void distribution() { v = btVector3(step(engine), step(engine) * 0.2, 0.0); }
// Sequenced: one per statement, a conditional's condition then its branch,
// member initializers one after another, a draw in a comment or string.
struct Fine { Fine(R& random) : a(random.uniform(0, 1)), b(random.point(1)) {} };
void statements() { const double a = random.uniform(0, 1); const double b = random.uniform(0, 1); }
void conditional() { const double h = random.uniform(0, 1) < 0.3 ? 0.0 : random.uniform(0, 0.9); }
void qualified() { const double r = random.uniform(0, 1) < 0.3 ? std::sqrt(random.uniform(0, 1)) : 0.0; }
void text() { log("random.uniform(0, 1) random.point(2)"); }  // random.point(1) random.uniform(0, 1)
CPP
rc=0
python3 "$source_dir/tools/check_draw_order.py" "$work" >"$work/out.txt" 2>/dev/null || rc=$?
expected="tests/cases.cpp:1 tests/cases.cpp:2 tests/cases.cpp:3 tests/cases.cpp:4 tests/cases.cpp:5 tests/cases.cpp:6"
found=$(cut -d: -f1,2 "$work/out.txt" | tr '\n' ' ' | sed 's/ $//')
failed=0
if [[ $rc -ne 1 || "$found" != "$expected" ]]; then
  echo "FAIL made-up cases: exit $rc (wanted 1), found: $found"
  echo "                                       wanted: $expected"
  failed=1
fi
if ! python3 "$source_dir/tools/check_draw_order.py" "$source_dir"; then
  echo "FAIL the project's sources draw in an unspecified order (above)"
  failed=1
fi
exit $failed
