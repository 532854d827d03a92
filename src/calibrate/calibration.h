#pragma once
// `dtcalc calibrate`: fit the constants a preset marks as calibrated (its
// [calibration] table, config/calibration_table.h) to measured rows — nccl-tests
// rows (collective, shape, size, time) and training cases (a plan, a measured
// throughput or iteration time) — and say how well the fitted model predicts
// what it was not fitted to.
//
// Objective: the mean squared log error, ln(predicted / measured)^2, averaged
// within each group and then over the fitted groups, so that every group weighs
// the same whatever its row count. Groups: collective x GPUs x nodes for
// nccl-tests rows, as `validate` groups them; "training/FAMILY" for training
// cases, FAMILY being the case name's words before the first that starts with
// a digit (nemo-llama2-70b-64: training/nemo-llama2), so that one model family
// is one group. Minimised by log_space_search.h within each constant's bounds;
// deterministic. A training case is predicted by `predict` with the candidate
// values set in the preset: its device and system are the candidate preset's,
// its model, plan and network shape as the case states them.
//
// Refusals: a constant that changes the prediction of fewer than `min_rows`
// fitted rows (probed at its bounds and their geometric middle, the others at
// the preset's values) is not fitted and keeps the preset's value, with the
// reason; rows of one collective, shape and size (or one training case and
// metric) whose values are `ratio` or more apart are left out of the fit and
// the errors, and listed: those beside a majority that agrees as outliers,
// all of them as contradictory where none does (row_consensus.h). A training
// case whose plan cannot run on the preset is an error naming its file and
// line.
//
// The fitted values are rounded to 4 significant digits (whole numbers where
// the preset states an integer), as the written preset states them, and the
// errors "after" are those of the rounded values.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/config_value.h"
#include "predict/training_cases.h"
#include "validate/nccl_measurement.h"

namespace dtcalc {

/// What each out-of-sample refit leaves out: one fitted group, or every
/// fitted group of one shape (GPUs x nodes: all-reduce/8gpu/1node and
/// send-recv/8gpu/1node are one shape; a training group is its own).
enum class HoldOut { Group, Shape };

/// The shape of a group for HoldOut::Shape: what follows the collective in an
/// nccl-tests group ("8gpu/1node"), a training group itself.
std::string hold_out_shape(const std::string& group);

struct CalibrationOptions {
    std::vector<std::string> fit_groups;    ///< patterns ('*' any run); empty: every group not checked
    std::vector<std::string> check_groups;  ///< patterns of groups held out to check the fit
    bool leave_one_group_out = true;        ///< refit without each fitted group (or shape) in turn
    HoldOut hold_out = HoldOut::Group;      ///< what each of those refits leaves out
    /// Threads for the leave-one-group-out refits (<= 0: every hardware
    /// thread); the result is the same for any count.
    int threads = 0;
    /// Called after each leave-one-group-out refit with the refits done and
    /// their number, one call at a time (from whichever thread ran it).
    std::function<void(std::size_t done, std::size_t total)> progress;
    int min_rows = 3;                       ///< rows a constant must change to be fitted
    double contradiction_ratio = 2.0;       ///< max / min time of one size's rows
    /// Where training cases find the catalogue, framework recipes and models.
    std::vector<std::string> preset_dirs, model_dirs;
    /// The NCCL settings the nccl-tests runs were made with (calibrate's
    /// --algo, --proto, --env), for rows whose input states none of its own
    /// (predict_nccl_measurement); unset: NCCL's defaults.
    NcclForce nccl_force;
};

/// What is fitted to: nccl-tests rows and training cases, either may be empty.
struct CalibrationData {
    std::vector<NcclMeasurement> collectives;
    std::vector<TrainingCase> training;
};

struct ErrorStats {
    std::size_t rows = 0;
    double mean = 0;  ///< mean |predicted / measured - 1|
    double max = 0;
};

struct ConstantFit {
    std::string key;
    double low = 0, high = 0;
    double before = 0, after = 0;
    std::size_t rows = 0;  ///< fitted rows whose prediction it changes
    bool fitted = false;
    /// Fitted, and the fitted rows say where: moving it 10 % either way from
    /// its fitted value (within its bounds) changes at least one of them. A
    /// constant that is fitted but not pinned sits where the rows only bound
    /// it (a rate that never binds them, say); reports say so.
    bool pinned = false;
    std::string reason;    ///< why it was not fitted
};

enum class GroupRole { Fit, Check, Unused };

struct GroupFit {
    std::string group;
    GroupRole role = GroupRole::Fit;
    ErrorStats before, after;
    std::optional<ErrorStats> left_out;  ///< fitted without this group, or its shape (two units or more)
    std::vector<double> left_out_values;  ///< the constants fitted without it
    /// Per constant: the groups left could not place it (it changes fewer
    /// than min_rows of their rows, or moving it 10 % changes none), so the
    /// refit kept the preset's value.
    std::vector<bool> left_out_kept;
};

struct Contradiction {
    std::string group;
    std::uint64_t bytes = 0;  ///< nccl-tests rows' size
    std::string label;        ///< the rows for a person: "33554432 B", or a training case and its metric
    std::string unit = "us";  ///< of `measured`: us for nccl-tests rows, the metric's unit for training cases
    std::vector<InputLocation> rows;
    std::vector<double> measured;
    double ratio = 0;  ///< largest / smallest
};

/// A row left out beside runs of the same thing that agree (row_consensus.h):
/// a failing link, a busy node.
struct Outlier {
    std::string group;
    std::uint64_t bytes = 0;
    std::string label;
    std::string unit = "us";
    InputLocation where;
    double measured = 0;
    double others_median = 0;  ///< the median of the runs that agree, in `unit`
};

struct CalibrationResult {
    std::vector<ConstantFit> constants;
    std::vector<GroupFit> groups;  ///< in the order they first appear
    std::vector<Contradiction> contradictions;
    std::vector<Outlier> outliers;  ///< by file, then line
    std::size_t rows_read = 0;
    std::size_t rows_used = 0;  ///< neither contradictory nor outliers
    double objective_before = 0, objective_after = 0;  ///< on the fitted groups
    int evaluations = 0;  ///< objective evaluations, every fit together
    HoldOut hold_out = HoldOut::Group;  ///< what the out-of-sample refits left out
};

std::string_view group_role_name(GroupRole role);

/// Rounds a fitted value as the written preset states it: 4 significant digits
/// (a whole number when `integer`), kept within [low, high].
double written_value(double value, bool integer, double low, double high);

/// The group of a training case: "training/" and the case name's words before
/// the first that starts with a digit (the whole name when none does).
std::string training_group_name(const TrainingCase& c);

/// `preset_root` is the preset file as parsed (it must have a [calibration]
/// table), `preset_path` where it was read (training cases run on it). Throws
/// InputError naming --fit or --check for a pattern that matches no group, a
/// group in both, or nothing left to fit; naming --preset for a preset without
/// a [calibration] table; naming a training case's file and line when its plan
/// cannot run.
CalibrationResult calibrate_preset(const ConfigValue& preset_root, const std::string& preset_path,
                                   const CalibrationData& data, const CalibrationOptions& options);

/// nccl-tests rows only.
CalibrationResult calibrate_preset(const ConfigValue& preset_root, const std::string& preset_path,
                                   const std::vector<NcclMeasurement>& rows, const CalibrationOptions& options);

}  // namespace dtcalc
