#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/config_readers.h"

namespace dtcalc {

std::string read_text_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))  // opens on Linux, then reads as empty
        throw InputError({path, 0, 0, ""}, "is a directory, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError({path, 0, 0, ""}, "cannot open file");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    if (in.bad()) throw InputError({path, 0, 0, ""}, "cannot read file");
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        throw InputError({path, 0, 0, ""}, "file is empty");
    const auto nul = text.find('\0');
    if (nul != std::string::npos) {
        const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(nul), '\n'));
        throw InputError({path, line, 0, ""}, "binary data (NUL byte) in a text file");
    }
    return text;
}

}  // namespace dtcalc
