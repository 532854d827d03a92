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

// Columns 2 to 18 of cases.csv are options (option_schema.h), read by their names.
constexpr std::size_t kFirstOption = 2, kLastOption = 18;

}  // namespace

std::vector<TrainingCase> read_training_cases(const std::string& path, const std::string& preset) {
    std::istringstream in(read_text_file(path));
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = split_csv_line(line);
    const std::vector<std::string> expected{"case", "model", "framework", "nodes", "gpus_per_node", "dp", "tp", "pp",
                                            "cp", "vpp", "sequence_parallel", "tp_comm_overlap", "overlap_param_gather",
                                            "mbs", "gbs", "seq",
                                            "precision", "zero", "recompute", "metric", "measured", "source"};
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
        for (std::size_t k = kFirstOption; k <= kLastOption; ++k) {  // framework ... recompute: options by name
            const OptionDecl* option = find_option(expected[k]);
            std::string what;
            const auto value = parse_option_value(*option, f[k], what);
            if (!value) throw InputError({path, number, 0, expected[k]}, "expected " + what + ", got '" + f[k] + "'");
            set_option(o, *option, *value);
        }
        o.memory_limit = "100TiB";  // measured runs fit: judge time, not the memory model
        c.metric = f[19];
        if (c.metric != "tokens_per_s_per_gpu" && c.metric != "tflops_per_gpu")
            throw InputError({path, number, 0, "metric"}, "expected tokens_per_s_per_gpu or tflops_per_gpu, got '" + c.metric + "'");
        char* end = nullptr;
        c.measured = std::strtod(f[20].c_str(), &end);
        if (end == f[20].c_str() || c.measured <= 0)
            throw InputError({path, number, 0, "measured"}, "expected a positive number, got '" + f[20] + "'");
        c.source = f[21];
        cases.push_back(std::move(c));
    }
    return cases;
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
    out.predicted = c.metric == "tokens_per_s_per_gpu" ? r.tokens_per_s_per_gpu : r.model_tflops_per_gpu;
    out.error = out.predicted / c.measured - 1;
    return out;
}

}  // namespace dtcalc
