#pragma once
// Writes test inputs to files under the system's temp directory.
#include <filesystem>
#include <fstream>
#include <string>

namespace dtcalc::testing {

inline std::string write_temp_file(const std::string& name, const std::string& content) {
    const auto dir = std::filesystem::temp_directory_path() / "dtcalc-tests";
    const auto path = dir / name;
    std::filesystem::create_directories(path.parent_path());  // a name may hold folders
    std::ofstream out(path, std::ios::binary);
    out << content;
    return path.string();
}

}  // namespace dtcalc::testing
