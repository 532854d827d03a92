#include "report/predict_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <charconv>

#include "core/text_formats.h"

namespace dtcalc {
namespace {

std::string number(double v) { return general_number(v); }

std::string gib(double bytes) { return fmt::format("{:.2f} GiB", bytes / 1073741824.0); }

std::string plan_text(const PredictInputs& in) {
    const ParallelPlan& p = in.plan;
    std::string s = fmt::format("dp {} tp {} pp {}", p.dp, p.tp, p.pp);
    if (p.cp > 1) s += fmt::format(" cp {}", p.cp);
    if (p.ep > 1) s += fmt::format(" ep {}", p.ep);
    if (p.sequence_parallel) s += " sp";
    if (p.vpp > 1) s += fmt::format(" vpp {}", p.vpp);
    // A layer-list model's sample (an image, a query) has no sequence.
    const std::string seq = in.model.kind == ModelKind::LayerList ? "" : fmt::format(" seq {}", p.sequence(in.model));
    s += fmt::format(", {}, mbs {} gbs {}{}, recompute {}, zero {}, {}", pipeline_schedule_name(p.schedule), p.mbs,
                     p.global_batch(), seq, recompute_name(p.recompute), p.zero, precision_name(p.precision));
    if (p.attention != AttentionKernel::Flash) s += fmt::format(", {} attention", attention_kernel_name(p.attention));
    if (p.cross_entropy != CrossEntropyKernel::Unfused)
        s += fmt::format(", {} cross entropy", cross_entropy_kernel_name(p.cross_entropy));
    if (p.split != PipelineSplit::Even) s += fmt::format(", {} split", pipeline_split_name(p.split));
    if (p.tp_comm_overlap) s += ", tp comm overlap";
    if (p.overlap_param_gather) s += ", param gather overlap";
    if (p.grad_reduce_in_fp32) s += ", fp32 gradient reduce";
    return s;
}

TrafficClass traffic(int k) { return static_cast<TrafficClass>(k); }

}  // namespace

void write_predict_table(std::ostream& out, const PredictInputs& in, const PredictResult& r, const PredictLabels& labels,
                         TimeUnit unit) {
    const std::string u(time_unit_name(unit));
    auto t = [&](double ns) { return fmt::format("{:.3f} {}", nanoseconds_to(unit, ns), u); };
    std::string nccl;
    if (!labels.nccl_algo.empty()) nccl += ", NCCL_ALGO=" + labels.nccl_algo;
    if (!labels.nccl_proto.empty()) nccl += ", NCCL_PROTO=" + labels.nccl_proto;
    if (!labels.nccl_env.empty()) nccl += ", " + labels.nccl_env;
    fmt::print(out, "{} on {} ({} NPUs, backend {}{}{})\n", labels.model, labels.system, r.npus, labels.backend, nccl,
               labels.framework.empty() ? "" : ", framework " + labels.framework);
    fmt::print(out, "plan: {}\n", plan_text(in));
    if (!r.plan_problems.empty()) {
        for (const std::string& p : r.plan_problems) fmt::print(out, "  cannot run: {}\n", p);
        return;
    }
    fmt::print(out, "  {:<26} {:>18}\n", "iteration time", t(r.iteration_ns));
    fmt::print(out, "  {:<26} {:>18}   ({:.1f} per GPU)\n", in.model.sample + "s/s", fmt::format("{:.0f}", r.tokens_per_s),
               r.tokens_per_s_per_gpu);
    fmt::print(out, "  {:<26} {:>18}   (MFU {:.1f} % of {:.0f} TFLOP/s {})\n", "model TFLOP/s per GPU",
               fmt::format("{:.1f}", r.model_tflops_per_gpu), 100 * r.mfu, in.system.device.peak_tflops(in.plan.precision),
               precision_name(in.plan.precision));
    if (r.hardware_flops > r.model_flops)  // activation recompute runs part of the forward again
        fmt::print(out, "  {:<26} {:>18}   (HFU {:.1f} %: with the recomputed {})\n", "hardware TFLOP/s per GPU",
                   fmt::format("{:.1f}", r.hardware_tflops_per_gpu), 100 * r.hfu,
                   in.plan.recompute == Recompute::Full ? "forward" : "attention");
    fmt::print(out, "  {:<26} {:>18}\n", "compute time", t(r.compute_ns));
    fmt::print(out, "  {:<26} {:>18}\n", "communication time", t(r.comm_ns));
    fmt::print(out, "  {:<26} {:>18}   ({:.1f} % of the iteration)\n", "exposed communication", t(r.exposed_comm_ns),
               r.iteration_ns > 0 ? 100 * r.exposed_comm_ns / r.iteration_ns : 0.0);
    if (in.plan.pp > 1 && in.plan.gbs <= 0) {
        // No global batch given: one micro-batch per data-parallel rank, so
        // the pipeline fills and drains around a single micro-batch.
        fmt::print(out, "  {:<26} {:>18}   (no gbs given: {} micro-batch per pipeline, so about (pp-1)/pp = {:.0f} % of "
                        "the iteration is fill and drain; give --gbs)\n",
                   "pipeline bubble", t(r.bubble_ns), in.plan.micro_batches(), 100.0 * (in.plan.pp - 1) / in.plan.pp);
    } else {
        fmt::print(out, "  {:<26} {:>18}\n", "pipeline bubble", t(r.bubble_ns));
    }
    fmt::print(out, "  {:<26} {:>18}   (exposed communication + bubble)\n", "idle (not computing)", t(r.idle_ns));
    for (int k = 0; k < kTrafficClasses; ++k) {
        const TrafficTime& g = r.comm_by_class[static_cast<std::size_t>(k)];
        if (g.comm_ns > 0 && r.comm_by_class_known)
            fmt::print(out, "  {:<26} {:>18}   (exposed {})\n", fmt::format("  {} communication", traffic_class_key(traffic(k))),
                       t(g.comm_ns), t(g.exposed_ns));
    }
    const MemoryBreakdown& m = r.memory.breakdown;
    fmt::print(out, "  {:<26} {:>18}   (stage {}: weights {}, gradients {}, optimizer {}, activations {}, buffers {})\n",
               "peak memory", gib(m.total()), r.memory.stage, gib(m.weights), gib(m.gradients), gib(m.optimizer),
               gib(m.activations), gib(m.buffers));
    if (r.feasible && r.memory_limit_bytes <= 0) {
        // The device's capacity is unknown (the lab presets state none) and no
        // --memory-limit was given: nothing says whether the plan fits.
        fmt::print(out, "  {:<26} {:>18}   (the system states no memory capacity; give --memory-limit, e.g. 80GiB)\n",
                   "feasible", "unknown");
    } else if (r.feasible) {
        fmt::print(out, "  {:<26} {:>18}\n", "feasible", "yes (fits " + gib(r.memory_limit_bytes) + ")");
    } else {
        for (const std::string& reason : r.infeasible_reasons) fmt::print(out, "  {:<26} {:>18}   {}\n", "feasible", "NO", reason);
    }
    if (!in.system.device.efficiency_assumed_from.empty())
        fmt::print(out, "  note: efficiency assumed from {}, unvalidated (the kernel efficiencies this device's file "
                        "does not state are that device's)\n", in.system.device.efficiency_assumed_from);
}

void write_predict_json(std::ostream& out, const PredictInputs& in, const PredictResult& r, const PredictLabels& labels) {
    const ParallelPlan& p = in.plan;
    auto us = [](double ns) { return number(ns * 1e-3); };
    fmt::print(out,
               "{{\n  \"model\": {}, \"system\": {}, \"backend\": {}, \"nccl_algo\": {}, \"nccl_proto\": {}, "
               "\"nccl_env\": {}, \"framework\": {}, \"npus\": {},\n",
               json_string(labels.model), json_string(labels.system), json_string(labels.backend),
               json_string(labels.nccl_algo), json_string(labels.nccl_proto), json_string(labels.nccl_env),
               json_string(labels.framework), r.npus);
    fmt::print(out,
               "  \"plan\": {{\"dp\": {}, \"tp\": {}, \"pp\": {}, \"cp\": {}, \"ep\": {}, \"sequence_parallel\": {}, "
               "\"vpp\": {}, \"schedule\": \"{}\", \"mbs\": {}, \"gbs\": {}, \"seq\": {}, \"recompute\": \"{}\", "
               "\"zero\": {}, \"precision\": \"{}\", \"attention\": \"{}\", \"cross_entropy\": \"{}\", \"pipeline_split\": \"{}\", "
               "\"tp_comm_overlap\": {}, \"overlap_param_gather\": {}, \"grad_reduce_in_fp32\": {}}},\n",
               p.dp, p.tp, p.pp, p.cp, p.ep, p.sequence_parallel, p.vpp, pipeline_schedule_name(p.schedule), p.mbs,
               p.global_batch(), p.sequence(in.model), recompute_name(p.recompute), p.zero, precision_name(p.precision),
               attention_kernel_name(p.attention), cross_entropy_kernel_name(p.cross_entropy), pipeline_split_name(p.split),
               p.tp_comm_overlap,
               p.overlap_param_gather, p.grad_reduce_in_fp32);
    out << "  \"plan_problems\": [";
    for (std::size_t i = 0; i < r.plan_problems.size(); ++i) out << (i ? ", " : "") << json_string(r.plan_problems[i]);
    out << "],\n";
    const MemoryBreakdown& m = r.memory.breakdown;
    fmt::print(out,
               "  \"iteration_time_us\": {}, \"compute_time_us\": {}, \"comm_time_us\": {}, \"exposed_comm_us\": {}, "
               "\"bubble_time_us\": {}, \"idle_time_us\": {},\n",
               us(r.iteration_ns), us(r.compute_ns), us(r.comm_ns), us(r.exposed_comm_ns), us(r.bubble_ns), us(r.idle_ns));
    if (r.comm_by_class_known) {
        out << "  \"comm_by_group\": {";
        for (int k = 0; k < kTrafficClasses; ++k) {
            const TrafficTime& g = r.comm_by_class[static_cast<std::size_t>(k)];
            fmt::print(out, "{}\"{}\": {{\"comm_us\": {}, \"exposed_us\": {}}}", k ? ", " : "",
                       traffic_class_key(traffic(k)), us(g.comm_ns), us(g.exposed_ns));
        }
        out << "},\n";
    }
    fmt::print(out,
               "  \"tokens_per_s\": {}, \"tokens_per_s_per_gpu\": {}, \"model_tflops_per_gpu\": {}, \"mfu\": {}, "
               "\"model_flops\": {}, \"model_tflops_per_gpu_causal\": {}, \"mfu_causal\": {},\n"
               "  \"hardware_flops\": {}, \"hardware_tflops_per_gpu\": {}, \"hfu\": {},\n",
               number(r.tokens_per_s), number(r.tokens_per_s_per_gpu), number(r.model_tflops_per_gpu), number(r.mfu),
               number(r.model_flops), number(r.model_tflops_per_gpu_causal), number(r.mfu_causal),
               number(r.hardware_flops), number(r.hardware_tflops_per_gpu), number(r.hfu));
    fmt::print(out,
               "  \"peak_memory_bytes\": {}, \"peak_memory_stage\": {}, \"memory\": {{\"weights\": {}, \"gradients\": {}, "
               "\"optimizer\": {}, \"activations\": {}, \"buffers\": {}}}, \"memory_limit_bytes\": {},\n",
               number(m.total()), r.memory.stage, number(m.weights), number(m.gradients), number(m.optimizer),
               number(m.activations), number(m.buffers), number(r.memory_limit_bytes));
    fmt::print(out, "  \"feasible\": {}, \"infeasible_reasons\": [", r.feasible ? "true" : "false");
    for (std::size_t i = 0; i < r.infeasible_reasons.size(); ++i) out << (i ? ", " : "") << json_string(r.infeasible_reasons[i]);
    out << "]";
    if (!in.system.device.efficiency_assumed_from.empty())
        out << ",\n  \"efficiency_note\": "
            << json_string("efficiency assumed from " + in.system.device.efficiency_assumed_from + ", unvalidated");
    out << "\n}\n";
}

void write_predict_csv_header(std::ostream& out, TimeUnit unit) {
    const std::string_view u = time_unit_name(unit);
    fmt::print(out,
               "model,system,npus,dp,tp,pp,cp,ep,sp,vpp,schedule,mbs,gbs,seq,recompute,zero,precision,iteration_time_{0},"
               "compute_time_{0},comm_time_{0},exposed_comm_{0},bubble_time_{0},tokens_per_s,tokens_per_s_per_gpu,"
               "model_tflops_per_gpu,mfu,peak_memory_bytes,feasible,reason,idle_time_{0}",
               u);
    for (int k = 0; k < kTrafficClasses; ++k)
        fmt::print(out, ",{0}_comm_{1},{0}_exposed_{1}", traffic_class_key(traffic(k)), u);
    out << '\n';
}

namespace {

// A CSV row's fields appended one by one, each number as fmt's "{}" (integers)
// or number() writes it: a sweep writes one row per point, and the row is most
// of what a point costs besides its timing.
class CsvRow {
public:
    CsvRow(std::string& out, std::vector<std::size_t>* ends) : out_(out), ends_(ends) {}
    void text(std::string_view s) {
        separate();
        out_ += s;
    }
    void integer(long long v) {
        char buffer[24];
        const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
        text(std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
    }
    void real(double v) { text(number(v)); }
    void end_line() {
        end_field();
        out_ += '\n';
    }

private:
    void end_field() {
        if (ends_) ends_->push_back(out_.size());
    }
    void separate() {
        if (!first_) {
            end_field();
            out_ += ',';
        }
        first_ = false;
    }
    std::string& out_;
    std::vector<std::size_t>* ends_;
    bool first_ = true;
};

}  // namespace

void append_predict_csv_row(std::string& out, const PredictInputs& in, const PredictResult& r, const PredictLabels& labels,
                            TimeUnit unit, std::vector<std::size_t>* field_ends) {
    const ParallelPlan& p = in.plan;
    CsvRow row(out, field_ends);
    auto time = [&](double ns) { row.real(nanoseconds_to(unit, ns)); };
    std::string reason;
    for (const std::string& s : r.plan_problems) reason += (reason.empty() ? "" : "; ") + s;
    for (const std::string& s : r.infeasible_reasons) reason += (reason.empty() ? "" : "; ") + s;
    row.text(csv_field(labels.model));
    row.text(csv_field(labels.system));
    for (long long v : {r.npus, static_cast<long long>(p.dp), static_cast<long long>(p.tp), static_cast<long long>(p.pp),
                        static_cast<long long>(p.cp), static_cast<long long>(p.ep), p.sequence_parallel ? 1LL : 0LL,
                        static_cast<long long>(p.vpp)})
        row.integer(v);
    row.text(pipeline_schedule_name(p.schedule));
    row.integer(p.mbs);
    row.integer(p.global_batch());
    row.integer(p.sequence(in.model));
    row.text(recompute_name(p.recompute));
    row.integer(p.zero);
    row.text(precision_name(p.precision));
    for (double ns : {r.iteration_ns, r.compute_ns, r.comm_ns, r.exposed_comm_ns, r.bubble_ns}) time(ns);
    for (double v : {r.tokens_per_s, r.tokens_per_s_per_gpu, r.model_tflops_per_gpu, r.mfu, r.memory.breakdown.total()})
        row.real(v);
    row.text(r.feasible ? "true" : "false");
    row.text(quoted_csv_field(reason));
    time(r.idle_ns);
    for (const TrafficTime& g : r.comm_by_class) {
        if (r.comm_by_class_known) {
            time(g.comm_ns);
            time(g.exposed_ns);
        } else {
            row.text("");
            row.text("");
        }
    }
    row.end_line();
}

void write_predict_csv_row(std::ostream& out, const PredictInputs& in, const PredictResult& r, const PredictLabels& labels,
                           TimeUnit unit) {
    std::string row;
    append_predict_csv_row(row, in, r, labels, unit);
    out << row;
}

IterationReport predict_iteration_report(const PredictResult& result) {
    // A training step's graph has one role per pipeline stage and no layers of
    // its own: its rows are the stages.
    IterationReport report = make_iteration_report(result.step.graph, result.schedule, 1);
    report.layers = make_role_rows(result.step.graph, result.schedule, "stage");
    return report;
}

}  // namespace dtcalc
