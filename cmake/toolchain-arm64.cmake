# Cross-compiling stepslide for arm64 (aarch64) with Debian's cross toolchain
# and multiarch libraries (tools/arm64-gate.sh; docs/fuzzing.md "arm64"):
#   dpkg --add-architecture arm64 && apt-get update
#   apt-get install crossbuild-essential-arm64 libbullet-dev:arm64 libpng-dev:arm64 libassimp-dev:arm64
#   (libgtest-dev:arm64 for the unit tests), or tools/install-deps.sh with STEPSLIDE_WITH_ARM64=1
#   cmake -G Ninja -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm64.cmake -DCMAKE_BUILD_TYPE=Release
# Header-only dependencies (nlohmann-json, CLI11) come from the host's /usr/share.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# find_library and find_package look in /usr/lib/aarch64-linux-gnu (multiarch),
# never in the host's /usr/lib/x86_64-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# pkg-config (Bullet's bullet-float64, assimp): only the arm64 .pc files and
# the architecture-independent ones. Debian ships no aarch64-linux-gnu-pkg-config
# wrapper without dpkg-cross, so the host pkg-config is pointed at them.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
# Tests and gtest_discover_tests run through qemu-user, without -L: the
# binaries' loader /lib/ld-linux-aarch64.so.1 is then the multiarch
# libc6:arm64 one, the same glibc build as the libc.so.6 beside it. With
# -L /usr/aarch64-linux-gnu the loader comes from the cross toolchain's glibc
# build and libc.so.6 from the multiarch one, and any std::thread hangs
# (tools/arm64-gate.sh says more).
find_program(STEPSLIDE_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(STEPSLIDE_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${STEPSLIDE_QEMU_AARCH64})
endif()
