// Error messages of the configuration readers and what they feed: network
// YAML, system JSON, preset and model TOML, the [nccl] and [compute] tables,
// scenarios, the training cases CSV, the embedding calls (C ABI and Python);
// plans and their placement: error_messages_plan_test.cpp. Each case triggers
// one error path and pins its whole message: the location (file:line:column,
// key) and what was expected and found. Expected texts are written from the
// rules the readers state, never copied from a run.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "capi/embedded_calls.h"
#include "config/config_readers.h"
#include "config/model_loader.h"
#include "config/network_config.h"
#include "config/preset.h"
#include "config/system_config_reader.h"
#include "core/error.h"
#include "predict/predict_options.h"
#include "predict/training_cases.h"
#include "astra_system_text.h"
#include "temp_file.h"
#include "input_error.h"

using dtcalc::testing::error_of;

using namespace dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

// One bad input: the file's text, and the message after the file's path.
struct FileCase {
    const char* name;
    std::string text;
    std::string expected;  ///< what follows the path ("" for a message without one)
};

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

const char* kNetwork =
    "topology: [ Switch ]\n"
    "npus_count: [ 8 ]\n"
    "bandwidth: [ 400 ]\n"
    "latency: [ 10 ]\n";

const char* const kSystem = dtcalc::testing::kAstraSystemJson;

// A one-dimension preset; [compute] begins on line 24 when appended.
const char* kPreset =
    "name = \"p\"\n"                                    // 1
    "description = \"d\"\n"                             // 2
    "sources = [\"s\"]\n"                               // 3
    "backend = \"astra-unaware\"\n"                     // 4
    "\n"                                                // 5
    "[network]\n"                                       // 6
    "topology = [\"Switch\"]\n"                         // 7
    "npus_count = [8]\n"                                // 8
    "bandwidth = [100]\n"                               // 9
    "latency = [10]\n"                                  // 10
    "\n"                                                // 11
    "[system]\n"                                        // 12
    "scheduling-policy = \"LIFO\"\n"                    // 13
    "endpoint-delay = 10\n"                             // 14
    "active-chunks-per-dimension = 1\n"                 // 15
    "preferred-dataset-splits = 1\n"                    // 16
    "all-reduce-implementation = [\"ring\"]\n"          // 17
    "all-gather-implementation = [\"ring\"]\n"          // 18
    "reduce-scatter-implementation = [\"ring\"]\n"      // 19
    "all-to-all-implementation = [\"ring\"]\n"          // 20
    "collective-optimization = \"baseline\"\n"          // 21
    "local-mem-bw = 1000\n";                            // 22

const char* kCompute =
    "\n"                                                // 23
    "[compute]\n"                                       // 24
    "peak-tflops-bf16 = 100\n"                          // 25
    "hbm-bandwidth-gbps = 1000\n"                       // 26
    "hbm-capacity-gib = 80\n";                          // 27

const char* kModel =
    "name = \"m\"\n"                    // 1
    "description = \"d\"\n"             // 2
    "sources = [\"s\"]\n"               // 3
    "kind = \"transformer\"\n"          // 4
    "layers = 2\n"                      // 5
    "hidden = 64\n"                     // 6
    "ffn_hidden = 256\n"                // 7
    "heads = 4\n"                       // 8
    "gated_mlp = false\n"               // 9
    "vocab = 100\n"                     // 10
    "seq = 16\n";                       // 11

const std::vector<std::string> kPresetDirs{DTCALC_PRESETS_DIR};
const std::vector<std::string> kModelDirs{std::string(DTCALC_PRESETS_DIR) + "/../models"};

void check_file_cases(const std::vector<FileCase>& cases, const char* extension, auto&& load) {
    for (const FileCase& c : cases) {
        CAPTURE(c.name);
        std::string file = std::string("errmsg-cfg-") + c.name + extension;
        for (char& ch : file)
            if (ch == ' ') ch = '-';
        const std::string path = write_temp_file(file, c.text);
        CHECK(error_of([&] { load(path); }) == path + c.expected);
    }
}

}  // namespace

