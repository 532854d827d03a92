#include "validate/gemm_dataset.h"

#include <fmt/format.h>

#include <map>

#include "compute/training_device.h"
#include "validate/csv_table.h"
#include "validate/kernel_timings.h"

namespace dtcalc {
namespace {

// p90 / p10 above this: the row timed launch gaps as well as the GEMM (header).
constexpr double kMaxSpread = 1.5;

Precision precision_of(const CsvTable& table, std::size_t row, std::size_t column) {
    const std::string& text = table.rows[row][column];
    if (text == "bf16") return Precision::BF16;
    if (text == "fp8") return Precision::FP8;
    throw InputError({table.path, table.lines[row], 0, table.header[column]},
                     "expected bf16 or fp8, got '" + text + "'");
}

}  // namespace

DatasetResult run_gemm_dataset(const DatasetSpec& spec, const ValidationContext& context) {
    KernelTimings timings = read_kernel_timings(spec, context, "gemm");
    const TrainingDevice& device = timings.device;
    const CsvTable& table = timings.table;
    const std::size_t c_family = table.column("family");
    const std::size_t c_pass = table.column("pass");
    const std::size_t c_precision = table.column("precision");
    const std::size_t c_m = table.column("m"), c_n = table.column("n"), c_k = table.column("k");
    const std::size_t c_run = timings.run, c_experts = optional_column(table, "experts");
    find_time_columns(timings);

    DatasetResult out;
    out.x_label = "GEMM FLOPs";
    out.points_per_model = true;  // shapes of different models: no line joins them
    std::map<std::string, int> left_out, kept;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const std::vector<std::string>& row = table.rows[r];
        const Precision precision = precision_of(table, r, c_precision);
        const std::string& pass = row[c_pass];
        if (pass != "fwd" && pass != "dgrad" && pass != "wgrad")
            throw InputError({table.path, table.lines[r], 0, "pass"}, "expected fwd, dgrad or wgrad, got '" + pass + "'");
        const double m = static_cast<double>(table.integer(r, c_m));
        const double n = static_cast<double>(table.integer(r, c_n));
        const double k = static_cast<double>(table.integer(r, c_k));
        for (const auto& [value, column] : {std::pair{m, "m"}, {n, "n"}, {k, "k"}})
            if (!(value > 0)) throw InputError({table.path, table.lines[r], 0, column}, "must be > 0");
        const auto [measured, p10, p90] = row_times(timings, r);
        const double experts = c_experts < row.size() ? static_cast<double>(table.integer(r, c_experts)) : 1.0;
        if (!(experts >= 1)) throw InputError({table.path, table.lines[r], 0, "experts"}, "must be >= 1");
        const std::string group = row[c_precision] + "/" + pass;
        if (p90 / p10 > kMaxSpread) {
            ++left_out[group];
            continue;
        }
        ++kept[group];
        ValidationCase v;
        v.dataset = spec.name;
        v.group = group;
        v.label = fmt::format("{} {} {} {}x{}x{}{}", row[c_family], pass, row[c_precision], m, n, k,
                              c_run < row.size() ? " run " + row[c_run] : std::string());
        v.source = fmt::format("{}:{}", table.path, table.lines[r]);
        v.x = 2 * m * n * k;
        v.measured = measured;
        const GemmPass gemm_pass = pass == "fwd"     ? GemmPass::Forward
                                   : pass == "dgrad" ? GemmPass::InputGradient
                                                     : GemmPass::WeightGradient;
        v.predicted = experts > 1 ? expert_gemm_time_ns(device, precision, gemm_pass, m, n, k, experts) / 1e3
                                  : gemm_time_ns(device, precision, m, n, k, gemm_bytes(precision, m, n, k)) / 1e3;
        const std::size_t slash = row[c_family].rfind('/');
        v.model = slash == std::string::npos ? row[c_family] : row[c_family].substr(0, slash);
        out.cases.push_back(std::move(v));
    }
    for (const auto& [group, count] : left_out) {
        if (!kept.contains(group))
            throw InputError({table.path, 0, 0, "p90_us"},
                             fmt::format("every row of group {} ({}) has p90 / p10 above {}: nothing measured to compare",
                                         group, count, kMaxSpread));
        out.group_notes.emplace_back(group, fmt::format("{} row(s) left out: p90 / p10 above {} (launch gaps timed)",
                                                        count, kMaxSpread));
    }
    return out;
}

}  // namespace dtcalc
