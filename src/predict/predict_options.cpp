#include "predict/predict_options.h"

#include <algorithm>
#include <sstream>
#include <span>

#include "config/system_source.h"
#include "config/framework_recipe.h"
#include "config/model_loader.h"
#include "config/network_config.h"
#include "config/preset.h"
#include "config/system_config_reader.h"
#include "core/error.h"
#include "core/units.h"
#include "network/cluster_shape.h"
#include "predict/option_schema.h"

namespace dtcalc {

namespace {

std::uint64_t option_bit(const OptionDecl& option) {
    const std::span<const OptionDecl> all = option_schema();
    const auto index = static_cast<std::size_t>(&option - all.data());
    return index < 64 ? std::uint64_t{1} << index : 0;
}

}  // namespace

void set_option(PredictOptions& o, const OptionDecl& option, const OptionValue& value) {
    if (!option.apply) return;
    option.apply(o, value);
    o.given |= option_bit(option);
}

bool option_given(const PredictOptions& o, const OptionDecl& option) { return (o.given & option_bit(option)) != 0; }

void apply_scenario(const ConfigValue& scenario, PredictOptions& o) {
    ConfigTableReader r(scenario);
    for (const OptionDecl& d : option_schema())
        if (d.target == OptionTarget::Option)
            if (const ConfigValue* v = r.optional(d.name)) set_option(o, d, option_value_from_config(d, *v));
    r.ignore({"name", "description", "sources", "expected"});
    r.finish();
}

ResolvedPrediction resolve_prediction(const PredictOptions& o, const std::vector<std::string>& preset_dirs,
                                      const std::vector<std::string>& model_dirs) {
    ResolvedPrediction out;
    PredictInputs& in = out.inputs;
    if (o.model.empty()) throw OptionError("model", "missing: give a model name or .toml path (see `dtcalc list`)");
    in.model = load_model(o.model, model_dirs);
    out.model_label = in.model.name;

    ResolvedSystem resolved = resolve_system(o.system, preset_dirs);
    in.system = std::move(resolved.system);
    out.system_label = resolved.label;
    out.warnings = resolved.warnings;
    out.backend_label = std::string(network_backend_name(in.system.backend));
    in.nccl = resolve_nccl_force(o, in.system);
    if (!o.nccl_algo.empty() && in.nccl.algorithms != NcclForce{}.algorithms) in.nccl_option = "nccl_algo";
    else if (!o.nccl_proto.empty()) in.nccl_option = "nccl_proto";
    else if (!o.nccl_env.empty()) in.nccl_option = "nccl_env";
    out.nccl_algo = o.nccl_algo;
    out.nccl_proto = o.nccl_proto;
    out.nccl_env = o.nccl_env;

    out.framework = read_framework_defaults(load_framework(o.framework, framework_dirs(preset_dirs)));
    PredictOptions with_defaults = o;
    apply_framework_defaults(with_defaults, out.framework);
    in.plan = resolve_plan(with_defaults, in.model, in.system.network.total_npus());
    check_precision(in.plan, in.system.device);
    in.memory_limit_bytes = resolve_memory_limit(with_defaults);
    return out;
}

NcclForce resolve_nccl_force(const PredictOptions& o, const System& system) {
    NcclForce force;
    if (o.nccl_algo.empty() && o.nccl_proto.empty() && o.nccl_env.empty()) return force;
    const char* given = !o.nccl_algo.empty() ? "nccl_algo" : !o.nccl_proto.empty() ? "nccl_proto" : "nccl_env";
    if (system.backend != NetworkBackend::Nccl || !system.nccl())
        throw OptionError(given, "applies to the nccl backend only (this system uses " +
                                     std::string(network_backend_name(system.backend)) + "; set backend to nccl)");
    try {
        apply_nccl_algo(force, o.nccl_algo, {});
    } catch (const InputError& e) {
        throw OptionError("nccl_algo", e.detail());
    }
    try {
        apply_nccl_proto(force, o.nccl_proto, {});
    } catch (const InputError& e) {
        throw OptionError("nccl_proto", e.detail());
    }
    std::vector<std::string> entries;
    std::istringstream words(o.nccl_env);
    for (std::string word; words >> word;) entries.push_back(word);
    try {
        apply_nccl_env_options(force, system, entries,
                               nccl_variables_by_options(!o.nccl_algo.empty(), !o.nccl_proto.empty()), {});
    } catch (const InputError& e) {
        throw OptionError("nccl_env", e.detail());
    }
    return force;
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
    p.overlap_param_gather = o.overlap_param_gather;
    p.grad_reduce_in_fp32 = o.grad_reduce_in_fp32;
    const long long others = static_cast<long long>(p.tp) * p.pp * p.cp;
    p.dp = o.dp ? *o.dp : static_cast<int>(std::max<long long>(1, others > 0 ? npus / others : 1));
    // 0 in the plan means "the default", so a 0 or negative flag would be ignored silently.
    if (o.gbs && *o.gbs < 1) throw OptionError("gbs", "expected a positive integer, got '" + std::to_string(*o.gbs) + "'");
    if (o.seq && *o.seq < 1) throw OptionError("seq", "expected a positive integer, got '" + std::to_string(*o.seq) + "'");
    if (o.gbs) p.gbs = *o.gbs;
    if (o.seq) p.seq = *o.seq;
    const auto schedule = parse_pipeline_schedule(o.schedule);
    if (!schedule) throw OptionError("schedule", "expected gpipe, 1f1b or interleaved, got '" + o.schedule + "'");
    p.schedule = *schedule;
    if (p.vpp > 1 && o.schedule == "1f1b") p.schedule = PipelineSchedule::Interleaved;  // --vpp implies interleaving
    const auto recompute = parse_recompute(o.recompute);
    if (!recompute) throw OptionError("recompute", "expected none, selective or full, got '" + o.recompute + "'");
    p.recompute = *recompute;
    const auto precision = parse_precision(o.precision);
    if (!precision) throw OptionError("precision", "expected bf16 or fp8, got '" + o.precision + "'");
    p.precision = *precision;
    const auto attention = parse_attention_kernel(o.attention);
    if (!attention) throw OptionError("attention", "expected flash or unfused, got '" + o.attention + "'");
    p.attention = *attention;
    const auto cross_entropy = parse_cross_entropy_kernel(o.cross_entropy);
    if (!cross_entropy) throw OptionError("cross_entropy", "expected unfused, fused or torch, got '" + o.cross_entropy + "'");
    p.cross_entropy = *cross_entropy;
    const auto split = parse_pipeline_split(o.pipeline_split);
    if (!split) throw OptionError("pipeline_split", "expected even, embedding, loss or embedding-and-loss, got '" + o.pipeline_split + "'");
    p.split = *split;
    const auto order = parse_axis_order(o.order);
    if (!order)
        throw OptionError("order", "expected the five axes tp, cp, ep, dp, pp once each, innermost first, got '" + o.order + "'");
    p.order = *order;
    return p;
}

void check_precision(const ParallelPlan& plan, const TrainingDevice& device) {
    if (plan.precision == Precision::FP8 && device.peak_tflops_fp8 <= 0)
        throw OptionError("precision", "fp8 needs a device with an fp8 peak; this system has none");
}

void check_plan(const PredictInputs& in) {
    const std::vector<std::string> problems = plan_problems(in.model, in.plan, in.system.network.total_npus());
    if (problems.empty()) return;
    std::string all;
    for (const std::string& p : problems) all += (all.empty() ? "" : "; ") + p;
    throw InputError({"plan", 0, 0, ""}, all);
}

double resolve_memory_limit(const PredictOptions& o) {
    if (o.memory_limit.empty()) return 0;
    const auto bytes = parse_memory_size(o.memory_limit);
    if (!bytes || *bytes == 0)
        throw OptionError("memory_limit", "expected " + memory_size_expectation(o.memory_limit) + ", got '" + o.memory_limit + "'");
    return static_cast<double>(*bytes);
}

}  // namespace dtcalc