TEST_CASE("error message: network YAML values of the wrong type or range") {
    const std::string base = kNetwork;
    check_file_cases(
        {
            {"negative latency", replaced(base, "[ 10 ]", "[ -5 ]"), ":4:12: latency[0]: must be >= 0 (got -5)"},
            {"count not a number", replaced(base, "[ 8 ]", "[ eight ]"),
             ":2:15: npus_count[0]: expected a positive integer, got \"eight\""},
            {"count not whole", replaced(base, "[ 8 ]", "[ 2.5 ]"),
             ":2:15: npus_count[0]: expected a positive integer, got 2.5"},
            {"topology not a string", replaced(base, "[ Switch ]", "[ 5 ]"), ":1:13: topology[0]: expected a string, got 5"},
            {"scalar for a list", replaced(base, "[ 400 ]", "400"), ":3:12: bandwidth: expected a list, got 400"},
            {"empty list", replaced(base, "[ 10 ]", "[]"), ":4:10: latency: expected a non-empty list"},
            {"unknown key", base + "colour: blue\n", ":5:9: colour: unknown key"},
            {"misspelt required key", replaced(base, "latency:", "latencey:"),
             ": latency: missing required key (is 'latencey' on line 4 a misspelling?)"},
            {"too many NPUs in a dimension", replaced(base, "[ 8 ]", "[ 16777217 ]"),
             ":2:15: npus_count[0]: more than 16,777,216 NPUs in one dimension"},
            {"too many NPUs in a grid",
             "topology: [ Mesh2D ]\nnpus_count: [ 4096, 4097 ]\nbandwidth: [ 400 ]\nlatency: [ 10 ]\n",
             ":2:15: npus_count[0]: more than 16,777,216 NPUs in one Mesh2D"},
        },
        ".yml", [](const std::string& path) { load_astra_network_yaml(path); });
}

TEST_CASE("error message: network YAML documents that are no mapping of values") {
    check_file_cases(
        {
            {"list at the top", "- Switch\n- Ring\n", ":1:1: expected a mapping of keys at the top level"},
            // The key's line: the null's own mark is that of the next token, here past the end.
            {"key without a value", std::string(kNetwork) + "extra:\n", ":5:1: extra: expected a value"},
            {"null in a list", replaced(kNetwork, "[ 10 ]", "[ 10, ~ ]"), ":4:16: latency[1]: expected a value"},
            // A bare "-" is a null too: the dash's line and column, not the next key's.
            {"bare dash in a block list", replaced(kNetwork, "latency: [ 10 ]\n", "latency:\n  - 10\n  -\nextra: 1\n"),
             ":6:3: latency[1]: expected a value"},
            {"bare dash then a blank line", replaced(kNetwork, "latency: [ 10 ]\n", "latency:\n  -\n\n  - 10\n"),
             ":5:3: latency[0]: expected a value"},
            {"bare dash before a key that starts with null", replaced(kNetwork, "latency: [ 10 ]\n", "latency:\n  -\nnullable: 1\n"),
             ":5:3: latency[0]: expected a value"},
            {"explicit null in a block list", replaced(kNetwork, "latency: [ 10 ]\n", "latency:\n  - 10\n  - ~\n"),
             ":6:5: latency[1]: expected a value"},
        },
        ".yml", [](const std::string& path) { load_astra_network_yaml(path); });
    // The parser's own words follow "invalid YAML: "; dtcalc adds file, line and column.
    const std::string path = write_temp_file("errmsg-cfg-unclosed.yml", "topology: [ Switch, Ri");
    const std::string message = error_of([&] { load_astra_network_yaml(path); });
    CHECK(message.starts_with(path + ":1:"));
    CHECK(message.find(": invalid YAML: ") != std::string::npos);
}

