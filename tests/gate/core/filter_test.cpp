// --filter (gate/core/filter.h): the glob, includes and excludes, names against
// paths, and what a filter that selects nothing does.
#include "gate/core/filter.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace stepslide {
namespace {

TEST(Glob, StarStaysInOneFolder) {
  EXPECT_TRUE(path_glob_match("stairs/up_*", "stairs/up_straight"));
  EXPECT_TRUE(path_glob_match("stairs/up_*", "stairs/up_"));
  EXPECT_FALSE(path_glob_match("stairs/up_*", "stairs/up_a/b"));
  EXPECT_FALSE(path_glob_match("*", "stairs/up"));
  EXPECT_TRUE(path_glob_match("*/*", "stairs/up"));
  EXPECT_TRUE(path_glob_match("*a*b*", "xaxxbx"));
}

TEST(Glob, QuestionMarkIsOneCharacterButNotASlash) {
  EXPECT_TRUE(path_glob_match("up_?", "up_a"));
  EXPECT_FALSE(path_glob_match("up_?", "up_"));
  EXPECT_FALSE(path_glob_match("up_?", "up_ab"));
  EXPECT_FALSE(path_glob_match("a?b", "a/b"));
}

TEST(Glob, DoubleStarCrossesFolders) {
  EXPECT_TRUE(path_glob_match("**", "stairs/deep/up"));
  EXPECT_TRUE(path_glob_match("stairs/**", "stairs/deep/up"));
  EXPECT_TRUE(path_glob_match("stairs/**", "stairs/up"));
  EXPECT_FALSE(path_glob_match("stairs/**", "walls/up"));
  EXPECT_TRUE(path_glob_match("**/up_*", "up_a")) << "'**/' is zero or more folders";
  EXPECT_TRUE(path_glob_match("**/up_*", "stairs/up_a"));
  EXPECT_TRUE(path_glob_match("**/up_*", "a/b/c/up_a"));
  EXPECT_FALSE(path_glob_match("**/up_*", "a/b/c/down_a"));
  EXPECT_TRUE(path_glob_match("a/**/b", "a/b"));
  EXPECT_TRUE(path_glob_match("a/**/b", "a/x/y/b"));
  EXPECT_TRUE(path_glob_match("s**.json", "scenarios/a/b.json"));
}

TEST(Glob, EverythingElseIsLiteralAndTheWholeTextMustMatch) {
  EXPECT_TRUE(path_glob_match("basics/jump", "basics/jump"));
  EXPECT_FALSE(path_glob_match("jump", "basics/jump")) << "anchored, not a substring";
  EXPECT_FALSE(path_glob_match("basics", "basics/jump"));
  EXPECT_TRUE(path_glob_match("[ab].{c}+", "[ab].{c}+"));
  EXPECT_FALSE(path_glob_match("a.c", "abc"));
  EXPECT_TRUE(path_glob_match("", ""));
  EXPECT_FALSE(path_glob_match("", "a"));
}

TEST(Glob, ManyStarsStayFast) {
  const std::string text(2000, 'a');
  EXPECT_FALSE(path_glob_match("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", text));
  EXPECT_FALSE(path_glob_match("**a**a**a**a**a**a**a**a**a**a**b", text));
}

TEST(Filter, ParsesIncludesAndExcludes) {
  const Expected<ScenarioFilter> f = parse_filters({"stairs/*", "-stairs/up_*", "walls/**"});
  ASSERT_TRUE(f);
  EXPECT_EQ(f->include, (std::vector<std::string>{"stairs/*", "walls/**"}));
  EXPECT_EQ(f->exclude, (std::vector<std::string>{"stairs/up_*"}));
  EXPECT_TRUE(parse_filters({})->empty());
  EXPECT_EQ(parse_filters({"-"}).error(), "--filter '-': expected a glob such as 'stairs/*', or '-GLOB' to exclude");
  EXPECT_FALSE(parse_filters({""}));
}

TEST(Filter, IncludesOrExcludesAnd) {
  const ScenarioFilter f = *parse_filters({"stairs/*", "walls/corner", "-stairs/up_*"});
  EXPECT_TRUE(filter_selects(f, "stairs/down", "scenarios/stairs/down.json"));
  EXPECT_TRUE(filter_selects(f, "walls/corner", "scenarios/walls/corner.json"));
  EXPECT_FALSE(filter_selects(f, "stairs/up_spiral", "scenarios/stairs/up_spiral.json")) << "excluded";
  EXPECT_FALSE(filter_selects(f, "walls/seam", "scenarios/walls/seam.json")) << "no include matches";
  const ScenarioFilter only_exclude = *parse_filters({"-walls/**"});
  EXPECT_TRUE(filter_selects(only_exclude, "stairs/down", "scenarios/stairs/down.json"));
  EXPECT_FALSE(filter_selects(only_exclude, "walls/corner", "scenarios/walls/corner.json"));
  EXPECT_TRUE(filter_selects(ScenarioFilter{}, "x", "x.json"));
}

TEST(Filter, MatchesThePathToo) {
  const ScenarioFilter f = *parse_filters({"scenarios/stairs/*.json"});
  EXPECT_TRUE(filter_selects(f, "stairs/down", "scenarios/stairs/down.json"));
  EXPECT_FALSE(filter_selects(f, "walls/x", "scenarios/walls/x.json"));
}

TEST(Filter, FilesAreNamedBelowTheRoot) {
  const std::vector<std::string> files{"scenarios/stairs/down.json", "scenarios/stairs/up_a.json",
                                       "scenarios/walls/corner.json"};
  const FilteredFiles kept = filter_scenario_files(files, "scenarios", *parse_filters({"stairs/*", "-**/up_*"}));
  EXPECT_EQ(kept.files, (std::vector<std::string>{"scenarios/stairs/down.json"}));
  EXPECT_EQ(kept.warnings, "");
  EXPECT_EQ(filter_scenario_files(files, "scenarios", {}).files, files) << "no filter keeps all";
}

TEST(Filter, AnIncludeThatMatchesNothingIsAWarning) {
  const std::vector<std::string> files{"scenarios/stairs/down.json"};
  const Expected<FilteredFiles> kept =
      select_scenario_files(files, "scenarios", *parse_filters({"stairs/*", "stiars/*"}));
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->warnings, "warning: --filter 'stiars/*' matches no scenario\n");
}

