#include "sweep/point_evaluator.h"

#include <algorithm>

#include <cmath>
#include <filesystem>

#include "core/error.h"
#include "core/units.h"

namespace dtcalc {
namespace {

// One value onto the options `predict` reads (everything but the model and system overrides).
void apply_option(PredictOptions& o, const ParamInfo& p, const ParamValue& v) {
    set_option(o, p, v);
}

bool looks_like_path(const std::string& s) {
    auto ends = [&](std::string_view suffix) {
        return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return s.find('/') != std::string::npos || ends(".toml") || ends(".yml") || ends(".yaml") || ends(".json");
}

void override_model(ModelSpec& m, std::span<const Assigned> values) {
    const bool multi_head = m.kv_heads == m.heads;  // kv_heads follows heads unless given
    bool heads_given = false, kv_given = false;
    for (const Assigned& a : values) {
        if (!a.param->apply_model) continue;
        a.param->apply_model(m, *a.value);
        heads_given = heads_given || a.param->name == "heads";
        kv_given = kv_given || a.param->name == "kv_heads";
    }
    if (multi_head && heads_given && !kv_given) m.kv_heads = m.heads;
}

void override_system(PredictInputs& in, std::span<const Assigned> values) {
    std::vector<Dimension>& dims = in.system.network.dimensions;
    // The scalings first, then the dimensions' own values over them.
    for (const Assigned& a : values)
        if (a.param->apply_system && a.param->dimension < 0) a.param->apply_system(in, -1, a.value->number);
    for (const Assigned& a : values) {
        const int d = a.param->dimension;
        if (!a.param->apply_system || d < 0) continue;
        if (d >= static_cast<int>(dims.size()))
            throw InputError(a.where && !a.where->file.empty() ? *a.where : InputLocation{"", 0, 0, std::string(a.param->name)},
                             "the network has " + std::to_string(dims.size()) + " dimension(s), numbered from 0");
        a.param->apply_system(in, d, a.value->number);
    }
    // The overridden network obeys the bounds a network file does (core/units.h).
    for (const Assigned& a : values) {
        const std::string_view n = a.param->name;
        const bool bandwidth = n == "bandwidth_scale" || n.ends_with("_bandwidth");
        if (!bandwidth && n != "latency_scale" && !n.ends_with("_latency")) continue;
        for (const Dimension& d : dims) {
            if (bandwidth && !(d.bandwidth_gbps >= kMinBandwidthGbps && d.bandwidth_gbps <= kMaxBandwidthGbps))
                throw InputError({"", 0, 0, std::string(n)},
                                 number_out_of_range(d.bandwidth_gbps, kMinBandwidthGbps, kMaxBandwidthGbps,
                                                     "GB/s per link (1 kB/s to 1 ZB/s)"));
            if (!bandwidth && !(d.latency_ns >= 0 && d.latency_ns <= kMaxLatencyNs))
                throw InputError({"", 0, 0, std::string(n)},
                                 number_out_of_range(d.latency_ns, 0, kMaxLatencyNs, "ns per hop (up to 1 s)"));
        }
    }
}

RuleVariables rule_variables(const PredictInputs& in) {
    const ParallelPlan& p = in.plan;
    const ModelSpec& m = in.model;
    RuleVariables v{};
    auto set = [&](RuleVariable k, double x) { v[static_cast<std::size_t>(k)] = x; };
    const double npus = static_cast<double>(in.system.network.total_npus());
    const double per_node = in.system.network.dimensions.empty() ? 1.0 : in.system.network.dimensions.front().npus;
    set(RuleVariable::Dp, p.dp);
    set(RuleVariable::Tp, p.tp);
    set(RuleVariable::Pp, p.pp);
    set(RuleVariable::Cp, p.cp);
    set(RuleVariable::Ep, p.ep);
    set(RuleVariable::Vpp, p.vpp);
    set(RuleVariable::Mbs, p.mbs);
    set(RuleVariable::Gbs, static_cast<double>(p.global_batch()));
    set(RuleVariable::Seq, p.sequence(m));
    set(RuleVariable::Zero, p.zero);
    set(RuleVariable::SequenceParallel, p.sequence_parallel ? 1 : 0);
    set(RuleVariable::MicroBatches, static_cast<double>(p.micro_batches()));
    set(RuleVariable::Npus, npus);
    set(RuleVariable::Layers, m.layers);
    set(RuleVariable::Hidden, m.hidden);
    set(RuleVariable::FfnHidden, m.ffn_hidden);
    set(RuleVariable::Heads, m.heads);
    set(RuleVariable::KvHeads, m.kv_heads);
    set(RuleVariable::Vocab, m.vocab);
    set(RuleVariable::Experts, m.experts);
    set(RuleVariable::TopK, m.top_k);
    set(RuleVariable::GpusPerNode, per_node);
    set(RuleVariable::Nodes, npus / per_node);
    return v;
}

}  // namespace

PointEvaluator::PointEvaluator(const SweepSpec& spec, std::vector<std::string> preset_dirs, std::vector<std::string> model_dirs)
    : spec_(spec), preset_dirs_(std::move(preset_dirs)), model_dirs_(std::move(model_dirs)) {}

std::vector<std::string> PointEvaluator::efficiency_notes() const {
    std::vector<std::string> notes;
    for (const auto& t : targets_) {
        const std::string& from = t->inputs.system.device.efficiency_assumed_from;
        if (from.empty()) continue;
        std::string note = t->labels.system + ": efficiency assumed from " + from + ", unvalidated";
        if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(std::move(note));
    }
    return notes;
}

std::string PointEvaluator::target_key(std::span<const Assigned> values) const {
    std::string key;
    for (const Assigned& a : values)
        if (changes_base(*a.param)) {
            key += a.param->name;
            key += '=';
            key += format_param_value(*a.param, *a.value);
            key += '\n';
        }
    return key;
}

std::string PointEvaluator::locate_file(const std::string& path) const {
    if (spec_.base_dir.empty() || !looks_like_path(path) || std::filesystem::path(path).is_absolute()) return path;
    const std::filesystem::path beside = std::filesystem::path(spec_.base_dir) / path;
    std::error_code ec;
    return std::filesystem::exists(beside, ec) ? beside.string() : path;
}

int PointEvaluator::find_target(std::span<const Assigned> values) const {
    const auto it = target_index_.find(target_key(values));
    return it == target_index_.end() ? -1 : it->second;
}

int PointEvaluator::load_target(std::span<const Assigned> values) {
    std::string key = target_key(values);
    if (const auto it = target_index_.find(key); it != target_index_.end()) return it->second;
    PredictOptions o;
    for (const Assigned& a : values)
        if (a.param->target == ParamTarget::Option && changes_base(*a.param)) apply_option(o, *a.param, *a.value);
    o.model = locate_file(o.model);
    o.system.preset = locate_file(o.system.preset);
    o.system.network_file = locate_file(o.system.network_file);
    o.system.system_file = locate_file(o.system.system_file);
    ResolvedPrediction resolved;
    try {
        resolved = resolve_prediction(o, preset_dirs_, model_dirs_);
    } catch (const OptionError& e) {
        // Where the spec, a flag or a keyword gave the option.
        for (const Assigned& a : values)
            if (a.param->name == e.option() && a.where && (!a.where->file.empty() || !a.where->key.empty()))
                throw OptionError(e, *a.where);
        throw;
    }
    auto target = std::make_unique<SweepTarget>();
    target->inputs = std::move(resolved.inputs);
    target->labels = predict_labels(resolved);
    target->framework = std::move(resolved.framework);
    override_model(target->inputs.model, values);
    override_system(target->inputs, values);
    targets_.push_back(std::move(target));
    const int index = static_cast<int>(targets_.size()) - 1;
    target_index_.emplace(std::move(key), index);
    return index;
}

void PointEvaluator::evaluate(std::span<const Assigned> values, int target_index, Scratch& scratch, PointOutcome& out) const {
    const SweepTarget& target = *targets_[static_cast<std::size_t>(target_index)];
    if (scratch.inputs.size() <= static_cast<std::size_t>(target_index)) {
        scratch.inputs.resize(targets_.size());
        scratch.prices.resize(targets_.size());
    }
    std::unique_ptr<PredictInputs>& slot = scratch.inputs[static_cast<std::size_t>(target_index)];
    if (!slot) slot = std::make_unique<PredictInputs>(target.inputs);
    PredictInputs& in = *slot;
    out.inputs = &in;
    out.target = &target;
    out.result = PredictResult{};
    out.cost_per_mtok = 0;

    PredictOptions& o = scratch.options;
    o = PredictOptions{};
    double price = 1;
    bool dp_given = false;
    for (const Assigned& a : values) {
        if (a.param->target == ParamTarget::Cost) price = a.value->number;
        if (a.param->target != ParamTarget::Option || changes_base(*a.param)) continue;
        apply_option(o, *a.param, *a.value);
        dp_given = dp_given || a.param->name == "dp";
    }
    apply_framework_defaults(o, target.framework);
    const long long npus = in.system.network.total_npus();
    std::string not_allowed;
    if (spec_.npus) {
        const long long others = static_cast<long long>(o.tp) * o.pp * o.cp;
        if (!dp_given) {
            if (*spec_.npus % others == 0) o.dp = static_cast<int>(*spec_.npus / others);
            else
                not_allowed = "tp x pp x cp (" + std::to_string(others) + ") must divide npus (" + std::to_string(*spec_.npus) + ")";
        } else if (static_cast<long long>(*o.dp) * others != *spec_.npus) {
            not_allowed = "dp x tp x pp x cp (" + std::to_string(static_cast<long long>(*o.dp) * others) +
                          ") must equal npus (" + std::to_string(*spec_.npus) + ")";
        }
    }
    try {
        in.plan = resolve_plan(o, in.model, npus);
        check_precision(in.plan, in.system.device);
        in.memory_limit_bytes = resolve_memory_limit(o);
    } catch (const InputError& e) {
        out.result.npus = npus;
        out.result.plan_problems.push_back(e.detail());
        return;
    }
    if (not_allowed.empty()) {
        const RuleVariables variables = rule_variables(in);
        for (const ConstraintRule& rule : spec_.rules)
            if (!rule.holds(variables)) {
                not_allowed = "rule '" + rule.text() + "' does not hold";
                break;
            }
    }
    if (!not_allowed.empty()) {
        out.result.npus = npus;
        out.result.plan_problems.push_back(std::move(not_allowed));
        return;
    }
    // The replay times only plans the rules allow (it assumes a pipeline for
    // vpp > 1, layers that split over the chunks, ...): checked here, whatever
    // the timer checks itself.
    if (std::vector<std::string> problems = plan_problems(in.model, in.plan, npus); !problems.empty()) {
        out.result.npus = npus;
        out.result.plan_problems = std::move(problems);
        return;
    }
    try {
        out.result = predict_without_schedule(in, scratch.replay, &scratch.prices[static_cast<std::size_t>(target_index)]);
    } catch (const InputError& e) {  // groups that do not fit the network, fp8 without an fp8 peak, ...
        out.result = PredictResult{};
        out.result.npus = npus;
        out.result.plan_problems.push_back(e.detail());
        return;
    }
    if (out.runs() && out.result.tokens_per_s > 0 && std::isfinite(out.result.tokens_per_s))
        out.cost_per_mtok = price * static_cast<double>(out.result.npus) * 1e6 / 3600.0 / out.result.tokens_per_s;
}

}  // namespace dtcalc