TEST_CASE("error message: YAML aliases that nest without end or multiply (were a stack overflow, and memory exhaustion)") {
    SUBCASE("an alias inside the list it names") {
        const std::string path = write_temp_file("errmsg-cfg-alias-loop.yml", std::string(kNetwork) + "loop: &a [ 1, *a ]\n");
        // The document is depth 0 and "loop" 1; 255 steps into [1] reach the list at
        // depth 256, whose first entry, [0], is the first value at depth 257.
        std::string key = "loop";
        for (int i = 0; i < 255; ++i) key += "[1]";
        key += "[0]";
        const std::string message = error_of([&] { load_astra_network_yaml(path); });
        CHECK(message.starts_with(path + ":5:"));
        CHECK(message.ends_with(": " + key + ": nested more than 256 lists or mappings deep (an alias inside what it names?)"));
    }
    SUBCASE("ten aliases of ten aliases, six levels: 1,111,111 values in a few lines") {
        std::string text = std::string(kNetwork) + "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
        for (int level = 1; level <= 5; ++level) {
            const std::string name = "l" + std::to_string(level), below = "*l" + std::to_string(level - 1);
            text += name + ": &" + name + " [" + below;
            for (int i = 1; i < 10; ++i) text += ", " + below;
            text += "]\n";
        }
        const std::string path = write_temp_file("errmsg-cfg-alias-many.yml", text);
        // Values counted in file order: the document and the four lists with their
        // entries are 9, l0..l4 hold 11 + 111 + 1111 + 11111 + 111111; the 1,000,001st
        // is in l5 at [7][8][8][8][8][1], the second x of l0 (line 5, column 13).
        CHECK(error_of([&] { load_astra_network_yaml(path); }) ==
              path + ":5:13: l5[7][8][8][8][8][1]: more than 1000000 values in all (aliases repeat what they name)");
    }
}

TEST_CASE("error message: a directory given as a configuration file") {
    const std::string dir = (std::filesystem::temp_directory_path() / "dtcalc-tests" / "errmsg-cfg-dir.yml").string();
    std::filesystem::create_directories(dir);
    CHECK(error_of([&] { load_astra_network_yaml(dir); }) == dir + ": is a directory, not a file");
}

TEST_CASE("error message: system JSON choices dtcalc does not model") {
    const std::string base = kSystem;
    const std::string all_reduce = "\"all-reduce-implementation\": [\"ring\", \"direct\"]";
    check_file_cases(
        {
            {"flat algorithm first of two", replaced(base, all_reduce, "\"all-reduce-implementation\": [\"oneRing\", \"direct\"]"),
             ":6: all-reduce-implementation: a flat one* algorithm must be the only entry"},
            {"flat algorithm second", replaced(base, all_reduce, "\"all-reduce-implementation\": [\"ring\", \"oneDirect\"]"),
             ":6: all-reduce-implementation[1]: a flat one* algorithm must be the only entry"},
            {"collective optimization", replaced(base, "\"localBWAware\"", "\"fast\""),
             ":10: collective-optimization: expected 'baseline' or 'localBWAware', got 'fast'"},
            {"scheduling policy", replaced(base, "\"LIFO\"", "\"RANDOM\""),
             ":2: scheduling-policy: expected 'LIFO' or 'FIFO', got 'RANDOM'"},
            {"inter-dimension scheduling", replaced(base, "\"boost-mode\": 0", "\"inter-dimension-scheduling\": \"themis\""),
             ":12: inter-dimension-scheduling: only baseline is modelled (got 'themis')"},
            {"boolean", replaced(base, "\"boost-mode\": 0", "\"roofline-enabled\": \"yes\""),
             ":12: roofline-enabled: expected true/false or 0/1, got \"yes\""},
            {"null", replaced(base, "\"boost-mode\": 0", "\"peak-perf\": null"),
             ":12: peak-perf: null or binary values are not accepted here"},
            {"peak out of range", replaced(base, "\"boost-mode\": 0", "\"peak-perf\": 1e10"),
             ":12: peak-perf: out of range (got 1e+10): accepted are 1e-06 to 1e+09 TFLOP/s"},
        },
        ".json", [](const std::string& path) { load_astra_system_json(path, 2); });
}

TEST_CASE("error message: JSON the parser refuses is an input error, never a crash") {
    SUBCASE("a number too large for a double (was an escaping nlohmann out_of_range)") {
        const std::string path =
            write_temp_file("errmsg-cfg-overflow.json", replaced(kSystem, "\"local-mem-bw\": 3350", "\"local-mem-bw\": 1e400"));
        CHECK(error_of([&] { load_astra_system_json(path, 2); }) == path + ":11: invalid JSON: number overflow parsing '1e400'");
    }
    SUBCASE("nesting deeper than 256 (was a stack overflow)") {
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        const std::string path =
            write_temp_file("errmsg-cfg-deep.json", replaced(kSystem, "\"boost-mode\": 0", "\"boost-mode\": " + deep));
        const std::string message = error_of([&] { load_astra_system_json(path, 2); });
        CHECK(message.starts_with(path + ":12: boost-mode[0][0]"));
        CHECK(message.ends_with("]: nested more than 256 lists or objects deep"));
    }
}

