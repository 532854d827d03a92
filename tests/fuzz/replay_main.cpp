// dtcalc_fuzz_replay TARGET [--max-seconds S] PATH...
//
// Runs every file under the PATHs (files or directories, recursively)
// through one fuzz target, the way libFuzzer would run one input: seed
// corpora and saved reproducers become ordinary regression tests. A finding
// aborts; an input slower than S seconds fails the run.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#define DTCALC_FUZZ_TARGET(name) extern "C" int fuzz_##name(const std::uint8_t* data, std::size_t size);
#include "fuzz_targets.inc"
#undef DTCALC_FUZZ_TARGET

namespace {

struct Target {
    std::string_view name;
    int (*run)(const std::uint8_t*, std::size_t);
};

constexpr Target kTargets[] = {
#define DTCALC_FUZZ_TARGET(name) {#name, fuzz_##name},
#include "fuzz_targets.inc"
#undef DTCALC_FUZZ_TARGET
};

std::vector<std::filesystem::path> inputs_under(const std::filesystem::path& path) {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(path)) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(path))
            if (entry.is_regular_file()) files.push_back(entry.path());
        std::sort(files.begin(), files.end());
    } else if (std::filesystem::is_regular_file(path)) {
        files.push_back(path);
    }
    return files;
}

int usage() {
    std::fprintf(stderr, "usage: dtcalc_fuzz_replay TARGET [--max-seconds S] PATH...\ntargets:");
    for (const Target& t : kTargets) std::fprintf(stderr, " %.*s", static_cast<int>(t.name.size()), t.name.data());
    std::fprintf(stderr, "\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    const std::string_view name = argv[1];
    const auto target = std::find_if(std::begin(kTargets), std::end(kTargets), [&](const Target& t) { return t.name == name; });
    if (target == std::end(kTargets)) return usage();

    double max_seconds = 0;
    std::vector<std::filesystem::path> files;
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--max-seconds" && i + 1 < argc) {
            max_seconds = std::strtod(argv[++i], nullptr);
            continue;
        }
        if (!std::filesystem::exists(argv[i])) continue;  // a target with no reproducers yet
        const auto more = inputs_under(argv[i]);
        files.insert(files.end(), more.begin(), more.end());
    }

    int slow = 0;
    double slowest = 0;
    for (const auto& file : files) {
        std::ifstream in(file, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto start = std::chrono::steady_clock::now();
        target->run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        slowest = std::max(slowest, seconds);
        if (max_seconds > 0 && seconds > max_seconds) {
            std::fprintf(stderr, "%s: %.2f s, over the %.2f s limit\n", file.c_str(), seconds, max_seconds);
            ++slow;
        }
    }
    std::printf("%.*s: %zu inputs replayed, slowest %.3f s\n", static_cast<int>(name.size()), name.data(), files.size(),
                slowest);
    return slow == 0 ? 0 : 1;
}
