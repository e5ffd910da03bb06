// The "tolerance" block of a scenario, and the same form in a project file:
// see scenario/load/tolerance.h. The gate applies what this reads (gate/core/tolerances.h);
// this file only checks that each key names a column and each value is a
// tolerance.

#include "scenario/load/tolerance.h"

#include "scenario/columns.h"
#include "scenario/load/column_pattern.h"

namespace stepslide {

namespace {

using namespace strict_json;

constexpr Range kTolerance = at_least(0.0);

/// One value: a number, or {"abs", "rel"}. False when it is not a tolerance.
bool read_value(JsonReader& r, const Field& f, ColumnTolerance& entry) {
  if (f.value->is_number()) return r.number(f, kTolerance, entry.abs);
  if (!f.value->is_object()) {
    r.error(f.where, "expected a number >= 0 or an object with \"abs\" and/or \"rel\", got " + describe(*f.value));
    return false;
  }
  ObjectReader o(r, f);
  const Field abs = o.optional("abs");
  const Field rel = o.optional("rel");
  bool ok = true;
  if (!abs && !rel) {
    r.error(f.where, "expected \"abs\" and/or \"rel\"");
    ok = false;
  }
  ok = (!abs || r.number(abs, kTolerance, entry.abs)) && ok;
  ok = (!rel || r.number(rel, kTolerance, entry.rel)) && ok;
  o.reject_unknown();
  return ok;
}

/// Among the entries matching `column`, the most specific ones; more than
/// one only on a tie.
std::vector<std::size_t> most_specific(const std::vector<ColumnTolerance>& entries, const std::string& column) {
  std::vector<std::size_t> best;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!glob_match(entries[i].pattern, column)) continue;
    const int rank = best.empty() ? 1 : compare_specificity(entries[i].pattern, entries[best.front()].pattern);
    if (rank > 0) best.clear();
    if (rank >= 0) best.push_back(i);
  }
  return best;
}

bool same_tolerance(const ColumnTolerance& a, const ColumnTolerance& b) { return a.abs == b.abs && a.rel == b.rel; }

/// For each entry that ties with an earlier one on some column with a
/// different tolerance, the message to report at it ("" for none). The
/// order of keys in an object carries no meaning, so a tie cannot be broken.
std::vector<std::string> ties(const std::vector<ColumnTolerance>& entries) {
  std::vector<std::string> problems(entries.size());
  for (const std::string& column : column_names()) {
    const std::vector<std::size_t> best = most_specific(entries, column);
    for (std::size_t k = 1; k < best.size(); ++k) {
      const ColumnTolerance& first = entries[best.front()];
      const ColumnTolerance& later = entries[best[k]];
      if (same_tolerance(first, later) || !problems[best[k]].empty()) continue;
      problems[best[k]] = quote(later.pattern) + " and " + quote(first.pattern) + " match column " + column +
                          " equally specifically with different tolerances; add a key for " + column +
                          " itself or make one of them more specific";
    }
  }
  return problems;
}

}  // namespace

void read_tolerances(JsonReader& r, const Field& f, std::vector<ColumnTolerance>& out) {
  if (!f || !r.object(f)) return;
  const Json::Members members = f.value->members();
  std::vector<ColumnTolerance> entries;
  std::vector<std::size_t> positions;  // of each valid entry among the members
  std::size_t position = 0;
  for (auto it = members.begin(); it != members.end(); ++it, ++position) {
    const Field member{&it->second, Where::member(f.where, it->first, position)};
    ColumnTolerance entry;
    entry.pattern = it->first;
    entry.json_path = member.where.pointer();
    bool ok = true;
    if (const std::optional<std::string> problem = pattern_problem(entry.pattern, quote(entry.pattern))) {
      r.error(member.where, *problem);
      ok = false;
    }
    ok = read_value(r, member, entry) && ok;
    if (!ok) continue;
    entries.push_back(std::move(entry));
    positions.push_back(position);
  }
  const std::vector<std::string> problems = ties(entries);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (problems[i].empty()) continue;
    const auto it = members.begin() + static_cast<std::ptrdiff_t>(positions[i]);
    r.error(Where::member(f.where, it->first, positions[i]), problems[i]);
  }
  out.insert(out.end(), entries.begin(), entries.end());
}

}  // namespace stepslide
