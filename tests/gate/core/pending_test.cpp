// Pending results (gate/core/pending.h, gate/commands/accept.h): what `check` writes for a
// failing scenario in each update mode, what removes a stale one, and what
// accept and reject do with them, called as libraries in a temp directory.
#include "gate/core/pending.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "gate/commands/accept.h"
#include "gate/commands/bless.h"
#include "gate/commands/check_run.h"
#include "support/temp_dir.h"

namespace stepslide {
namespace {

namespace fs = std::filesystem;

std::string floor_json(int ticks, const std::string& extra = "") {
  return R"({"format": "stepslide/scenario@1", "ticks": )" + std::to_string(ticks) +
         R"(, "world": [{"shape": {"type": "box", "half_extents": [5, 0.5, 5]}, "position": [0, -0.5, 0]}])" +
         (extra.empty() ? "" : ", " + extra) + "}";
}

const char* const kFailingExpectation = R"("expect": [{"tick": "end", "position": [0, 5, 0]}])";

EnvLookup env_of(const std::map<std::string, std::string>& vars) {
  return [vars](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

class Pending : public test::WorkingDirTest {
 protected:
  static void bless_all() {
    BlessRequest request;
    request.fingerprint = "test build";
    ASSERT_EQ(run_bless(request).exit_code, kExitOk);
  }
  static CheckRun check(const std::map<std::string, std::string>& env = {}, const std::string& update = "",
                        bool force = false) {
    CheckRequest request;
    request.fingerprint = "test build";
    request.env = env_of(env);
    request.update = update;
    request.force = force;
    return run_check(request);
  }
  static AcceptRun accept(std::vector<std::string> paths, bool reject = false) {
    AcceptRequest request;
    request.reject = reject;
    request.all = paths.empty();
    request.paths = std::move(paths);
    return run_accept(request);
  }
  /// a.json blessed at 3 ticks, then changed to 4: a regression.
  void regress_a() {
    write("scenarios/a.json", floor_json(3));
    bless_all();
    write("scenarios/a.json", floor_json(4));
  }
};

// ---------------------------------------------------------------------------
// check writes them

TEST_F(Pending, AFailingCheckWritesWhatBlessWouldWrite) {
  regress_a();
  const CheckRun run = check();
  ASSERT_EQ(run.outcomes.size(), 1u);
  const CheckOutcome& a = run.outcomes[0];
  EXPECT_EQ(a.verdict, Verdict::Fail);
  EXPECT_EQ(a.pending, "golden/a.csv.new");
  EXPECT_CONTAINS(a.report, "pending golden/a.csv.new: if the change is intended, run `stepslide accept "
                            "golden/a.csv.new`, or `stepslide review` to look first\n");
  EXPECT_FALSE(test::contains(a.report, "hint: if this change is intended, run `stepslide bless"))
      << "the pending line replaces the bless hint";
  EXPECT_EQ(run.exit_code, kExitFailure);
  const std::string pending = read("golden/a.csv.new");
  fs::copy_file("golden/a.csv", "old.csv");
  BlessRequest bless;
  bless.fingerprint = "test build";
  const BlessRun blessed = run_bless(bless);
  ASSERT_EQ(blessed.outcomes.size(), 1u);
  EXPECT_EQ(read("golden/a.csv"), pending) << "the .new is byte for byte the golden bless writes";
  EXPECT_FALSE(exists("golden/a.csv.new")) << "blessing removes the pending result";
}

TEST_F(Pending, AMissingGoldenGetsOneToo) {
  write("scenarios/new.json", floor_json(2));
  const CheckRun run = check();
  EXPECT_EQ(run.outcomes.at(0).pending, "golden/new.csv.new");
  EXPECT_CONTAINS(run.outcomes[0].report, "missing golden golden/new.csv");
  EXPECT_TRUE(exists("golden/new.csv.new"));
  EXPECT_FALSE(exists("golden/new.csv"));
}

TEST_F(Pending, APassingScenarioRemovesItsStaleResult) {
  write("scenarios/a.json", floor_json(3));
  bless_all();
  write("golden/a.csv.new", "stale");
  write("golden/a.csv.new.svg", "<svg/>");
  write("golden/other.csv.new", "not ours");
  EXPECT_EQ(check().exit_code, kExitOk);
  EXPECT_FALSE(exists("golden/a.csv.new"));
  EXPECT_FALSE(exists("golden/a.csv.new.svg"));
  EXPECT_TRUE(exists("golden/other.csv.new")) << "only a scenario's own";
}

TEST_F(Pending, ARunItsOwnExpectationsRejectIsNeverPending) {
  write("scenarios/a.json", floor_json(3));
  bless_all();
  write("golden/a.csv.new", "stale");
  write("scenarios/a.json", floor_json(4, kFailingExpectation));
  const CheckRun run = check();
  EXPECT_EQ(run.outcomes.at(0).pending, "");
  EXPECT_FALSE(exists("golden/a.csv.new")) << "and a stale one goes";
  write("scenarios/b.json", floor_json(2, kFailingExpectation));
  check();
  EXPECT_FALSE(exists("golden/b.csv.new")) << "no golden and failing expectations: nothing to accept";
}

TEST_F(Pending, ScenariosOutsideTheRootAndOtherControllersWriteNone) {
  write("scenarios/a.json", floor_json(2));
  write("bugs/x.json", floor_json(2));
  CheckRequest outside;
  outside.fingerprint = "test build";
  outside.paths = {"bugs/x.json"};
  EXPECT_EQ(run_check(outside).exit_code, kExitFailure);
  CheckRequest bullet;
  bullet.fingerprint = "test build";
  bullet.controller = "bullet";
  EXPECT_EQ(run_check(bullet).exit_code, kExitOk);
  EXPECT_FALSE(exists("golden"));
  EXPECT_FALSE(exists("bugs/golden"));
}

TEST_F(Pending, AnUnwritableResultMakesTheRunInvalid) {
  regress_a();
  fs::create_directories("golden/a.csv.new");  // a folder where the file goes
  const CheckRun run = check();
  EXPECT_TRUE(run.outcomes.at(0).write_failed);
  EXPECT_CONTAINS(run.outcomes[0].report, "error: cannot write golden/a.csv.new: ");
  EXPECT_EQ(run.exit_code, kExitInvalid);
}

TEST_F(Pending, AGoldenLeftBrokenByAMergeGetsAResultThatMendsIt) {
  write("scenarios/a.json", floor_json(3));
  bless_all();
  write("golden/a.csv", "<<<<<<< HEAD\ntick,x\n0,1\n=======\n");
  const CheckRun run = check();
  EXPECT_EQ(run.exit_code, kExitInvalid) << "an unparseable golden is still invalid input";
  EXPECT_EQ(run.outcomes.at(0).pending, "golden/a.csv.new");
  std::string heard;
  AcceptRequest request;
  request.all = true;
  request.on_item = [&heard](const std::string& text, bool) { heard += text; };
  EXPECT_EQ(run_accept(request).exit_code, kExitOk);
  EXPECT_EQ(heard, "accepted golden/a.csv (replaces a file that is not a trajectory)\n");
  EXPECT_EQ(check().exit_code, kExitOk);
}

// ---------------------------------------------------------------------------
// Update modes

TEST_F(Pending, ModesParse) {
  EXPECT_EQ(parse_update_mode("auto"), UpdateMode::Auto);
  EXPECT_EQ(parse_update_mode("new"), UpdateMode::New);
  EXPECT_EQ(parse_update_mode("always"), UpdateMode::Always);
  EXPECT_EQ(parse_update_mode("no"), UpdateMode::No);
  EXPECT_EQ(parse_update_mode("yes"), std::nullopt);
  EXPECT_EQ(parse_update_mode("Auto"), std::nullopt);
}

TEST_F(Pending, ModeActions) {
  const auto action = [](const std::string& option, bool force, const std::map<std::string, std::string>& env) {
    return pending_action(option, force, env_of(env));
  };
  EXPECT_EQ(*action("", false, {}), PendingAction::WriteNew) << "auto, outside CI";
  EXPECT_EQ(*action("", false, {{"STEPSLIDE_UPDATE", ""}}), PendingAction::WriteNew) << "empty is auto";
  EXPECT_EQ(*action("", false, {{"CI", "true"}}), PendingAction::None) << "auto, in CI";
  EXPECT_EQ(*action("", false, {{"CI", "true"}, {"STEPSLIDE_UPDATE", "new"}}), PendingAction::WriteNew);
  EXPECT_EQ(*action("", false, {{"STEPSLIDE_UPDATE", "no"}}), PendingAction::None);
  EXPECT_EQ(*action("", false, {{"STEPSLIDE_UPDATE", "always"}}), PendingAction::WriteGolden);
  EXPECT_EQ(*action("new", false, {{"STEPSLIDE_UPDATE", "no"}}), PendingAction::WriteNew) << "the option wins";
  EXPECT_EQ(*action("always", true, {{"CI", "1"}}), PendingAction::WriteGolden) << "--force";
  EXPECT_EQ(action("", false, {{"STEPSLIDE_UPDATE", "sometimes"}}).error(),
            "error: STEPSLIDE_UPDATE=sometimes: expected auto, new, always or no\n");
  EXPECT_EQ(action("yes", false, {}).error(), "error: --update yes: expected auto, new, always or no\n");
  EXPECT_EQ(action("", false, {{"CI", "1"}, {"STEPSLIDE_UPDATE", "always"}}).error(),
            "error: refusing STEPSLIDE_UPDATE=always: the CI environment variable is set (CI=1); goldens are updated "
            "by a person who has looked at the change, not by a CI job. Use --force to update anyway.\n");
}

TEST_F(Pending, AutoWritesNothingInCi) {
  regress_a();
  write("golden/stale_elsewhere.csv.new", "x");
  const CheckRun run = check({{"CI", "true"}});
  EXPECT_EQ(run.outcomes.at(0).pending, "");
  EXPECT_CONTAINS(run.outcomes[0].report, "hint: if this change is intended, run `stepslide bless scenarios/a.json`");
  EXPECT_FALSE(exists("golden/a.csv.new"));
  EXPECT_TRUE(exists("golden/stale_elsewhere.csv.new"));
}

TEST_F(Pending, NewWritesInCiToo) {
  regress_a();
  check({{"CI", "true"}, {"STEPSLIDE_UPDATE", "new"}});
  EXPECT_TRUE(exists("golden/a.csv.new"));
}

TEST_F(Pending, NoWritesAndRemovesNothing) {
  regress_a();
  check({{"STEPSLIDE_UPDATE", "no"}});
  EXPECT_FALSE(exists("golden/a.csv.new"));
  write("scenarios/a.json", floor_json(3));
  write("golden/a.csv.new", "stale");
  EXPECT_EQ(check({}, "no").exit_code, kExitOk);
  EXPECT_TRUE(exists("golden/a.csv.new")) << "no: the file system is left alone";
}

TEST_F(Pending, AlwaysOverwritesTheGoldenButTheCheckStillFails) {
  regress_a();
  write("golden/a.csv.new", "stale");
  const CheckRun run = check({{"STEPSLIDE_UPDATE", "always"}});
  EXPECT_EQ(run.exit_code, kExitFailure) << "this run did differ";
  EXPECT_CONTAINS(run.outcomes.at(0).report, "updated golden/a.csv with this run (update mode always)\n");
  EXPECT_FALSE(exists("golden/a.csv.new"));
  EXPECT_EQ(check().exit_code, kExitOk) << "the next check passes";
}

TEST_F(Pending, AlwaysIsRefusedInCiUnlessForced) {
  regress_a();
  const std::string before = read("golden/a.csv");
  const CheckRun refused = check({{"CI", "true"}}, "always");
  EXPECT_EQ(refused.exit_code, kExitInvalid);
  EXPECT_TRUE(refused.outcomes.empty()) << "refused before checking anything";
  EXPECT_CONTAINS(refused.errors, "refusing --update always: the CI environment variable is set (CI=true)");
  EXPECT_EQ(read("golden/a.csv"), before);
  EXPECT_EQ(check({{"CI", "false"}}, "always").exit_code, kExitFailure) << "CI=false is not CI";
  write("scenarios/a.json", floor_json(5));
  EXPECT_EQ(check({{"CI", "true"}}, "always", /*force=*/true).exit_code, kExitFailure);
  EXPECT_EQ(check().exit_code, kExitOk);
}

// ---------------------------------------------------------------------------
// accept and reject

TEST_F(Pending, AcceptMovesTheResultOverItsGolden) {
  regress_a();
  check();
  const std::string pending = read("golden/a.csv.new");
  write("golden/a.csv.new.svg", "<svg/>");
  std::string heard;
  AcceptRequest request;
  request.paths = {"golden/a.csv.new"};
  request.on_item = [&heard](const std::string& text, bool ok) { heard += (ok ? "ok " : "no ") + text; };
  const AcceptRun run = run_accept(request);
  EXPECT_EQ(run.exit_code, kExitOk) << run.errors;
  EXPECT_EQ(heard,
            "ok accepted golden/a.csv (changed: first divergence at tick 4: extra row in actual (got tick 4))\n");
  EXPECT_EQ(run.closing, "1 accepted, 0 not accepted");
  EXPECT_EQ(read("golden/a.csv"), pending);
  EXPECT_FALSE(exists("golden/a.csv.new"));
  EXPECT_FALSE(exists("golden/a.csv.new.svg"));
  EXPECT_EQ(check().exit_code, kExitOk);
}

TEST_F(Pending, AcceptOfANewGoldenAndOfMetadataOnly) {
  write("scenarios/new.json", floor_json(2));
  check();
  EXPECT_EQ(accept({"scenarios/new.json"}).exit_code, kExitOk);
  EXPECT_TRUE(exists("golden/new.csv"));
  write("golden/new.csv.new", read("golden/new.csv"));
  std::string heard;
  AcceptRequest request;
  request.all = true;
  request.on_item = [&heard](const std::string& text, bool) { heard += text; };
  run_accept(request);
  EXPECT_EQ(heard, "accepted golden/new.csv (metadata only: same trajectory)\n");
}

TEST_F(Pending, RejectDeletesIt) {
  regress_a();
  check();
  const std::string golden = read("golden/a.csv");
  write("golden/a.csv.new.svg", "<svg/>");
  const AcceptRun run = accept({"golden/a.csv"}, /*reject=*/true);
  EXPECT_EQ(run.exit_code, kExitOk);
  EXPECT_EQ(run.closing, "1 rejected");
  EXPECT_FALSE(exists("golden/a.csv.new"));
  EXPECT_FALSE(exists("golden/a.csv.new.svg"));
  EXPECT_EQ(read("golden/a.csv"), golden);
}

/// The one line accept gives for `pending`, and its exit code.
std::pair<std::string, int> accept_one(const std::string& pending) {
  AcceptRequest request;
  request.paths = {pending};
  std::string heard;
  request.on_item = [&heard](const std::string& text, bool) { heard += text; };
  const AcceptRun run = run_accept(request);
  return {heard + run.errors, run.exit_code};
}

TEST_F(Pending, AResultWhoseScenarioIsGoneInvalidOrChangedIsNotAccepted) {
  write("scenarios/a.json", floor_json(2));
  write("scenarios/b.json", floor_json(2));
  write("scenarios/c.json", floor_json(2));
  check();
  fs::remove("scenarios/a.json");
  write("scenarios/b.json", "{ broken");
  write("scenarios/c.json", floor_json(3));
  auto [a, a_code] = accept_one("golden/a.csv.new");
  EXPECT_EQ(a, "not accepted golden/a.csv.new: its scenario scenarios/a.json does not exist; reject it with "
               "`stepslide reject golden/a.csv.new`\n");
  EXPECT_EQ(a_code, kExitFailure);
  auto [b, b_code] = accept_one("golden/b.csv.new");
  EXPECT_EQ(b.rfind("not accepted golden/b.csv.new: its scenario scenarios/b.json is invalid; fix it and run "
                    "`stepslide check scenarios/b.json` again\nscenarios/b.json: ", 0), 0u) << b;
  EXPECT_EQ(b_code, kExitFailure);
  auto [c, c_code] = accept_one("golden/c.csv.new");
  EXPECT_CONTAINS(c, "not accepted golden/c.csv.new: its scenario scenarios/c.json changed since `check` wrote it "
                     "(fnv1a64:");
  EXPECT_CONTAINS(c, "run `stepslide check scenarios/c.json` again\n");
  EXPECT_EQ(c_code, kExitFailure);
  for (const char* name : {"a", "b", "c"}) {
    EXPECT_FALSE(exists(std::string("golden/") + name + ".csv")) << name;
    EXPECT_TRUE(exists(std::string("golden/") + name + ".csv.new")) << "kept for review: " << name;
  }
  EXPECT_EQ(accept({}, /*reject=*/true).closing, "3 rejected") << "reject takes them whatever their scenario";
}

TEST_F(Pending, AResultThatIsNotATrajectoryOrNotAFileIsNotAccepted) {
  write("scenarios/a.json", floor_json(2));
  write("scenarios/b.json", floor_json(2));
  write("golden/a.csv.new", "tick,x\n0,<<<<<<< HEAD\n");
  write("elsewhere.csv", "tick\n0\n");
  fs::create_symlink(fs::absolute("elsewhere.csv"), "golden/b.csv.new");
  EXPECT_EQ(accept_one("golden/a.csv.new").first.rfind("not accepted golden/a.csv.new: it is not a trajectory (", 0),
            0u);
  EXPECT_EQ(accept_one("golden/b.csv.new").first, "not accepted golden/b.csv.new: it is not a regular file\n");
  EXPECT_FALSE(exists("golden/a.csv"));
  EXPECT_FALSE(exists("golden/b.csv"));
}

TEST_F(Pending, PathsNameResultsInFiveWays) {
  for (const char* name : {"stairs/a", "stairs/b", "walls/c", "top"}) {
    write(std::string("scenarios/") + name + ".json", floor_json(2));
  }
  check();
  const Roots roots;
  const auto pending = [&roots](std::vector<std::string> paths) {
    std::vector<std::string> found;
    const Expected<std::vector<PendingItem>> items = select_pending(paths, roots, {});
    if (!items) return std::vector<std::string>{items.error()};
    for (const PendingItem& item : *items) found.push_back(item.pending);
    return found;
  };
  EXPECT_EQ(pending({}), (std::vector<std::string>{"golden/stairs/a.csv.new", "golden/stairs/b.csv.new",
                                                   "golden/top.csv.new", "golden/walls/c.csv.new"}));
  EXPECT_EQ(pending({"golden/top.csv.new"}), (std::vector<std::string>{"golden/top.csv.new"}));
  EXPECT_EQ(pending({"golden/top.csv"}), (std::vector<std::string>{"golden/top.csv.new"}));
  EXPECT_EQ(pending({"scenarios/top.json"}), (std::vector<std::string>{"golden/top.csv.new"}));
  EXPECT_EQ(pending({"golden/stairs/"}),
            (std::vector<std::string>{"golden/stairs/a.csv.new", "golden/stairs/b.csv.new"}));
  EXPECT_EQ(pending({"scenarios/walls", "scenarios/walls/c.json"}),
            (std::vector<std::string>{"golden/walls/c.csv.new"}))
      << "a scenario folder, through its golden folder; once each";
  const Expected<std::vector<PendingItem>> filtered =
      select_pending({}, roots, *parse_filters({"stairs/*", "-stairs/b"}));
  ASSERT_TRUE(filtered);
  ASSERT_EQ(filtered->size(), 1u);
  EXPECT_EQ(filtered->front().name, "stairs/a");
  EXPECT_EQ(filtered->front().scenario, "scenarios/stairs/a.json");
  EXPECT_EQ(filtered->front().golden, "golden/stairs/a.csv");
}

TEST_F(Pending, BadPathsAreRefusedEachWithItsReason) {
  write("scenarios/a.json", floor_json(2));
  write("bugs/x.json", floor_json(2));
  bless_all();
  const Expected<std::vector<PendingItem>> items =
      select_pending({"nowhere.json", "scenarios/a.json", "bugs/x.json", "bugs", "golden/z.csv.new"}, Roots{}, {});
  ASSERT_FALSE(items);
  EXPECT_EQ(items.error(),
            "error: nowhere.json: no such file or directory\n"
            "error: scenarios/a.json: no pending result (golden/a.csv.new does not exist)\n"
            "error: bugs/x.json: outside the scenario root 'scenarios', so it has no golden and no pending result\n"
            "error: bugs: neither inside the scenario root 'scenarios' nor inside the golden root 'golden'\n"
            "error: golden/z.csv.new: no pending result (golden/z.csv.new does not exist)\n");
}

TEST_F(Pending, AcceptNeedsPathsOrAllButNotBoth) {
  AcceptRequest neither;
  EXPECT_EQ(run_accept(neither).errors,
            "error: accept needs PATH... (pending results, goldens, scenarios or folders) or --all\n");
  AcceptRequest both;
  both.reject = true;
  both.all = true;
  both.paths = {"golden"};
  EXPECT_EQ(run_accept(both).errors, "error: reject takes PATH... or --all, not both\n");
  EXPECT_EQ(run_accept(both).exit_code, kExitInvalid);
  AcceptRequest all;
  all.all = true;
  const AcceptRun none = run_accept(all);
  EXPECT_EQ(none.exit_code, kExitOk);
  EXPECT_EQ(none.closing, "no pending results under golden");
}

}  // namespace
}  // namespace stepslide
