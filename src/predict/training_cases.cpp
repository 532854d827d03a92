#include "predict/training_cases.h"

#include <filesystem>
#include <map>

#include "config/config_readers.h"
#include "core/csv_document.h"
#include "core/error.h"
#include "predict/option_schema.h"

namespace dtcalc {
namespace {

// The columns every cases CSV has: the case, its model, the plan options
// validation/training/cases.csv gives (option_schema.h's names), and the
// measurement. Any other plan option may be a column too, by its name
// (overlap_param_gather, grad_reduce_in_fp32, attention, ...); columns in any order.
const char* const kCaseColumns[] = {"case", "model", "metric", "measured", "source"};
const char* const kPlanColumns[] = {"framework", "nodes", "gpus_per_node", "dp", "tp", "pp", "cp", "vpp",
                                    "sequence_parallel", "tp_comm_overlap", "mbs", "gbs", "seq", "precision", "zero",
                                    "recompute"};

bool is_required_plan_column(const std::string& name) {
    for (const char* c : kPlanColumns)
        if (name == c) return true;
    return false;
}

// The NCCL settings a run was made with: a property of the run, not of the
// cluster, so a case may state them although they are base options.
const char* const kRunSettingColumns[] = {"nccl_algo", "nccl_proto", "nccl_env"};

bool is_run_setting_column(const std::string& name) {
    for (const char* c : kRunSettingColumns)
        if (name == c) return true;
    return false;
}

bool is_case_column(const std::string& name) {
    for (const char* c : kCaseColumns)
        if (name == c) return true;
    return false;
}

// A plan option a case may give: the required ones, every option of the
// plan (not the model, the system or the cluster: the rows run on the preset
// given), and the run's NCCL settings.
const OptionDecl* plan_column(const std::string& name) {
    const OptionDecl* option = find_option(name);
    if (option == nullptr || option->target != OptionTarget::Option || !option->apply) return nullptr;
    if (is_required_plan_column(name) || is_run_setting_column(name)) return option;
    return option->base ? nullptr : option;
}

}  // namespace

bool looks_like_training_cases(const std::string& first_line) {
    try {
        const std::vector<std::string> f = parse_csv_document(first_line, "").header;
        return f.size() >= 2 && f[0] == "case" && f[1] == "model";
    } catch (const InputError&) {
        return false;  // not a CSV header at all
    }
}

std::vector<TrainingCase> read_training_cases(const std::string& path, const std::string& preset) {
    const CsvDocument document = parse_csv_document(read_text_file(path), path);
    const std::vector<std::string>& header = document.header;
    const InputLocation first{path, 1, 0, ""};
    std::map<std::string, std::size_t> column;  // name -> index
    std::vector<std::pair<std::size_t, const OptionDecl*>> options;  // in the header's order
    for (std::size_t k = 0; k < header.size(); ++k) {
        const std::string& name = header[k];
        if (!column.emplace(name, k).second) throw InputError(first, "column '" + name + "' appears twice");
        if (is_case_column(name)) continue;
        const OptionDecl* option = plan_column(name);
        if (option == nullptr && find_option(name) != nullptr)
            throw InputError(first, "column '" + name + "' is not a plan option: a case's system is the preset "
                                        "the command is given, its cluster the nodes and gpus_per_node columns "
                                        "(its NCCL settings: nccl_algo, nccl_proto, nccl_env)");
        if (option == nullptr)
            throw InputError(first, "unknown column '" + name + "'" + option_suggestion(name) +
                                        "; a cases CSV has the columns of validation/training/cases.csv and may add "
                                        "plan options by their names");
        options.emplace_back(k, option);
    }
    for (const char* required : kCaseColumns)
        if (!column.count(required)) throw InputError(first, std::string("missing column '") + required + "'");
    for (const char* required : kPlanColumns)
        if (!column.count(required)) throw InputError(first, std::string("missing column '") + required + "'");
    const std::string model_dir = (std::filesystem::path(path).parent_path() / "models").string();
    std::vector<TrainingCase> cases;
    for (const CsvDocumentRow& row : document.rows) {
        const int number = row.line;
        const std::vector<std::string>& f = row.fields;
        if (f.size() != header.size())
            throw InputError({path, number, 0, ""}, "expected " + std::to_string(header.size()) + " columns, got " +
                                                        std::to_string(f.size()));
        const auto field = [&](const char* name) -> const std::string& { return f[column.at(name)]; };
        TrainingCase c;
        c.file = path;
        c.line = number;
        c.id = field("case");
        PredictOptions& o = c.options;
        const std::string local = model_dir + "/" + field("model") + ".toml";
        o.model = std::filesystem::exists(local) ? local : field("model");
        o.system.preset = preset;
        for (const auto& [k, option] : options) {
            // An empty cell of an added column leaves the option to the recipe,
            // as in a batch CSV; the columns every case has need a value.
            if (f[k].empty() && !is_required_plan_column(header[k])) continue;
            std::string what;
            const auto value = parse_option_value(*option, f[k], what);
            if (!value) throw InputError({path, number, 0, header[k]}, "expected " + what + ", got '" + f[k] + "'");
            set_option(o, *option, *value);
        }
        o.memory_limit = "100TiB";  // measured runs fit: judge time, not the memory model
        c.metric = field("metric");
        if (c.metric != "tokens_per_s_per_gpu" && c.metric != "tflops_per_gpu" &&
            c.metric != "hardware_tflops_per_gpu" && c.metric != "iteration_time_ms")
            throw InputError({path, number, 0, "metric"}, "expected tokens_per_s_per_gpu, tflops_per_gpu, "
                                                          "hardware_tflops_per_gpu or iteration_time_ms, got '" +
                                                              c.metric + "'");
        char* end = nullptr;
        const std::string& measured = field("measured");
        c.measured = std::strtod(measured.c_str(), &end);
        if (end == measured.c_str() || c.measured <= 0)
            throw InputError({path, number, 0, "measured"}, "expected a positive number, got '" + measured + "'");
        c.source = field("source");
        cases.push_back(std::move(c));
    }
    return cases;
}

double training_metric(const PredictResult& result, const std::string& metric) {
    if (metric == "tokens_per_s_per_gpu") return result.tokens_per_s_per_gpu;
    if (metric == "tflops_per_gpu") return result.model_tflops_per_gpu;
    if (metric == "hardware_tflops_per_gpu") return result.hardware_tflops_per_gpu;
    return result.iteration_ns / 1e6;  // iteration_time_ms
}

std::string training_metric_unit(const std::string& metric) {
    if (metric == "tokens_per_s_per_gpu") return "tok/s";
    if (metric == "tflops_per_gpu" || metric == "hardware_tflops_per_gpu") return "TFLOP/s";
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
