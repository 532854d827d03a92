#include "validate/output_layer_dataset.h"

#include <fmt/format.h>

#include <array>
#include <string_view>

#include "compute/vocabulary_costs.h"
#include "validate/kernel_timings.h"

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
    KernelTimings timings = read_kernel_timings(spec, context, "output-layer");
    const CsvTable& table = timings.table;
    const std::size_t c_model = table.column("model"), c_tp = table.column("tp");
    const std::size_t c_tokens = table.column("tokens"), c_hidden = table.column("hidden");
    const std::size_t c_vocab = table.column("vocab_per_rank"), c_op = table.column("op");
    const std::size_t c_run = timings.run;
    find_time_columns(timings);

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
        for (const auto& [value, column] :
             {std::pair{tokens, "tokens"}, {hidden, "hidden"}, {vocab, "vocab_per_rank"}, {tp, "tp"}})
            if (!(value > 0)) throw InputError({table.path, table.lines[r], 0, column}, "must be > 0");
        const double measured = row_times(timings, r).median;
        const VocabularyShape shape{.tokens = tokens, .hidden = hidden, .vocab = vocab, .gradient_bytes = 4};
        ValidationCase v;
        v.dataset = spec.name;
        v.group = std::string(op.name);
        v.label = fmt::format("{} tp {} {} tokens {}{}", row[c_model], row[c_tp], row[c_tokens], op.name,
                              c_run < row.size() ? " run " + row[c_run] : std::string());
        v.source = fmt::format("{}:{}", table.path, table.lines[r]);
        v.x = tokens * vocab;
        v.measured = measured;
        v.predicted = op.time(vocabulary_times(timings.device, shape, CrossEntropyKernel::Unfused)) / 1e3;
        v.model = row[c_model];
        out.cases.push_back(std::move(v));
    }
    return out;
}

}  // namespace dtcalc
