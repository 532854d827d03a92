#include "core/text_prefix.h"

namespace dtcalc {

namespace {

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

}  // namespace

std::string_view leading_characters(std::string_view text, std::size_t characters) {
    std::size_t end = 0;
    for (std::size_t taken = 0; end < text.size() && taken < characters; ++taken) {
        ++end;  // the lead byte (or a stray continuation byte, counted alone)
        if (!is_continuation(static_cast<unsigned char>(text[end - 1])))
            while (end < text.size() && is_continuation(static_cast<unsigned char>(text[end]))) ++end;
    }
    return text.substr(0, end);
}

}  // namespace dtcalc