TEST_CASE("error message: preset [compute] tables and backend") {
    const std::string base = std::string(kPreset) + kCompute;
    check_file_cases(
        {
            {"peak out of range", replaced(base, "peak-tflops-bf16 = 100", "peak-tflops-bf16 = 1e10"),
             ":25:20: compute.peak-tflops-bf16: out of range (got 1e+10): accepted are 1e-06 to 1e+09 TFLOP/s"},
            {"efficiency above 1", base + "attention-efficiency = 1.5\n",
             ":28:24: compute.attention-efficiency: an efficiency is a fraction of peak in (0, 1], got 1.5"},
            // "attention-forward = " is 20 characters: the value starts at column 21.
            {"attention curve of one number", base + "attention-forward = [0.6]\nattention-backward = [0.5, 10]\n",
             ":28:21: compute.attention-forward: expected [plateau, sequence overhead]: the share of the bf16 peak at "
             "long sequences, and the tokens s0 in plateau x s / (s + s0)"},
            {"attention curve without its pair", base + "attention-forward = [0.6, 400]\n",
             ":28:21: compute.attention-forward: attention-forward and attention-backward go together: give both"},
            {"attention figure and curves", base + "attention-efficiency = 0.4\nattention-forward = [0.6, 400]\n",
             ":29:21: compute.attention-forward: give attention-efficiency (one figure) or attention-forward and "
             "attention-backward (curves), not both"},
            {"attention plateau above 1", base + "attention-forward = [1.6, 400]\nattention-backward = [0.5, 10]\n",
             ":28:22: compute.attention-forward[0]: an efficiency is a fraction of peak in (0, 1], got 1.6"},
            {"attention overhead negative", base + "attention-forward = [0.6, 400]\nattention-backward = [0.5, -1]\n",
             ":29:28: compute.attention-backward[1]: must be >= 0 (got -1)"},
            // "sustained-gemm-fraction = " is 26 characters: the value starts at column 27.
            {"sustained share above 1", base + "sustained-gemm-fraction = 1.2\n",
             ":28:27: compute.sustained-gemm-fraction: an efficiency is a fraction of peak in (0, 1], got 1.2"},
            {"sustained share of zero", base + "sustained-gemm-fraction = 0\n",
             ":28:27: compute.sustained-gemm-fraction: must be > 0 (got 0)"},
            // "sustained-gemm-fraction-fp8 = " is 30 characters: the value starts at column 31.
            {"fp8 sustained share without an fp8 peak", base + "sustained-gemm-fraction-fp8 = 0.8\n",
             ":28:31: compute.sustained-gemm-fraction-fp8: needs peak-tflops-fp8 in the same table: without it the "
             "device times no fp8 GEMMs"},
            {"fp8 sustained share above 1", base + "peak-tflops-fp8 = 200\nsustained-gemm-fraction-fp8 = 1.5\n",
             ":29:31: compute.sustained-gemm-fraction-fp8: an efficiency is a fraction of peak in (0, 1], got 1.5"},
            {"curve not a list", base + "gemm-efficiency = 0.5\n",
             ":28:19: compute.gemm-efficiency: expected a list of [FLOPs, fraction] points"},
            {"curve point of one number", base + "gemm-efficiency = [[1e9]]\n",
             ":28:20: compute.gemm-efficiency[0]: expected a point [FLOPs of one GEMM, fraction of peak]"},
            {"curve out of order", base + "gemm-efficiency = [[2e9, 0.5], [1e9, 0.6]]\n",
             ":28:33: compute.gemm-efficiency[1][0]: points must be in increasing FLOPs"},
            {"gemm benchmark without SMs", base + "gemm-benchmark = [2048, 2048, 13312, 0.8]\n",
             ":28:18: compute.gemm-benchmark: a GEMM benchmark needs gemm-sms (the device's streaming "
             "multiprocessors) in the same table"},
            {"gemm benchmark of three numbers", base + "gemm-sms = 132\ngemm-benchmark = [1, 2, 3]\n",
             ":29:18: compute.gemm-benchmark: expected a benchmark point [M, N, K, achieved fraction of peak]"},
            // 100 x 100 fills 10000 of one wave's 132 x 128 x 256 outputs: 0.5 / (10000 / 4325376) = 216.269.
            {"gemm benchmark implying a plateau above 1", base + "gemm-sms = 132\ngemm-benchmark = [100, 100, 4096, 0.5]\n",
             ":29:35: compute.gemm-benchmark[3]: this benchmark point implies a plateau of 216.269 of peak (above 1) "
             "with gemm-tiles and gemm-sms: check its shape and those keys"},
            {"fractional SMs", base + "gemm-sms = 13.5\n",
             ":28:12: compute.gemm-sms: expected a whole number of streaming multiprocessors (1 to 1000000)"},
            {"tile of one number", base + "gemm-tiles = [[128]]\n",
             ":28:15: compute.gemm-tiles[0]: expected [rows, columns] of one output tile"},
            // The framework term's earlier key (ns per token) meant another quantity: refused, naming its successor.
            {"retired framework key", base + "framework-layer-ns-per-token = 200\n",
             ":28:32: compute.framework-layer-ns-per-token: framework-layer-ns-per-token is no longer read: the "
             "framework term is now framework-bytes-per-element, memory traffic per element of a rank's layer "
             "activation (tokens x hidden / tp) per layer and pass; refit it with `dtcalc calibrate` on training runs"},
            {"backend", replaced(base, "\"astra-unaware\"", "\"fast\""),
             ":4:11: backend: expected 'astra-unaware', 'astra-aware' or 'nccl', got 'fast'"},
            {"date", replaced(base, "local-mem-bw = 1000", "local-mem-bw = 1979-05-27"),
             ":22:16: system.local-mem-bw: dates and times are not accepted here"},
        },
        ".toml", [](const std::string& path) { load_preset(path, {}); });
    // toml++'s own words follow the location dtcalc adds.
    const std::string path = write_temp_file("errmsg-cfg-syntax.toml", "name = \"p\"\ndescription = \n");
    const std::string message = error_of([&] { load_preset(path, {}); });
    CHECK(message.starts_with(path + ":2:"));
    CHECK(message.size() > path.size() + 8);
}

