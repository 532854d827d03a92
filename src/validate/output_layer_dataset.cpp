#include "validate/output_layer_dataset.h"

#include <fmt/format.h>

#include <array>
#include <string_view>

#include "compute/vocabulary_costs.h"
#include "config/preset.h"
#include "validate/csv_table.h"

namespace dtcalc {
namespace {

using TimeOf = double (*)(const VocabularyTimes&);

struct Op {
    std::string_view name;
    TimeOf time;
};

constexpr std::array<Op, 7> kOps{{
    {"embedding_fwd", [](const VocabularyTimes& t) { return t.embedding_forward; }},
    {"logits_fwd", [](const VocabularyTimes& t) { return t.logits_forward; }},
    {"loss_fwd", [](const VocabularyTimes& t) { return t.loss_forward; }},
    {"loss_bwd", [](const VocabularyTimes& t) { return t.loss_backward; }},
    {"logits_dgrad", [](const VocabularyTimes& t) { return t.logits_dgrad; }},
    {"logits_wgrad", [](const VocabularyTimes& t) { return t.logits_wgrad; }},
    {"embedding_bwd", [](const VocabularyTimes& t) { return t.embedding_backward; }},
}};

const Op& op_of(const CsvTable& table, std::size_t row, std::size_t column) {
    const std::string& text = table.rows[row][column];
    for (const Op& op : kOps)
        if (op.name == text) return op;
    throw InputError({table.path, table.lines[row], 0, table.header[column]},
                     "expected embedding_fwd, logits_fwd, loss_fwd, loss_bwd, logits_dgrad, logits_wgrad or "
                     "embedding_bwd, got '" + text + "'");
}

}  // namespace

DatasetResult run_output_layer_dataset(const DatasetSpec& spec, const ValidationContext& context) {
    if (spec.preset.empty()) {
        InputLocation at = spec.where;
        at.key = "preset";
        throw InputError(at, "missing: the output-layer kind needs a preset (the device to predict with)");
    }
    const TrainingDevice device = load_preset(spec.preset, context.preset_dirs).system.device;
    const CsvTable table = read_csv_table(spec.file);
    const std::size_t c_model = table.column("model"), c_tp = table.column("tp");
    const std::size_t c_tokens = table.column("tokens"), c_hidden = table.column("hidden");
    const std::size_t c_vocab = table.column("vocab_per_rank"), c_op = table.column("op");
    const std::size_t c_median = table.column("median_us");
    const std::size_t c_p10 = table.column("p10_us"), c_p90 = table.column("p90_us");
    std::size_t c_run = table.header.size();
    for (std::size_t c = 0; c < table.header.size(); ++c)
        if (table.header[c] == "run") c_run = c;

    DatasetResult out;
    out.x_label = "logits (tokens x vocabulary on the rank)";
    out.points_per_model = true;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const std::vector<std::string>& row = table.rows[r];
        const Op& op = op_of(table, r, c_op);
        const double tokens = static_cast<double>(table.integer(r, c_tokens));
        const double hidden = static_cast<double>(table.integer(r, c_hidden));
        const double vocab = static_cast<double>(table.integer(r, c_vocab));
        const double tp = static_cast<double>(table.integer(r, c_tp));
        const double measured = table.number(r, c_median);
        const double p10 = table.number(r, c_p10), p90 = table.number(r, c_p90);
        for (const auto& [value, column] : {std::pair{tokens, "tokens"}, {hidden, "hidden"}, {vocab, "vocab_per_rank"},
                                            {tp, "tp"}, {measured, "median_us"}, {p10, "p10_us"}})
            if (!(value > 0)) throw InputError({table.path, table.lines[r], 0, column}, "must be > 0");
        if (p90 < p10) throw InputError({table.path, table.lines[r], 0, "p90_us"}, "must be >= p10_us");
        const VocabularyShape shape{.tokens = tokens, .hidden = hidden, .vocab = vocab, .gradient_bytes = 4};
        ValidationCase v;
        v.dataset = spec.name;
        v.group = std::string(op.name);
        v.label = fmt::format("{} tp {} {} tokens {}{}", row[c_model], row[c_tp], row[c_tokens], op.name,
                              c_run < row.size() ? " run " + row[c_run] : std::string());
        v.source = fmt::format("{}:{}", table.path, table.lines[r]);
        v.x = tokens * vocab;
        v.measured = measured;
        v.predicted = op.time(vocabulary_times(device, shape, CrossEntropyKernel::Unfused)) / 1e3;
        v.model = row[c_model];
        out.cases.push_back(std::move(v));
    }
    return out;
}

}  // namespace dtcalc
