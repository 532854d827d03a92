#include "predict/training_cases.h"

#include <charconv>
#include <filesystem>
#include <sstream>

#include "config/config_readers.h"
#include "core/error.h"

namespace dtcalc {
namespace {

std::vector<std::string> split_csv_line(const std::string& line) {
    std::vector<std::string> out;
    std::string field;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') quoted = !quoted;
        else if (c == ',' && !quoted) {
            out.push_back(field);
            field.clear();
        } else field += c;
    }
    out.push_back(field);
    return out;
}

int integer(const std::string& text, const std::string& path, int line, const std::string& key) {
    int v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || v < 0)
        throw InputError({path, line, 0, key}, "expected a non-negative integer, got '" + text + "'");
    return v;
}

}  // namespace

std::vector<TrainingCase> read_training_cases(const std::string& path, const std::string& preset) {
    std::istringstream in(read_text_file(path));
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = split_csv_line(line);
    const std::vector<std::string> expected{"case", "model", "nodes", "gpus_per_node", "dp", "tp", "pp", "cp", "vpp",
                                            "sequence_parallel", "mbs", "gbs", "seq", "precision", "zero", "recompute",
                                            "metric", "measured", "source"};
    if (header != expected) throw InputError({path, 1, 0, ""}, "unexpected header; expected the columns of cases.csv");
    const std::string model_dir = (std::filesystem::path(path).parent_path() / "models").string();
    std::vector<TrainingCase> cases;
    int number = 1;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty()) continue;
        const auto f = split_csv_line(line);
        if (f.size() != expected.size())
            throw InputError({path, number, 0, ""}, "expected " + std::to_string(expected.size()) + " columns, got " +
                                                        std::to_string(f.size()));
        TrainingCase c;
        c.file = path;
        c.line = number;
        c.id = f[0];
        PredictOptions& o = c.options;
        const std::string local = model_dir + "/" + f[1] + ".toml";
        o.model = std::filesystem::exists(local) ? local : f[1];
        o.preset = preset;
        o.nodes = integer(f[2], path, number, "nodes");
        o.gpus_per_node = integer(f[3], path, number, "gpus_per_node");
        o.dp = integer(f[4], path, number, "dp");
        o.tp = integer(f[5], path, number, "tp");
        o.pp = integer(f[6], path, number, "pp");
        o.cp = integer(f[7], path, number, "cp");
        o.vpp = integer(f[8], path, number, "vpp");
        o.sequence_parallel = integer(f[9], path, number, "sequence_parallel") != 0;
        o.tp_comm_overlap = o.sequence_parallel;  // both sources run TP communication overlap with SP
        o.mbs = integer(f[10], path, number, "mbs");
        o.gbs = integer(f[11], path, number, "gbs");
        o.seq = integer(f[12], path, number, "seq");
        o.precision = f[13];
        o.zero = integer(f[14], path, number, "zero");
        o.recompute = f[15];
        if (o.vpp > 1) o.schedule = "interleaved";
        o.memory_limit = "100TiB";  // measured runs fit: judge time, not the memory model
        c.metric = f[16];
        if (c.metric != "tokens_per_s_per_gpu" && c.metric != "tflops_per_gpu")
            throw InputError({path, number, 0, "metric"}, "expected tokens_per_s_per_gpu or tflops_per_gpu, got '" + c.metric + "'");
        char* end = nullptr;
        c.measured = std::strtod(f[17].c_str(), &end);
        if (end == f[17].c_str() || c.measured <= 0)
            throw InputError({path, number, 0, "measured"}, "expected a positive number, got '" + f[17] + "'");
        c.source = f[18];
        cases.push_back(std::move(c));
    }
    return cases;
}

TrainingCaseResult evaluate_training_case(const TrainingCase& c, const std::vector<std::string>& preset_dirs,
                                          const std::vector<std::string>& model_dirs) {
    const ResolvedPrediction resolved = resolve_prediction(c.options, preset_dirs, model_dirs);
    const PredictResult r = predict(resolved.inputs);
    if (!r.plan_problems.empty())
        throw InputError({c.file, c.line, 0, c.id}, "the case's plan cannot run: " + r.plan_problems.front());
    TrainingCaseResult out;
    out.predicted = c.metric == "tokens_per_s_per_gpu" ? r.tokens_per_s_per_gpu : r.model_tflops_per_gpu;
    out.error = out.predicted / c.measured - 1;
    return out;
}

}  // namespace dtcalc