TEST(Filter, SelectingNothingIsAUsageError) {
  const std::vector<std::string> files{"scenarios/a.json", "scenarios/b.json"};
  const Expected<FilteredFiles> none = select_scenario_files(files, "scenarios", *parse_filters({"c", "-a"}));
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error(), "error: no scenario is selected by --filter 'c' --filter '-a' (of 2 scenarios found)\n");
  EXPECT_TRUE(filter_scenario_files(files, "scenarios", *parse_filters({"c"})).files.empty()) << "only select refuses";
}

class FilterOrphans : public test::WorkingDirTest {};

TEST_F(FilterOrphans, OrphansAreNamedLikeTheScenarioTheyLack) {
  write("scenarios/stairs/up.json", "{}");
  write("golden/stairs/up.csv", "");
  write("golden/stairs/gone.csv", "");
  write("golden/walls/gone.csv", "");
  const std::vector<std::string> files{"scenarios/stairs/up.json"};
  EXPECT_EQ(selected_orphan_goldens({}, files, "scenarios", "golden", {}),
            (std::vector<std::string>{"golden/stairs/gone.csv", "golden/walls/gone.csv"}));
  EXPECT_EQ(selected_orphan_goldens({}, files, "scenarios", "golden", *parse_filters({"walls/*"})),
            (std::vector<std::string>{"golden/walls/gone.csv"}));
  EXPECT_EQ(selected_orphan_goldens({"scenarios/stairs"}, files, "scenarios", "golden", {}),
            (std::vector<std::string>{"golden/stairs/gone.csv"}));
  EXPECT_TRUE(selected_orphan_goldens({"scenarios/stairs/up.json"}, files, "scenarios", "golden", {}).empty());
}

}  // namespace
}  // namespace stepslide
