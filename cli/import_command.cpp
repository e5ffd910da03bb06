// `stepslide import`: write a scenario that stands the character on a level.
#include <iostream>

#include "command.h"
#include "gate/commands/import_level.h"
#include "options.h"

namespace stepslide::cli {

namespace {

class ImportCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    CLI::App* command = app.add_subcommand(
        "import", "Write a scenario that references a level (glTF, OBJ, FBX or a level file) and stands on it.");
    command->add_option("LEVEL_FILE", request_.level, "a .gltf, .glb, .obj or .fbx file, or a stepslide/level@1 file")
        ->required();
    command->add_option("--out", request_.out, "the scenario file to write")->required();
    command->add_option("--scale", request_.scale, "metres per unit of the mesh file (default 1)");
    command->add_option("--up-axis", request_.up_axis, "the mesh file's up axis: y (glTF's) or z (default y)");
    command->add_option("--at", request_.at,
                        "where to stand: X,Z on the lowest floor under that point with room to stand (the "
                        "others are listed), X,Y,Z from that point (default: the largest floor, deepest inside it)");
    command->add_flag("--allow-outside", request_.allow_outside,
                      "let the level lie outside the scenario's directory");
    command->add_flag("--force", request_.force, "overwrite --out when it exists");
    command->footer(
        "The scenario references LEVEL_FILE by a path relative to itself (its triangles are never copied), has "
        "60 ticks and no input, and places the character \"on_floor\"; the spot is checked before anything is "
        "written. Prints the level's riser heights and the max_step_height they need. Next: stepslide map, "
        "stepslide probe, stepslide run, stepslide bless.\n" +
        std::string(kExitCodes));
    return command;
  }

  int run() override {
    const ImportResult result = import_level(request_);
    std::cerr << result.errors;
    std::cout << result.text;
    return result.exit_code;
  }

 private:
  ImportRequest request_;
};

}  // namespace

std::unique_ptr<Command> make_import_command() { return std::make_unique<ImportCommand>(); }

}  // namespace stepslide::cli
