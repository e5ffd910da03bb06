// A main() for the controller's fuzz target where libFuzzer is not there
// (GCC builds): runs LLVMFuzzerTestOneInput once on each file given, and on
// every file under each directory given, in sorted order, and prints one line
// per file: what the input decodes to (fuzz/fuzz_input.h), then the entry
// point's verdict. A violation aborts inside the entry point, as under libFuzzer.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::filesystem::path> inputs_under(const std::filesystem::path& path) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(path)) return {path};
  for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
    if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " FILE_OR_DIR...\n";
    return 2;
  }
  std::size_t count = 0, run = 0;
  long long ticks = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::filesystem::exists(argv[i])) {
      std::cerr << "error: " << argv[i] << ": no such file or directory\n";
      return 2;
    }
    for (const std::filesystem::path& file : inputs_under(argv[i])) {
      std::ifstream in(file, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (!in.good() && !in.eof()) {
        std::cerr << "error: cannot read " << file.generic_string() << "\n";
        return 2;
      }
      const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
      const stepslide::DecodedFuzzInput decoded = stepslide::decode_fuzz_input(data, bytes.size());
      std::cout << file.generic_string() << ": " << bytes.size() << " bytes of "
                << stepslide::fuzz_input_kind_name(decoded.kind) << ", "
                << (decoded.scenario ? std::to_string(decoded.scenario->ticks) + " ticks" : "skipped: " + decoded.skipped)
                << "\n"
                << std::flush;
      LLVMFuzzerTestOneInput(data, bytes.size());
      ++count;
      if (decoded.scenario) {
        ++run;
        ticks += decoded.scenario->ticks;
      }
    }
  }
  std::cout << count << " inputs, " << run << " run (" << ticks << " ticks), " << (count - run)
            << " skipped; no invariant broken\n";
  return 0;
}
