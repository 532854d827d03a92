// Presets and models found by name in search directories.
#include <doctest/doctest.h>

#include <filesystem>

#include "config/named_file.h"
#include "input_error.h"
#include "temp_file.h"

using namespace dtcalc;
using dtcalc::testing::error_of;
using dtcalc::testing::write_temp_file;

namespace {

// Two search directories: a/ holds x.toml, y.toml and notes.txt; b/ holds y.toml and z.toml.
std::vector<std::string> two_dirs() {
    const std::filesystem::path a = std::filesystem::path(write_temp_file("named-a/x.toml", "")).parent_path();
    write_temp_file("named-a/y.toml", "# a");
    write_temp_file("named-a/notes.txt", "");
    const std::filesystem::path b = std::filesystem::path(write_temp_file("named-b/y.toml", "# b")).parent_path();
    write_temp_file("named-b/z.toml", "");
    return {a.string(), b.string()};
}

}  // namespace

TEST_CASE("named files: names are the .toml stems of every directory, sorted, once each") {
    const auto dirs = two_dirs();
    CHECK(toml_names_in(dirs) == std::vector<std::string>{"x", "y", "z"});
    CHECK(toml_names_in({dirs[1], "/no/such/dir"}) == std::vector<std::string>{"y", "z"});
    CHECK(toml_names_in({}).empty());
}

TEST_CASE("named files: a name is looked up in order, a path is taken as it is") {
    const auto dirs = two_dirs();
    CHECK(find_named_toml("y", dirs, "preset", "preset") == dirs[0] + "/y.toml");  // the first directory wins
    CHECK(find_named_toml("z", dirs, "preset", "preset") == dirs[1] + "/z.toml");
    CHECK(find_named_toml("elsewhere/q", dirs, "model", "model") == "elsewhere/q");  // holds a '/'
    CHECK(find_named_toml("q.toml", dirs, "model", "model") == "q.toml");
    CHECK(error_of([&] { find_named_toml("notes", dirs, "model", "model"); }) ==
          "model: no model named 'notes' (known: x, y, z)");
    CHECK(error_of([&] { find_named_toml("w", {}, "preset", "preset"); }) ==
          "preset: no preset named 'w' (known: none found)");
}
