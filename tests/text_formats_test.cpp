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

TEST_CASE("numbers: twelve significant digits (%.12g) and fixed decimals (%.Nf)") {
    using dtcalc::fixed_number;
    using dtcalc::general_number;
    CHECK(general_number(0) == "0");
    CHECK(general_number(1.5) == "1.5");                     // trailing zeros dropped
    CHECK(general_number(0.1 + 0.2) == "0.3");               // 0.30000000000000004 to 12 digits
    CHECK(general_number(2.0 / 3) == "0.666666666667");      // rounded at the 12th digit
    CHECK(general_number(123456789012.0) == "123456789012");  // 12 digits: no exponent yet
    CHECK(general_number(1234567890123.0) == "1.23456789012e+12");
    CHECK(general_number(0.0001) == "0.0001");               // exponent -4: still plain
    CHECK(general_number(0.00001) == "1e-05");
    CHECK(general_number(-2.5e-7) == "-2.5e-07");
    CHECK(fixed_number(80.0, 1) == "80.0");
    CHECK(fixed_number(2.25, 1) == "2.2");   // exactly 2.25: half to even
    CHECK(fixed_number(2.35, 1) == "2.4");   // 2.35000000000000008882: above the half
    CHECK(fixed_number(0.125, 2) == "0.12");  // exactly 0.125: half to even
    CHECK(fixed_number(1e20, 0) == "100000000000000000000");
}
