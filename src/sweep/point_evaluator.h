#pragma once
// How one sweep point (parameter values) becomes a prediction.
//
// - The values that choose what is loaded (model, preset, network, system,
//   backend, nodes, gpus_per_node, the model overrides and system scalings of
//   sweep_parameters.h) pick a "target": the model and system loaded once per
//   distinct set of them through resolve_prediction(), then overridden and
//   scaled. Targets are loaded before the points run, so a model that cannot
//   be found is an input error, never a failed point.
// - The other values set PredictOptions, and resolve_plan() turns them into
//   the point's plan (dp from the npus constraint when not given).
// - A point that breaks the npus constraint or a rule is not allowed; one
//   whose plan breaks predict's rules, or whose groups do not fit the network,
//   cannot run: both are results (plan_problems) with their reasons.
// - The iteration is timed by predict_without_schedule(): predict()'s numbers,
//   and only for a plan that plan_problems() allows.
// - cost_per_mtok = price_per_gpu_hour x npus / 3600 / (tokens/s) x 10^6, the
//   GPU-hours (times the price) one million tokens take.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "predict/predict_options.h"
#include "report/predict_report.h"
#include "sweep/design_space.h"
#include "sweep/step_replay.h"

namespace dtcalc {

using Assigned = DesignSpace::Assigned;

struct SweepTarget {
    PredictInputs inputs;  ///< model, network, system, device, backend; the plan is per point
    PredictLabels labels;
    FrameworkDefaults framework;  ///< the recipe's defaults, applied to each point's options not given
};

/// Where a point's numbers end up: rows and rankings read it.
struct PointOutcome {
    const PredictInputs* inputs = nullptr;  ///< the point's inputs (owned by the evaluator's scratch)
    const SweepTarget* target = nullptr;
    PredictResult result;                   ///< plan_problems: not allowed or cannot run
    double cost_per_mtok = 0;               ///< 0 when unknown
    bool runs() const { return result.plan_problems.empty(); }
};

class PointEvaluator {
public:
    PointEvaluator(const SweepSpec& spec, std::vector<std::string> preset_dirs, std::vector<std::string> model_dirs);

    /// The target of these values, loading it the first time (not thread-safe).
    /// Throws InputError for a model or system that cannot be loaded, or a
    /// system override for a dimension the network does not have.
    int load_target(std::span<const Assigned> values);
    /// The target of these values when already loaded, else -1 (thread-safe).
    int find_target(std::span<const Assigned> values) const;
    const SweepTarget& target(int index) const { return *targets_[static_cast<std::size_t>(index)]; }
    /// One line per loaded system whose device's efficiencies are another
    /// device's: "gpu h200, ...: efficiency assumed from h100-sxm, unvalidated".
    std::vector<std::string> efficiency_notes() const;

    /// What one thread reuses from point to point.
    struct Scratch {
        std::vector<std::unique_ptr<PredictInputs>> inputs;  ///< per target
        std::vector<CollectivePriceCache> prices;              ///< per target
        ReplayScratch replay;
        PredictOptions options;
    };

    /// Evaluates a point whose target is loaded. Throws only for what is not
    /// about the point (a text value no check caught is reported as its plan problem).
    void evaluate(std::span<const Assigned> values, int target, Scratch& scratch, PointOutcome& out) const;

private:
    std::string target_key(std::span<const Assigned> values) const;
    std::string locate_file(const std::string& path) const;

    const SweepSpec& spec_;
    std::vector<std::string> preset_dirs_, model_dirs_;
    std::vector<std::unique_ptr<SweepTarget>> targets_;
    std::unordered_map<std::string, int> target_index_;
};

}  // namespace dtcalc