TEST_CASE("error message: [nccl] tables beyond the ones already pinned") {
    // The expanded form of the shipped preset (the shipped one is composed of the catalogue).
    const std::string text =
        read_file(std::string(DTCALC_PRESETS_DIR) + "/../tests/fixtures/expanded-presets/hgx-h100.toml");
    auto line_of = [&](const std::string& start) {
        const std::size_t at = text.find("\n" + start);
        REQUIRE(at != std::string::npos);
        return 2 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
    };
    auto line_text = [&](int line) {
        std::istringstream in(text);
        std::string current;
        for (int i = 0; i < line; ++i) std::getline(in, current);
        return current;
    };
    const int nvls = line_of("nvls-efficiency = ");
    const int correction = line_of("correction = [");
    // The three rows of tree correction factors follow "correction = [".
    check_file_cases(
        {
            {"nvls efficiency above 1", replaced(text, line_text(nvls), "nvls-efficiency = 1.5"),
             ":" + std::to_string(nvls) + ":19: nccl.nvls-efficiency: expected a fraction in [0, 1], got 1.5"},
            {"two correction rows", replaced(text, line_text(correction + 3) + "\n", ""),
             ":" + std::to_string(correction) + ":14: nccl.tree.correction: expected 3 lists (LL, LL128, Simple) of 24 factors"},
            {"short correction row", replaced(text, line_text(correction + 1), "  [1.0],"),
             ":" + std::to_string(correction + 1) +
                 ":3: nccl.tree.correction[0]: expected a list of 24 factors (64 B x 2^0 .. 2^23)"},
        },
        ".toml", [](const std::string& path) { load_preset(path, {}); });
}

TEST_CASE("error message: model TOML hyper-parameters that do not fit together") {
    const std::string base = kModel;
    check_file_cases(
        {
            {"heads do not divide hidden", replaced(base, "heads = 4", "heads = 6"),
             ":8:9: heads: hidden (64) must be a multiple of heads (6)"},
            {"kv heads do not divide heads", base + "kv_heads = 3\n", ":12:12: kv_heads: heads (4) must be a multiple of kv_heads (3)"},
            {"more kv heads than heads", base + "kv_heads = 8\n", ":12:12: kv_heads: heads (4) must be a multiple of kv_heads (8)"},
            {"top k above experts", base + "experts = 2\ntop_k = 4\n", ":13:9: top_k: top_k (4) exceeds experts (2)"},
            {"kind", replaced(base, "\"transformer\"", "\"cnn\""), ":4:8: kind: expected 'transformer' or 'layers', got 'cnn'"},
        },
        ".toml", [](const std::string& path) { load_model(path, {}); });
}

