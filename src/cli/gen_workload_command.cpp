#include "cli/gen_workload_command.h"

#include <charconv>
#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/cli_common.h"
#include "config/preset.h"
#include "core/error.h"
#include "gemm/gemm_workload.h"
#include "gemm/v1_writer.h"
#include "report/iteration_report.h"
#include "schedule/evaluate.h"

namespace dtcalc::cli {
namespace {

struct GenWorkloadOptions {
    std::string mnk;
    std::string parallel = "DATA";
    long long npus = 0;
    long long packages = 1;
    int datatype_size = 2;
    std::string output;
    SystemOptions system;
    std::string array;
    std::string dataflow = "ws";
    std::string sram_kib = "1024,1024,128";
    double clock_ghz = 1;
    double dram_words_per_cycle = 10;
    bool evaluate = false;
    int passes = 1;
    std::string units = "us";
    std::string format = "table";
};

std::optional<long long> whole_number(const std::string& text) {
    long long value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

SystolicArray parse_array_flags(const GenWorkloadOptions& o) {
    SystolicArray a;
    const auto x = o.array.find_first_of("xX");
    const auto rows = x == std::string::npos ? std::nullopt : whole_number(o.array.substr(0, x));
    const auto cols = x == std::string::npos ? std::nullopt : whole_number(o.array.substr(x + 1));
    if (!rows || !cols) throw InputError({"--array", 0, 0, ""}, "expected ROWSxCOLS like 32x32, got '" + o.array + "'");
    a.rows = *rows;
    a.cols = *cols;
    const auto dataflow = parse_dataflow(o.dataflow);
    if (!dataflow) throw InputError({"--dataflow", 0, 0, ""}, "expected ws, os or is, got '" + o.dataflow + "'");
    a.dataflow = *dataflow;
    std::vector<std::uint64_t> kib;
    std::size_t start = 0;
    while (start <= o.sram_kib.size()) {
        const std::size_t comma = std::min(o.sram_kib.find(',', start), o.sram_kib.size());
        const auto v = whole_number(o.sram_kib.substr(start, comma - start));
        if (!v || *v < 0 || *v > (1LL << 40)) {
            kib.clear();
            break;
        }
        kib.push_back(static_cast<std::uint64_t>(*v));
        start = comma + 1;
    }
    if (kib.size() != 3)
        throw InputError({"--sram-kib", 0, 0, ""},
                         "expected three sizes in KiB, ifmap,filter,ofmap, like 1024,1024,128, got '" + o.sram_kib + "'");
    a.ifmap_sram_bytes = kib[0] * 1024;
    a.filter_sram_bytes = kib[1] * 1024;
    a.ofmap_sram_bytes = kib[2] * 1024;
    a.clock_ghz = o.clock_ghz;
    a.dram_words_per_cycle = o.dram_words_per_cycle;
    return a;
}

void print_report(const GenWorkloadOptions& o, const V1Workload& workload, const ResolvedSystem& sys, TimeUnit unit,
                  OutputFormat format) {
    WorkloadGraph graph;
    try {
        graph = build_v1_training_graph(workload, sys.system.network, o.passes);
    } catch (const InputError& e) {  // the groups do not fit the network: a matter of --packages
        throw InputError({"--packages", 0, 0, ""}, e.detail());
    }
    const EvaluationSystem eval = roofline_evaluation(sys.system);
    const Schedule schedule = evaluate(graph, eval);
    IterationReport report = make_iteration_report(graph, schedule, o.passes);
    report.workload = std::filesystem::path(o.output.empty() ? o.mnk : o.output).filename().string();
    report.system_label = sys.label;
    report.backend = std::string(network_backend_name(sys.system.backend));
    switch (format) {
        case OutputFormat::Table: write_iteration_table(std::cout, report, unit); break;
        case OutputFormat::Csv: write_iteration_csv(std::cout, report, unit); break;
        case OutputFormat::Json: write_iteration_json(std::cout, report); break;
    }
}

void run_gen_workload(const GenWorkloadOptions& o, const CLI::App& command, const std::vector<std::string>& preset_dirs) {
    const auto strategy = parse_gemm_strategy(o.parallel);
    if (!strategy)
        throw InputError({"--parallel", 0, 0, ""},
                         "expected DATA, MODEL, HYBRID_DATA_MODEL or HYBRID_MODEL_DATA, got '" + o.parallel + "'");
    const TimeUnit unit = parse_units_flag(o.units);
    const OutputFormat format = parse_output_format(o.format);
    if (o.passes < 1 || o.passes > 1000000)
        throw InputError({"--passes", 0, 0, ""}, "expected 1 to 1000000, got " + std::to_string(o.passes));
    const bool systolic = !o.array.empty();
    for (const char* flag : {"--dataflow", "--sram-kib", "--clock-ghz", "--dram-bw"})
        if (!systolic && command.get_option(flag)->count() > 0)
            throw InputError({flag, 0, 0, ""}, "describes a systolic array: give --array ROWSxCOLS too");
    const bool has_system = !o.system.preset.empty() || !o.system.network_file.empty() || !o.system.system_file.empty() ||
                            !o.system.gpu.empty();
    if (!has_system && !systolic)
        throw InputError({"--preset", 0, 0, ""},
                         "missing: give --preset (or --network and --system) for roofline compute, or --array ROWSxCOLS "
                         "for a systolic array");
    if (!has_system && o.evaluate)
        throw InputError({"--evaluate", 0, 0, ""}, "needs a network: give --preset NAME, or --network FILE and --system FILE");

    std::optional<ResolvedSystem> sys;
    if (has_system) sys = resolve_system(o.system, preset_dirs);
    const WarningsAtEnd warnings(sys ? sys->warnings : std::vector<std::string>{});
    GemmParallelPlan plan;
    plan.strategy = *strategy;
    plan.packages = o.packages;
    if (sys) {
        const std::int64_t total = sys->system.network.total_npus();
        if (o.npus != 0 && o.npus != total)
            throw InputError({"--npus", 0, 0, ""}, std::to_string(o.npus) + ", but the network has " + std::to_string(total) +
                                                       " NPUs (leave --npus out to use them all)");
        plan.npus = total;
    } else {
        if (o.npus == 0) throw InputError({"--npus", 0, 0, ""}, "missing: how many NPUs (or give a system with --preset)");
        plan.npus = o.npus;
    }

    GemmComputeModel compute;
    compute.datatype_bytes = o.datatype_size;
    if (systolic) {
        compute.device = parse_array_flags(o);
    } else {
        TrainingDevice device = roofline_device(sys->system.config.peak_perf_tflops, sys->system.config.local_mem_bw_gbps);
        // A preset that describes its accelerator in [compute] (hgx-h100 and
        // the other GPU presets) rather than by ASTRA-sim's peak-perf: the
        // dense peak of the datatype's precision and the HBM bandwidth.
        if (device.peak_tflops_bf16 <= 0 && !o.system.preset.empty()) {
            const Preset preset = load_preset(o.system.preset, preset_dirs);
            if (preset.has_compute_table) {
                const TrainingDevice& table = preset.system.device;
                device.peak_tflops_bf16 = roofline_peak_for_datatype(table, o.datatype_size);
                if (device.peak_tflops_bf16 <= 0)
                    throw InputError({"--datatype-size", 0, 0, ""},
                                     fmt::format("preset {} states no peak for {}-byte elements (it gives bf16{}{})",
                                                 preset.name, o.datatype_size,
                                                 table.peak_tflops_fp8 > 0 ? ", fp8" : "",
                                                 table.peak_tflops_fp32 > 0 ? ", fp32" : ""));
                device.hbm_gbps = table.hbm_gbps;
            }
        }
        compute.device = device;
    }
    validate_compute_model(compute, systolic ? "--array" : sys->label);

    const MnkTable table = parse_mnk_csv(o.mnk);
    const V1Workload workload = build_gemm_v1_workload(table, plan, compute, o.output.empty() ? "<generated>" : o.output);
    if (o.evaluate) check_layer_passes(o.passes, workload.layers.size());
    if (!o.output.empty()) {
        std::ofstream out(o.output);
        if (!out) throw InputError({"--output", 0, 0, ""}, "cannot write '" + o.output + "'");
        write_v1_workload(out, workload);
    } else if (!o.evaluate) {
        write_v1_workload(std::cout, workload);
    }
    if (o.evaluate) print_report(o, workload, *sys, unit, format);
}

}  // namespace

void setup_gen_workload_command(CLI::App& app, const std::vector<std::string>& preset_dirs) {
    auto o = std::make_shared<GenWorkloadOptions>();
    CLI::App* command = app.add_subcommand(
        "gen-workload", "Write an ASTRA-sim 1.0 text workload from a list of GEMMs (and evaluate it with --evaluate)");
    command->add_option("--mnk", o->mnk, "CSV of GEMMs: Layer,m,n,k (m batch, n output, k input features)")->required();
    command->add_option("--parallel", o->parallel, "DATA | MODEL | HYBRID_DATA_MODEL | HYBRID_MODEL_DATA (default DATA)");
    command->add_option("--npus", o->npus, "Total NPUs (default: the system's)");
    command->add_option("--packages", o->packages, "Packages the NPUs are grouped into (default 1)");
    command->add_option("--datatype-size", o->datatype_size, "Bytes per element (default 2)");
    command->add_option("--output,-o", o->output, "Write the workload here (default: stdout, unless --evaluate)");
    add_system_options(*command, o->system);
    command->add_option("--array", o->array, "Systolic array ROWSxCOLS, e.g. 32x32 (instead of the system's roofline)");
    command->add_option("--dataflow", o->dataflow, "ws | os | is (default ws)");
    command->add_option("--sram-kib", o->sram_kib, "ifmap,filter,ofmap SRAM in KiB (default 1024,1024,128)");
    command->add_option("--clock-ghz", o->clock_ghz, "Array clock in GHz (default 1)");
    command->add_option("--dram-bw", o->dram_words_per_cycle, "Off-chip bandwidth, words per cycle (default 10)");
    command->add_flag("--evaluate", o->evaluate, "Evaluate the workload on the system, as `dtcalc run` would");
    command->add_option("--passes", o->passes, "Training passes for --evaluate (default 1)");
    command->add_option("--units", o->units, "us | ns | ms | s | cycles (default us)");
    command->add_option("--format", o->format, "table | csv | json (default table)");
    command->callback([o, command, &preset_dirs] { run_gen_workload(*o, *command, preset_dirs); });
}

}  // namespace dtcalc::cli
