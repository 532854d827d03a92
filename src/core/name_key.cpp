#include "core/name_key.h"

#include <cctype>

namespace dtcalc {

std::string ascii_lower(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    for (char c : name) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string name_key(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    for (char c : name)
        if (c != '-' && c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace dtcalc
