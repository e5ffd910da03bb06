// `stepslide list` (gate/commands/listing.h): each state, orphans among the goldens
// the paths cover, filters, and that nothing is loaded or simulated.
#include "gate/commands/listing.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace stepslide {
namespace {

class Listing : public test::WorkingDirTest {
 protected:
  /// One scenario in each state, and an orphan golden and `.new` in stairs/.
  void SetUp() override {
    WorkingDirTest::SetUp();
    write("scenarios/stairs/ok.json", "not even JSON: list does not load scenarios");
    write("golden/stairs/ok.csv", "");
    write("scenarios/stairs/changed.json", "{}");
    write("golden/stairs/changed.csv", "");
    write("golden/stairs/changed.csv.new", "");
    write("scenarios/walls/fresh.json", "{}");
    write("golden/walls/fresh.csv.new", "");
    write("scenarios/walls/missing.json", "{}");
    write("golden/stairs/gone.csv", "");
    write("golden/stairs/gone_too.csv.new", "");
    write("golden/stairs/.hidden.csv", "");
  }
  static ListRun list(std::vector<std::string> paths = {}, std::vector<std::string> filters = {}) {
    ListRequest request;
    request.paths = std::move(paths);
    request.filters = std::move(filters);
    return run_list(request);
  }
};

TEST_F(Listing, EveryStateWithItsFile) {
  const ListRun run = list();
  EXPECT_EQ(run.exit_code, kExitOk) << run.errors;
  EXPECT_EQ(list_text(run.entries),
            "pending  scenarios/stairs/changed.json   golden/stairs/changed.csv.new\n"
            "ok       scenarios/stairs/ok.json\n"
            "pending  scenarios/walls/fresh.json      golden/walls/fresh.csv.new (no golden yet)\n"
            "missing  scenarios/walls/missing.json    golden/walls/missing.csv\n"
            "orphan   golden/stairs/gone.csv          no scenario scenarios/stairs/gone.json\n"
            "orphan   golden/stairs/gone_too.csv.new  pending result with no scenario scenarios/stairs/gone_too.json\n"
            "4 scenarios: 1 ok, 2 pending, 1 missing; 2 orphans\n");
}

TEST_F(Listing, OrphansOnlyAmongTheGoldensThePathsCover) {
  EXPECT_EQ(list_text(list({"scenarios/walls"}).entries),
            "pending  scenarios/walls/fresh.json    golden/walls/fresh.csv.new (no golden yet)\n"
            "missing  scenarios/walls/missing.json  golden/walls/missing.csv\n"
            "2 scenarios: 0 ok, 1 pending, 1 missing\n");
  EXPECT_EQ(list_text(list({"scenarios/stairs/ok.json"}).entries), "ok       scenarios/stairs/ok.json\n"
                                                                   "1 scenario: 1 ok, 0 pending, 0 missing\n")
      << "a file covers no other golden";
  EXPECT_EQ(list({"scenarios/stairs"}).entries.size(), 4u);
}

TEST_F(Listing, FiltersKeepScenariosAndOrphansByName) {
  EXPECT_EQ(list_text(list({}, {"stairs/*", "-stairs/gone*"}).entries),
            "pending  scenarios/stairs/changed.json  golden/stairs/changed.csv.new\n"
            "ok       scenarios/stairs/ok.json\n"
            "2 scenarios: 1 ok, 1 pending, 0 missing\n");
  EXPECT_EQ(list_text(list({}, {"**/gone"}).entries),
            "orphan   golden/stairs/gone.csv  no scenario scenarios/stairs/gone.json\n"
            "0 scenarios: 0 ok, 0 pending, 0 missing; 1 orphan\n")
      << "an orphan is named like the scenario it lacks";
}

TEST_F(Listing, OutsideTheRoot) {
  write("bugs/x.json", "{}");
  EXPECT_EQ(list_text(list({"bugs/x.json", "scenarios/stairs/ok.json"}).entries),
            "outside  bugs/x.json               outside the scenario root 'scenarios': no golden\n"
            "ok       scenarios/stairs/ok.json\n"
            "2 scenarios: 1 ok, 0 pending, 0 missing, 1 outside\n");
}

TEST_F(Listing, BadInputIsAUsageError) {
  EXPECT_EQ(list({"nowhere"}).errors, "error: nowhere: no such file or directory\n");
  const ListRun none = list({}, {"zzz"});
  EXPECT_EQ(none.exit_code, kExitOk) << "listing nothing is an answer";
  EXPECT_EQ(none.warnings, "warning: --filter 'zzz' matches no scenario\n");
  EXPECT_EQ(list({}, {"-"}).exit_code, kExitInvalid);
  EXPECT_EQ(list({}, {"stairs/*", "zzz"}).warnings, "warning: --filter 'zzz' matches no scenario\n");
}

}  // namespace
}  // namespace stepslide