TEST_CASE("error message: a model name that is not found lists the known ones") {
    const std::string message = error_of([] { load_model("no-such-model", kModelDirs); });
    CHECK(message.starts_with("model: no model named 'no-such-model' (known: "));
    CHECK(message.find("gpt3-175b") != std::string::npos);
    CHECK(message.ends_with(")"));
    CHECK(error_of([] { load_model("no-such-model", {}); }) == "model: no model named 'no-such-model' (known: none found)");
}

TEST_CASE("error message: scenario keys") {
    auto scenario_error = [](const std::string& text) {
        return error_of([&] {
            PredictOptions options;
            apply_scenario(parse_toml_text(text, "scenario.toml"), options);
        });
    };
    // zero was cast to int unchecked: 2.5 became 2 and 1e20 undefined behaviour.
    CHECK(scenario_error("zero = 2.5\n") == "scenario.toml:1:8: zero: expected an integer from 0 to 3, got '2.5'");
    CHECK(scenario_error("zero = 1e20\n") == "scenario.toml:1:8: zero: expected an integer from 0 to 3, got '1e+20'");
    CHECK(scenario_error("tp = 0\n") == "scenario.toml:1:6: tp: expected a positive integer, got '0'");
    CHECK(scenario_error("sequence_parallel = 2\n") == "scenario.toml:1:21: sequence_parallel: expected true or false, got '2'");
    // Text values are checked where they are read, with their line.
    CHECK(scenario_error("\nschedule = \"zb\"\n") == "scenario.toml:2:12: schedule: expected gpipe, 1f1b or interleaved, got 'zb'");
}

TEST_CASE("error message: the training cases CSV") {
    const std::string header =
        "case,model,framework,nodes,gpus_per_node,dp,tp,pp,cp,vpp,sequence_parallel,tp_comm_overlap,overlap_param_gather,mbs,gbs,"
        "seq,precision,"
        "zero,recompute,metric,measured,source\n";
    const std::string row = "c1,gpt3-175b,megatron-core,1,8,8,1,1,1,1,0,0,0,1,8,2048,bf16,0,none,tokens_per_s_per_gpu,100,src\n";
    check_file_cases(
        {
            {"header", "case,model\n" + row, ":1: missing column 'metric'"},
            {"unknown column", replaced(header, ",source\n", ",source,attn\n") + replaced(row, ",src\n", ",src,flash\n"),
             ":1: unknown column 'attn'; a cases CSV has the columns of validation/training/cases.csv and may add plan "
             "options by their names"},
            {"a system option as a column", replaced(header, ",source\n", ",source,preset\n") + replaced(row, ",src\n", ",src,x\n"),
             ":1: column 'preset' is not a plan option: a case's system is the preset the command is given, its "
             "cluster the nodes and gpus_per_node columns (its NCCL settings: nccl_algo, nccl_proto, nccl_env)"},
            {"column twice", replaced(header, ",source\n", ",source,tp\n") + replaced(row, ",src\n", ",src,2\n"),
             ":1: column 'tp' appears twice"},
            {"columns", header + "c1,gpt3-175b,1\n", ":2: expected 22 columns, got 3"},
            {"integer", header + replaced(row, "core,1,8,8,", "core,two,8,8,"), ":2: nodes: expected an integer from 1 to 16777216, got 'two'"},
            {"metric", header + replaced(row, "tokens_per_s_per_gpu", "mfu"),
             ":2: metric: expected tokens_per_s_per_gpu, tflops_per_gpu, hardware_tflops_per_gpu or iteration_time_ms, got 'mfu'"},
            {"measured", header + replaced(row, ",100,", ",-1,"), ":2: measured: expected a positive number, got '-1'"},
        },
        ".csv", [](const std::string& path) { read_training_cases(path, "hgx-h100"); });
}

