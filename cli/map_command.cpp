// `stepslide map`: an SVG floor map of a level or a scenario's world.
#include <iostream>

#include "command.h"
#include "gate/commands/floor_map.h"
#include "options.h"

namespace stepslide::cli {

namespace {

class MapCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* command = app.add_subcommand(
        "map", "Draw a floor map (SVG) of a level or a scenario's world: floors by height, walls, risers, a grid.");
    command->add_option("LEVEL_OR_SCENARIO", request_.source,
                        "a scenario, a level file (stepslide/level@1) or a mesh file (.gltf, .glb, .obj, .fbx)")
        ->required();
    command->add_option("-o,--out", request_.out, "the SVG to write (default: the input's name with .svg)");
    command->add_option("--pitch", request_.pitch, "cell size in metres (default: 0.25, coarser for large levels)");
    below_ = command->add_option("--below", below_value_, "leave out floors higher than Y (see the floors under an upper one)");
    above_ = command->add_option("--above", above_value_, "leave out floors lower than Y");
    command->add_flag("--allow-outside", request_.allow_outside,
                      "let level and mesh file paths leave the scenario's directory");
    command->footer(
        "Casts a vertical ray through the centre of every cell (bodies at tick 0) and keeps the walkable surfaces "
        "facing up (the character's max_slope_deg; a level or mesh file gets the default character). Prints the "
        "floor heights with their areas, the riser heights found, and what max_step_height would climb them.\n" +
        std::string(kExitCodes));
    return command;
  }

  int run() override {
    if (below_->count() > 0) request_.below = below_value_;
    if (above_->count() > 0) request_.above = above_value_;
    const MapResult result = map_level(request_);
    std::cerr << result.errors;
    std::cout << result.text;
    return result.exit_code;
  }

 private:
  MapRequest request_;
  double below_value_ = 0.0, above_value_ = 0.0;
  CLI::Option* below_ = nullptr;
  CLI::Option* above_ = nullptr;
};

}  // namespace

std::unique_ptr<Command> make_map_command() { return std::make_unique<MapCommand>(); }

}  // namespace stepslide::cli
