#!/usr/bin/env bash
# The CTest `tools/install-deps`: tools/install-deps.sh against stub dpkg,
# dpkg-query and apt-get on PATH. With multiarch (amd64 and arm64 copies of
# a library installed), a plain package name counts as installed when this
# machine's copy (or an arch-all one) is; NAME:arm64 only when the arm64 one
# is. Before the fix a plain name matched two status lines, so every
# present package was "missing" and reinstalled on every run.
# Usage: tests/tools/install_deps_test.sh SOURCE_DIR
set -euo pipefail

source_dir=$(cd "${1:?usage: install_deps_test.sh SOURCE_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-install-deps.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
# installed.txt: "NAME ARCH" per installed package.
# The stub honours -f as dpkg-query does: one formatted record per installed
# architecture, with no newline unless the format has one.
cat >"$work/bin/dpkg-query" <<'STUB'
#!/usr/bin/env bash
format='${Status}'
for arg in "$@"; do [[ "$arg" == -f=* ]] && format=${arg#-f=}; done
name=${@: -1}
grep "^$name " "$INSTALLED" | while read -r n a; do
  record=${format//'${Architecture}'/$a}
  record=${record//'${Status}'/install ok installed}
  printf '%b' "$record"
done
STUB
cat >"$work/bin/dpkg" <<STUB
#!/usr/bin/env bash
case "\$1" in
  --print-architecture) echo amd64 ;;
  --print-foreign-architectures) echo arm64 ;;
  *) echo "dpkg \$*" >>"$work/calls.txt" ;;
esac
STUB
cat >"$work/bin/apt-get" <<STUB
#!/usr/bin/env bash
echo "apt-get \$*" >>"$work/calls.txt"
STUB
printf '#!/usr/bin/env bash\necho 0\n' >"$work/bin/id"
chmod +x "$work/bin/"*

host=(build-essential cmake ninja-build pkg-config libcli11-dev nlohmann-json3-dev libbenchmark-dev python3 libjs-three valgrind)
multi=(libbullet-dev libgtest-dev libpng-dev libassimp-dev)
: >"$work/installed.txt"
for p in "${host[@]}"; do echo "$p amd64" >>"$work/installed.txt"; done
sed -i 's/^libjs-three amd64$/libjs-three all/' "$work/installed.txt"
for p in "${multi[@]}"; do printf '%s amd64\n%s arm64\n' "$p" "$p" >>"$work/installed.txt"; done
echo "crossbuild-essential-arm64 amd64" >>"$work/installed.txt"

failures=0
run() {  # run EXPECTED_LINE [ENV...]
  : >"$work/calls.txt"
  local out
  # The caller's own choices (CI exports STEPSLIDE_WITH_CHROMIUM=1) must not
  # leak in: each case sets exactly the variables it tests.
  out=$(env -u STEPSLIDE_WITH_CHROMIUM -u STEPSLIDE_WITH_CLANG -u STEPSLIDE_WITH_ARM64 \
    -u STEPSLIDE_EXTRA_PACKAGES PATH="$work/bin:$PATH" INSTALLED="$work/installed.txt" "${@:2}" bash "$source_dir/tools/install-deps.sh")
  if [[ "$out" != "$1" ]]; then
    echo "FAIL: ${*:2}: expected '$1', got '$out'" >&2
    failures=$((failures + 1))
  fi
}
run "install-deps: all 14 packages present"
[[ ! -s "$work/calls.txt" ]] || { echo "FAIL: apt-get ran with every package present" >&2; failures=$((failures + 1)); }
run "install-deps: installing qemu-user-static" STEPSLIDE_WITH_ARM64=1 STEPSLIDE_EXTRA_PACKAGES=
grep -q "apt-get install -y -qq --no-install-recommends qemu-user-static" "$work/calls.txt" ||
  { echo "FAIL: expected qemu-user-static installed, calls:" >&2; cat "$work/calls.txt" >&2; failures=$((failures + 1)); }
# An arm64 library missing while its amd64 copy is installed.
sed -i '/^libpng-dev arm64$/d' "$work/installed.txt"
echo "qemu-user-static amd64" >>"$work/installed.txt"
run "install-deps: installing libpng-dev:arm64" STEPSLIDE_WITH_ARM64=1
run "install-deps: all 14 packages present"

if [[ $failures -gt 0 ]]; then exit 1; fi
echo "install-deps: all cases pass"
