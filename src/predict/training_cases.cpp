#include "predict/training_cases.h"

#include <filesystem>
#include <sstream>

#include "config/config_readers.h"
#include "core/error.h"
#include "predict/option_schema.h"

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

// Columns 2 to 17 of cases.csv are options (option_schema.h), read by their names;
// 2 to 18 where the file has the optional overlap_param_gather column (column 12).
constexpr std::size_t kFirstOption = 2, kLastOption = 17, kOptionalColumn = 12;

}  // namespace

bool looks_like_training_cases(const std::string& first_line) {
    const std::vector<std::string> f = split_csv_line(first_line);
    return f.size() >= 2 && f[0] == "case" && f[1] == "model";
}

std::vector<TrainingCase> read_training_cases(const std::string& path, const std::string& preset) {
    std::istringstream in(read_text_file(path));
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = split_csv_line(line);
    const std::vector<std::string> required{"case", "model", "framework", "nodes", "gpus_per_node", "dp", "tp", "pp",
                                            "cp", "vpp", "sequence_parallel", "tp_comm_overlap", "mbs", "gbs", "seq",
                                            "precision", "zero", "recompute", "metric", "measured", "source"};
    std::vector<std::string> with_gather = required;
    with_gather.insert(with_gather.begin() + kOptionalColumn, "overlap_param_gather");
    const bool gather_column = header == with_gather;
    if (!gather_column && header != required)
        throw InputError({path, 1, 0, ""}, "unexpected header; expected the columns of cases.csv");
    const std::vector<std::string>& expected = gather_column ? with_gather : required;
    const std::size_t last_option = kLastOption + (gather_column ? 1 : 0);
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
        o.system.preset = preset;
        for (std::size_t k = kFirstOption; k <= last_option; ++k) {  // framework ... recompute: options by name
            const OptionDecl* option = find_option(expected[k]);
            std::string what;
            const auto value = parse_option_value(*option, f[k], what);
            if (!value) throw InputError({path, number, 0, expected[k]}, "expected " + what + ", got '" + f[k] + "'");
            set_option(o, *option, *value);
        }
        o.memory_limit = "100TiB";  // measured runs fit: judge time, not the memory model
        c.metric = f[last_option + 1];
        if (c.metric != "tokens_per_s_per_gpu" && c.metric != "tflops_per_gpu" && c.metric != "iteration_time_ms")
            throw InputError({path, number, 0, "metric"},
                             "expected tokens_per_s_per_gpu, tflops_per_gpu or iteration_time_ms, got '" + c.metric + "'");
        char* end = nullptr;
        const std::string& measured = f[last_option + 2];
        c.measured = std::strtod(measured.c_str(), &end);
        if (end == measured.c_str() || c.measured <= 0)
            throw InputError({path, number, 0, "measured"}, "expected a positive number, got '" + measured + "'");
        c.source = f[last_option + 3];
        cases.push_back(std::move(c));
    }
    return cases;
}

double training_metric(const PredictResult& result, const std::string& metric) {
    if (metric == "tokens_per_s_per_gpu") return result.tokens_per_s_per_gpu;
    if (metric == "tflops_per_gpu") return result.model_tflops_per_gpu;
    return result.iteration_ns / 1e6;  // iteration_time_ms
}

std::string training_metric_unit(const std::string& metric) {
    if (metric == "tokens_per_s_per_gpu") return "tok/s";
    if (metric == "tflops_per_gpu") return "TFLOP/s";
    return "ms";
}

TrainingCaseResult evaluate_training_case(const TrainingCase& c, const std::vector<std::string>& preset_dirs,
                                          const std::vector<std::string>& model_dirs) {
    const ResolvedPrediction resolved = [&] {
        try {
            return resolve_prediction(c.options, preset_dirs, model_dirs);
        } catch (const OptionError& e) {
            throw OptionError(e, {c.file, c.line, 0, e.option()});  // the case's row and column
        }
    }();
    const PredictResult r = predict(resolved.inputs);
    if (!r.plan_problems.empty())
        throw InputError({c.file, c.line, 0, c.id}, "the case's plan cannot run: " + r.plan_problems.front());
    TrainingCaseResult out;
    out.predicted = training_metric(r, c.metric);
    out.error = out.predicted / c.measured - 1;
    return out;
}

}  // namespace dtcalc
