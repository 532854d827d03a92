#include "predict/predict_options.h"

#include <fmt/format.h>

#include <cmath>

#include "config/system_source.h"
#include "config/model_loader.h"
#include "config/network_config.h"
#include "config/preset.h"
#include "config/system_config_reader.h"
#include "core/error.h"
#include "core/units.h"
#include "network/cluster_shape.h"

namespace dtcalc {

void apply_scenario(const ConfigValue& scenario, PredictOptions& o) {
    ConfigTableReader r(scenario);
    auto text = [&](const char* key, std::string& target) {
        if (auto v = r.optional_string(key)) target = *v;
    };
    auto integer = [&](const char* key, int& target) {
        if (const ConfigValue* v = r.optional(key)) target = as_positive_integer(*v);
    };
    text("model", o.model);
    text("preset", o.preset);
    text("backend", o.backend);
    if (const ConfigValue* v = r.optional("nodes")) o.nodes = as_positive_integer(*v);
    if (const ConfigValue* v = r.optional("gpus_per_node")) o.gpus_per_node = as_positive_integer(*v);
    if (const ConfigValue* v = r.optional("dp")) o.dp = as_positive_integer(*v);
    integer("tp", o.tp);
    integer("pp", o.pp);
    integer("cp", o.cp);
    integer("ep", o.ep);
    integer("vpp", o.vpp);
    if (const ConfigValue* v = r.optional("mbs")) o.mbs = as_positive_integer(*v);
    if (const ConfigValue* v = r.optional("zero")) {
        const double stage = as_non_negative_number(*v);
        if (stage != std::floor(stage) || stage > 3) fail_at(*v, fmt::format("expected a ZeRO stage 0, 1, 2 or 3, got {}", stage));
        o.zero = static_cast<int>(stage);
    }
    if (const ConfigValue* v = r.optional("gbs")) o.gbs = as_positive_integer(*v);
    if (const ConfigValue* v = r.optional("seq")) o.seq = as_positive_integer(*v);
    if (auto v = r.optional_boolean_flag("sequence_parallel")) o.sequence_parallel = *v;
    if (auto v = r.optional_boolean_flag("tp_comm_overlap")) o.tp_comm_overlap = *v;
    text("schedule", o.schedule);
    text("recompute", o.recompute);
    text("precision", o.precision);
    text("order", o.order);
    text("memory_limit", o.memory_limit);
    r.ignore({"name", "description", "sources", "expected"});
    r.finish();
}

ResolvedPrediction resolve_prediction(const PredictOptions& o, const std::vector<std::string>& preset_dirs,
                                      const std::vector<std::string>& model_dirs) {
    ResolvedPrediction out;
    PredictInputs& in = out.inputs;
    if (o.model.empty()) throw InputError({"--model", 0, 0, ""}, "missing: give --model NAME (see `dtcalc list`)");
    in.model = load_model(o.model, model_dirs);
    out.model_label = in.model.name;

    SystemSource sys;
    sys.preset = o.preset;
    sys.network_file = o.network_file;
    sys.system_file = o.system_file;
    sys.backend = o.backend;
    const ResolvedSystem resolved = resolve_system(sys, preset_dirs);
    in.network = shape_cluster(resolved.network, o.nodes, o.gpus_per_node);
    in.system = resolved.system;
    in.backend = resolved.backend;
    out.system_label = resolved.label;
    out.backend_label = std::string(network_backend_name(resolved.backend));
    if (!o.preset.empty()) in.device = load_preset(o.preset, preset_dirs).training_device();
    else {
        in.device.peak_tflops_bf16 = in.system.peak_perf_tflops;
        in.device.hbm_gbps = in.system.local_mem_bw_gbps;
    }

    in.plan = resolve_plan(o, in.model, in.network.total_npus());
    in.memory_limit_bytes = resolve_memory_limit(o);
    return out;
}

ParallelPlan resolve_plan(const PredictOptions& o, const ModelSpec& model, long long npus) {
    ParallelPlan p;
    p.tp = o.tp;
    p.pp = o.pp;
    p.cp = o.cp;
    p.ep = o.ep;
    p.vpp = o.vpp;
    p.mbs = o.mbs ? *o.mbs : (model.kind == ModelKind::LayerList ? model.default_batch : 1);
    p.zero = o.zero;
    p.sequence_parallel = o.sequence_parallel;
    p.tp_comm_overlap = o.tp_comm_overlap;
    const long long others = static_cast<long long>(p.tp) * p.pp * p.cp;
    p.dp = o.dp ? *o.dp : static_cast<int>(std::max<long long>(1, others > 0 ? npus / others : 1));
    // 0 in the plan means "the default", so a 0 or negative flag would be ignored silently.
    if (o.gbs && *o.gbs < 1) throw InputError({"--gbs", 0, 0, ""}, "expected a positive number of sequences, got " + std::to_string(*o.gbs));
    if (o.seq && *o.seq < 1) throw InputError({"--seq", 0, 0, ""}, "expected a positive number of tokens, got " + std::to_string(*o.seq));
    if (o.gbs) p.gbs = *o.gbs;
    if (o.seq) p.seq = *o.seq;
    const auto schedule = parse_pipeline_schedule(o.schedule);
    if (!schedule) throw InputError({"--schedule", 0, 0, ""}, "expected gpipe, 1f1b or interleaved, got '" + o.schedule + "'");
    p.schedule = *schedule;
    if (p.vpp > 1 && o.schedule == "1f1b") p.schedule = PipelineSchedule::Interleaved;  // --vpp implies interleaving
    const auto recompute = parse_recompute(o.recompute);
    if (!recompute) throw InputError({"--recompute", 0, 0, ""}, "expected none, selective or full, got '" + o.recompute + "'");
    p.recompute = *recompute;
    const auto precision = parse_precision(o.precision);
    if (!precision) throw InputError({"--precision", 0, 0, ""}, "expected bf16 or fp8, got '" + o.precision + "'");
    p.precision = *precision;
    const auto order = parse_axis_order(o.order);
    if (!order)
        throw InputError({"--order", 0, 0, ""}, "expected the five axes tp, cp, ep, dp, pp once each, innermost first, got '" + o.order + "'");
    p.order = *order;
    return p;
}

void check_plan(const PredictInputs& in) {
    const std::vector<std::string> problems = plan_problems(in.model, in.plan, in.network.total_npus());
    if (problems.empty()) return;
    std::string all;
    for (const std::string& p : problems) all += (all.empty() ? "" : "; ") + p;
    throw InputError({"plan", 0, 0, ""}, all);
}

double resolve_memory_limit(const PredictOptions& o) {
    if (o.memory_limit.empty()) return 0;
    const auto bytes = parse_byte_size(o.memory_limit);
    if (!bytes || *bytes == 0) throw InputError({"--memory-limit", 0, 0, ""}, "expected a size like 80GiB, got '" + o.memory_limit + "'");
    return static_cast<double>(*bytes);
}

}  // namespace dtcalc