TEST_CASE("error message: a training case whose plan cannot run names the file and line") {
    // dp 2 x tp 3 = 6 NPUs on an 8-GPU node. The message used to carry no file.
    const std::string path = write_temp_file(
        "errmsg-cfg-case-plan.csv",
        "case,model,framework,nodes,gpus_per_node,dp,tp,pp,cp,vpp,sequence_parallel,tp_comm_overlap,overlap_param_gather,mbs,gbs,"
        "seq,precision,"
        "zero,recompute,metric,measured,source\n"
        "c1,gpt3-175b,megatron-core,1,8,2,3,1,1,1,0,0,0,1,2,2048,bf16,0,none,tokens_per_s_per_gpu,100,src\n");
    const std::vector<TrainingCase> cases = read_training_cases(path, "hgx-h100");
    REQUIRE(cases.size() == 1);
    CHECK(error_of([&] { evaluate_training_case(cases[0], kPresetDirs, kModelDirs); }) ==
          path + ":2: c1: the case's plan cannot run: dp x tp x pp x cp (2 x 3 x 1 x 1 = 6) must equal the NPU count (8)");
}

TEST_CASE("error message: embedded calls (C ABI and Python) name the key") {
    const std::string presets = std::string("preset_path = \"") + DTCALC_PRESETS_DIR + "\"\n";  // line 1
    auto collective = [&](const std::string& text) {
        return error_of([&] { collective_json(parse_config_text(presets + text, "collective settings"), ""); });
    };
    auto sweep = [](const std::string& text) {
        return error_of([&] { sweep_csv("", parse_config_text(text, "sweep settings"), ""); });
    };
    CHECK(collective("kind = \"all-reduce\"\nsize = \"lots\"\n") ==
          "collective settings:3:8: size: expected a size like 1048576 or 1MiB, or a range like 1KiB:1GiB of at most 4096 sizes, got 'lots'");
    // A size given as a number was truncated: 1.5 read as 1 byte.
    CHECK(collective("kind = \"all-reduce\"\nsize = 1.5\n") ==
          "collective settings:3:8: size: expected a size like 1048576 or 1MiB, or a range like 1KiB:1GiB of at most 4096 sizes, got '1.5'");
    CHECK(collective("kind = \"all-reduce\"\nsize = \"2PiB\"\n") ==
          "collective settings:3:8: size: out of range (got 2 PiB): sizes from 0 B to 1 PiB (2^50 B) are accepted");
    CHECK(collective("kind = \"all-reduce\"\nsize = \"1MiB\"\npreset = \"h100-ib-ndr400\"\nnodes = 2\nnpus = 8\n") ==
          "npus: give either npus or nodes/gpus_per_node, not both");
    CHECK(sweep("feasible_only = 1\n") == "sweep settings:1:17: feasible_only: expected true or false");
    // threads sized a vector of workers unchecked: 1e9 ran out of memory, 1e20 was undefined behaviour.
    CHECK(sweep("threads = 5000\n") == "sweep settings:1:11: threads: expected 0 (every core) to 1024 threads, got 5000");
    CHECK(sweep("threads = 2.5\n") == "sweep settings:1:11: threads: expected 0 (every core) to 1024 threads, got 2.5");
    CHECK(sweep("rules = \"tp < 8\"\n") == "sweep settings:1:9: rules: expected a list of rules");
    CHECK(sweep("objective = \"speed\"\n") ==
          "sweep settings:1:13: objective: expected time, tokens_per_s, tokens_per_s_per_gpu, mfu, memory or cost, got 'speed'");
    const std::string unknown = sweep("tpp = 4\n");
    CHECK(unknown.starts_with("sweep settings:1:7: tpp: unknown parameter"));
}

TEST_CASE("error message: embedded calls given no table or a NUL byte (C++ callers only)") {
    // The C ABI passes C strings and the Python module keyword arguments, so
    // neither can send these; a C++ caller of embedded_calls.h can.
    CHECK(error_of([] { parse_config_text(std::string("tp = 1\0", 7), "settings"); }) ==
          "settings: holds a NUL byte: expected TOML or JSON text");
    ConfigValue list;
    list.type = ConfigValue::Type::List;
    list.where = {"settings", 0, 0, ""};
    CHECK(error_of([&] { predict_json(list, ""); }) == "settings: expected a table of settings");
}
