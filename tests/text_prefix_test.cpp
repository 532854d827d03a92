// Column prefixes that never split a UTF-8 character.
#include <doctest/doctest.h>

#include "core/text_prefix.h"

using dtcalc::leading_characters;

TEST_CASE("leading characters: ASCII is cut by bytes") {
    CHECK(leading_characters("attention_qkv", 4) == "atte");
    CHECK(leading_characters("mlp", 20) == "mlp");
    CHECK(leading_characters("", 3) == "");
    CHECK(leading_characters("abc", 0) == "");
}

TEST_CASE("leading characters: multi-byte characters stay whole") {
    // "é" is C3 A9 (2 bytes), "→" is E2 86 92 (3 bytes), "😀" is F0 9F 98 80 (4 bytes).
    CHECK(leading_characters("é1", 1) == "é");                  // 2 bytes, not 1
    CHECK(leading_characters("a→b", 2) == "a→");                 // 1 + 3 bytes
    CHECK(leading_characters("😀x", 1).size() == 4);
    CHECK(leading_characters("xé", 1) == "x");
}

TEST_CASE("leading characters: stray continuation bytes count one each") {
    CHECK(leading_characters("\x80\x80z", 2) == "\x80\x80");
    CHECK(leading_characters("\xC3", 1) == "\xC3");  // a lead byte cut off at the end
}
