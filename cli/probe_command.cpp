// `stepslide probe`: the floors under a point of a scenario's world.
#include <iostream>

#include "command.h"
#include "gate/commands/probe.h"
#include "options.h"

namespace stepslide::cli {

namespace {

class ProbeCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* command =
        app.add_subcommand("probe", "List the floors under a point of a level or a scenario's world, top to bottom.");
    command->add_option("LEVEL_OR_SCENARIO", request_.scenario, "a scenario, a level file or a mesh file")->required();
    command->add_option("--at", request_.at, "the point: X,Z")->required();
    command->add_flag("--allow-outside", request_.allow_outside,
                      "let level and mesh file paths leave the scenario's directory");
    command->footer(
        "Casts a vertical line through (X, Z), bodies at tick 0, and prints every upward-facing surface it "
        "crosses: height, normal, slope, walkable or too steep (the character's max_slope_deg), body name.\n" +
        std::string(kExitCodes));
    return command;
  }

  int run() override {
    const ProbeResult result = probe_scenario_file(request_);
    std::cerr << result.errors;
    std::cout << result.text;
    return result.exit_code;
  }

 private:
  ProbeRequest request_;
};

}  // namespace

std::unique_ptr<Command> make_probe_command() { return std::make_unique<ProbeCommand>(); }

}  // namespace stepslide::cli
