// `stepslide settings`: the controller settings with defaults and units, as
// a table or JSON. The settings themselves are the controller's
// (setting_table()); this file only lays them out.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>

#include "base/format.h"
#include "command.h"
#include "gate/core/exit_code.h"
#include "options.h"
#include "stepslide/settings.h"

namespace stepslide::cli {

namespace {

std::string setting_value_text(const SettingInfo& info, double value) {
  return info.is_integer ? std::to_string(static_cast<long long>(value)) : format_number(value);
}

nlohmann::ordered_json setting_json(const SettingInfo& info, const ControllerSettings& defaults) {
  nlohmann::ordered_json row;
  row["name"] = info.name;
  row["type"] = info.is_integer ? "integer" : "real";
  if (info.is_integer) {
    row["default"] = static_cast<long long>(get_setting(defaults, info));
  } else {
    row["default"] = get_setting(defaults, info);
  }
  row["unit"] = info.unit;
  row["min"] = info.min_value;
  row["max"] = info.max_value;
  row["description"] = info.description;
  return row;
}

std::string settings_json() {
  const ControllerSettings defaults;
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const SettingInfo& info : setting_table()) out.push_back(setting_json(info, defaults));
  return out.dump(2) + "\n";
}

/// Rows of cells, each column padded to its widest cell plus two spaces.
std::string aligned(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string text;
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      text += row[c];
      if (c + 1 < row.size()) text += std::string(widths[c] - row[c].size() + 2, ' ');
    }
    text += "\n";
  }
  return text;
}

std::string settings_table() {
  const ControllerSettings defaults;
  std::vector<std::vector<std::string>> rows = {{"setting", "default", "unit", "range", "description"}};
  for (const SettingInfo& info : setting_table()) {
    rows.push_back({info.name, setting_value_text(info, get_setting(defaults, info)), info.unit,
                    "[" + setting_value_text(info, info.min_value) + ", " + setting_value_text(info, info.max_value) +
                        "]",
                    info.description});
  }
  return aligned(rows);
}

class SettingsCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* settings = app.add_subcommand("settings", "List the controller settings with defaults and units.");
    settings->add_flag("--json", json_, "print a JSON array instead of a table");
    settings->footer("The names are those of a scenario's character.settings object.\n" + std::string(kExitCodes));
    return settings;
  }

  int run() override {
    std::cout << (json_ ? settings_json() : settings_table());
    return kExitOk;
  }

 private:
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> make_settings_command() { return std::make_unique<SettingsCommand>(); }

}  // namespace stepslide::cli
