// The build fingerprint recorded in golden metadata: its fields (architecture,
// compiler, build type and that type's flags, Bullet, libc), read back field by
// field, and the note `check` prints once per run when goldens come from
// another build.
#include "gate/core/fingerprint.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace stepslide::test {
namespace {

const char* kOld =
    "stepslide 0.1.0; GNU 12.2.0; flags -O2 -DNDEBUG -ffp-contract=off -fno-fast-math; bullet 3.24 float64 (pkg "
    "3.24: LinearMath-float64); glibc 2.36";
const char* kX86 =
    "stepslide 0.1.0; arch x86_64; GNU 12.2.0; build Release; flags -O2 -DNDEBUG -ffp-contract=off -fno-fast-math; "
    "bullet 3.24 float64 (pkg 3.24: LinearMath-float64); glibc 2.36";
const char* kArm =
    "stepslide 0.1.0; arch aarch64; GNU 12.2.0; build Release; flags -O2 -DNDEBUG -ffp-contract=off -fno-fast-math; "
    "bullet 3.24 float64 (pkg 3.24: LinearMath-float64); glibc 2.36";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(BuildFingerprint, NamesTheArchitectureTheCompilerTargets) {
  const BuildInfo& b = build_info();
#if defined(__x86_64__)
  EXPECT_EQ(b.arch, "x86_64");
#elif defined(__aarch64__)
  EXPECT_EQ(b.arch, "aarch64");
#endif
  EXPECT_FALSE(b.arch.empty());
  EXPECT_TRUE(has(build_fingerprint(), "; arch " + b.arch + "; ")) << build_fingerprint();
}

TEST(BuildFingerprint, RecordsTheFlagsThisBuildTypeCompiledWith) {
  // This file is compiled with the same build type's flags as the library:
  // a Debug build must not claim Release's -O2 -DNDEBUG.
  const BuildInfo& b = build_info();
  EXPECT_TRUE(has(build_fingerprint(), "; build " + b.build_type + "; flags " + b.flags + ";")) << build_fingerprint();
#ifdef NDEBUG
  EXPECT_TRUE(has(b.flags, "-DNDEBUG")) << b.flags;
#else
  EXPECT_FALSE(has(b.flags, "-DNDEBUG")) << b.flags;
#endif
#ifdef __OPTIMIZE__
  EXPECT_TRUE(has(b.flags, "-O")) << b.flags;
#else
  EXPECT_FALSE(has(b.flags, "-O2")) << b.flags;
#endif
  EXPECT_TRUE(has(b.flags, "-ffp-contract=off -fno-fast-math")) << b.flags;
  EXPECT_TRUE(has(b.bullet, "float64")) << "Bullet's double precision: " << b.bullet;
}

TEST(FingerprintFields, SplitsTheLineIntoNamedFields) {
  const std::vector<FingerprintField> f = fingerprint_fields(kX86);
  std::vector<std::string> names;
  for (const FingerprintField& field : f) names.push_back(field.name);
  EXPECT_EQ(names, (std::vector<std::string>{"stepslide", "arch", "compiler", "build", "flags", "bullet", "libc"}));
  EXPECT_EQ(f[1].value, "x86_64");
  EXPECT_EQ(f[2].value, "GNU 12.2.0");
  EXPECT_EQ(f[4].value, "-O2 -DNDEBUG -ffp-contract=off -fno-fast-math");
  EXPECT_EQ(f[6].value, "glibc 2.36");
  EXPECT_EQ(fingerprint_fields(build_fingerprint()).size(), 7u);
}

TEST(FingerprintChanges, ComparesFieldByField) {
  EXPECT_TRUE(fingerprint_changes(kX86, kX86).empty());
  const std::vector<FingerprintChange> arch = fingerprint_changes(kX86, kArm);
  ASSERT_EQ(arch.size(), 1u);
  EXPECT_EQ(arch[0].name, "arch");
  EXPECT_EQ(arch[0].then, "x86_64");
  EXPECT_EQ(arch[0].now, "aarch64");
  // A fingerprint from before the field existed does not record it.
  const std::vector<FingerprintChange> old = fingerprint_changes(kOld, kX86);
  ASSERT_EQ(old.size(), 2u);
  EXPECT_EQ(old[0].name, "arch");
  EXPECT_EQ(old[0].then, "");
  EXPECT_EQ(old[1].name, "build");
}

TEST(BuildDifferenceNote, SaysOnceHowManyGoldensAndWhatDiffers) {
  EXPECT_EQ(build_difference_note({kX86, kX86, ""}, kX86), "") << "same build, or nothing recorded";
  EXPECT_EQ(build_difference_note({kX86, kArm, kArm, ""}, kX86),
            "note: 2 of 3 goldens were written by a different build: arch aarch64 (this build: x86_64)\n"
            "note: the processor architecture differs: where stepslide's own arithmetic decides the results agree "
            "bit for bit (dynamic bodies included); where Bullet's compiled code does (the few queries left to it, "
            "docs/fuzzing.md \"arm64\") they may differ in the last bits, and --exact says so\n");
  EXPECT_EQ(build_difference_note({kOld}, kX86),
            "note: 1 of 1 goldens were written by a different build: arch (not recorded) (this build: x86_64); build "
            "(not recorded) (this build: Release)\n")
      << "no architecture note when the golden does not say";
}

class CheckBuildNote : public TempDirTest {
 protected:
  /// A floor scenario, blessed by this build, then its golden's build line
  /// replaced by `build`.
  void golden_from(const std::string& name, const std::string& build) {
    write("scenarios/" + name + ".json",
          R"({"format": "stepslide/scenario@1", "ticks": 5, "world": [{"shape": {"type": "box",
              "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}]})");
    ASSERT_EQ(run("bless scenarios/" + name + ".json").code, 0);
    std::string golden = read("golden/" + name + ".csv");
    const std::size_t at = golden.find("# build ");
    ASSERT_NE(at, std::string::npos);
    golden.replace(at, golden.find('\n', at) - at, "# build " + build);
    write("golden/" + name + ".csv", golden);
  }
};

TEST_F(CheckBuildNote, APassingCheckNotesAnotherArchitectureOnce) {
  std::string other = build_fingerprint();
  const std::string arch = "arch " + build_info().arch + ";";
  other.replace(other.find(arch), arch.size(), "arch sparc64;");
  golden_from("a", other);
  golden_from("b", other);
  golden_from("c", build_fingerprint());
  const RunResult r = run("check");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "3 passed, 0 failed")) << r.out;
  EXPECT_EQ(r.err, "note: 2 of 3 goldens were written by a different build: arch sparc64 (this build: " +
                       build_info().arch +
                       ")\nnote: the processor architecture differs: where stepslide's own arithmetic decides the "
                       "results agree bit for bit (dynamic bodies included); where Bullet's compiled code does (the "
                       "few queries left to it, docs/fuzzing.md \"arm64\") they may differ in the last bits, and "
                       "--exact says so\n");
}

TEST_F(CheckBuildNote, NoNoteWhenEveryGoldenMatchesThisBuild) {
  golden_from("a", build_fingerprint());
  const RunResult r = run("check");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace stepslide::test
