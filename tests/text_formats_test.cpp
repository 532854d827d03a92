// JSON string literals and CSV fields for text taken from users' files.
#include <doctest/doctest.h>

#include "core/text_formats.h"

using dtcalc::csv_field;
using dtcalc::json_string;

TEST_CASE("json string: quotes, backslashes and control characters are escaped") {
    CHECK(json_string("") == R"("")");
    CHECK(json_string("gpt3-175b") == R"("gpt3-175b")");
    CHECK(json_string("a\"b\\c") == R"("a\"b\\c")");
    CHECK(json_string("x\ny\r\tz") == R"("x\ny\r\tz")");
    CHECK(json_string("\x01\x1f") == R"("\u0001\u001f")");
    CHECK(json_string(std::string_view("a\0b", 3)) == R"("a\u0000b")");
    CHECK(json_string("\x7f") == "\"\x7f\"");  // DEL is not a control character to JSON
}

TEST_CASE("json string: valid UTF-8 is kept, invalid bytes become U+FFFD") {
    CHECK(json_string("caf\xC3\xA9") == "\"caf\xC3\xA9\"");            // é, 2 bytes
    CHECK(json_string("\xE2\x86\x92") == "\"\xE2\x86\x92\"");          // →, 3 bytes
    CHECK(json_string("\xF0\x9F\x98\x80") == "\"\xF0\x9F\x98\x80\"");  // 😀, 4 bytes
    CHECK(json_string("a\xFFz") == R"("a\ufffdz")");                   // never a UTF-8 byte
    CHECK(json_string("\x80") == R"("\ufffd")");                        // a lone continuation byte
    CHECK(json_string("\xC3") == R"("\ufffd")");                        // a sequence cut short at the end
    CHECK(json_string("\xC3z") == R"("\ufffdz")");                      // ... or by an ASCII byte
    CHECK(json_string("\xC0\xAF") == R"("\ufffd\ufffd")");             // overlong '/': C0 is never valid
    CHECK(json_string("\xE0\x80\xAF") == R"("\ufffd\ufffd\ufffd")");   // overlong 3-byte form
    CHECK(json_string("\xED\xA0\x80") == R"("\ufffd\ufffd\ufffd")");   // U+D800, a surrogate
    CHECK(json_string("\xF4\x90\x80\x80") == R"("\ufffd\ufffd\ufffd\ufffd")");  // past U+10FFFF
}

TEST_CASE("csv field: quoted only when it must be") {
    CHECK(csv_field("mlp_up") == "mlp_up");
    CHECK(csv_field("a,b") == "\"a,b\"");
    CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(csv_field("two\nlines") == "\"two\nlines\"");
    CHECK(csv_field("cr\r") == "\"cr\r\"");
    CHECK(csv_field("") == "");
}
