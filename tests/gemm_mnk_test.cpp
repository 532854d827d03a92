// The MNK CSV reader (src/gemm/mnk_table.h): what it accepts, and its errors.
#include <doctest/doctest.h>

#include "core/error.h"
#include "gemm/mnk_table.h"

using namespace dtcalc;

TEST_CASE("mnk csv: the generator's format, with a spreadsheet's leftovers") {
    // Header, CRLF line ends, an empty trailing column, a row of empty cells, a comment.
    const MnkTable t = parse_mnk_csv_text(
        "Layer,m,n,k,\r\n# bottom MLP\r\nMLP_Bottom_0, 1024 ,128,512,\r\n,,,,\r\n\r\nMLP_Top_0,1024,1024,512\r\n", "l.csv");
    REQUIRE(t.layers.size() == 2);
    CHECK(t.layers[0].name == "MLP_Bottom_0");
    CHECK(t.layers[0].m == 1024);
    CHECK(t.layers[0].n == 128);
    CHECK(t.layers[0].k == 512);
    CHECK(t.layers[0].line == 3);
    CHECK(t.layers[1].name == "MLP_Top_0");
    CHECK(t.layers[1].line == 6);
}

TEST_CASE("mnk csv: the header is optional") {
    const MnkTable t = parse_mnk_csv_text("fc1,64,32,16\n", "l.csv");
    REQUIRE(t.layers.size() == 1);
    CHECK(t.layers[0].line == 1);
}

TEST_CASE("mnk csv: bad input names file, line and column") {
    auto error = [](const std::string& text) {
        try {
            parse_mnk_csv_text(text, "l.csv");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(error("Layer,m,n,k\nfc1,1024,1.5,512\n") == "l.csv:2: n: expected a whole number, got '1.5'");
    CHECK(error("Layer,m,n,k\nfc1,1024,128,abc\n") == "l.csv:2: k: expected a whole number, got 'abc'");
    CHECK(error("Layer,m,n,k\nfc1,0,128,512\n") == "l.csv:2: m: must be >= 1 (got 0)");
    CHECK(error("Layer,m,n,k\nfc1,-4,128,512\n") == "l.csv:2: m: must be >= 1 (got -4)");
    CHECK(error("Layer,m,n,k\nfc1,99999999999,128,512\n") == "l.csv:2: m: must be <= 2147483647 (got 99999999999)");
    CHECK(error("Layer,m,n,k\nfc1,1024,,512\n") == "l.csv:2: n: expected a whole number, got ''");
    CHECK(error("Layer,m,n,k\nfc1,1024,128\n") == "l.csv:2: expected 4 columns (layer,m,n,k), got 3");
    CHECK(error("Layer,m,n,k\nfc1,1024,128,512,DATA\n") == "l.csv:2: expected 4 columns (layer,m,n,k), got 5");
    CHECK(error("Layer,m,n,k\n,1024,128,512\n") == "l.csv:2: layer: the layer name is empty");
    CHECK(error("Layer,m,n,k\nfc 1,1024,128,512\n") ==
          "l.csv:2: layer: 'fc 1' contains whitespace (the v1 workload format separates fields by whitespace)");
    // A vertical tab (0x0b) is whitespace to the v1 reader: found by fuzzing
    // (tests/fuzz/regressions/mnk_csv), the generated workload did not read back.
    CHECK(error("Layer,m,n,k\nfc\v1,1024,128,512\n") ==
          "l.csv:2: layer: the name holds a control character (byte 0x0b at position 3); the v1 workload format "
          "needs printable names");
    CHECK(error("Layer,m,n,k,CustomizedParallelization\nfc1,1024,128,512,DATA\n") ==
          "l.csv:1: header: expected 'Layer,m,n,k' (one strategy for all layers: per-layer strategies are not "
          "supported), got 'Layer,m,n,k,CustomizedParallelization'");
    CHECK(error("Layer,m,n,k\n\n") == "l.csv:2: no layers: expected lines 'name,m,n,k' after the header 'Layer,m,n,k'");
}
