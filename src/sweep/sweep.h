#pragma once
// A sweep's front door: a spec in, one row per point out (sweep_rows.h), in
// point order whatever the thread count, then a ranked summary
// (sweep_ranking.h) per case.
//
// Shards: shard i of n (1-based) takes points [N (i-1) / n, N i / n) of the N
// points; only shard 1 writes the CSV header, so the shards' outputs
// concatenated in order are byte for byte the output of the whole sweep.
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.h"
#include "sweep/design_space.h"
#include "sweep/ordered_runner.h"
#include "sweep/point_evaluator.h"
#include "sweep/sweep_rows.h"

namespace dtcalc {

struct SweepSettings {
    int threads = 0;  ///< <= 0: every hardware thread
    int shard_index = 1, shard_count = 1;
    bool feasible_only = false;  ///< write only the rows of points that run and fit in memory
    bool comm_by_group = false;  ///< also time communication by group (tp, cp, ep, dp, pp) and write its columns
    SweepFormat format = SweepFormat::Csv;
    TimeUnit unit = TimeUnit::Microseconds;  ///< the CSV's times (JSON lines: microseconds)
};

struct SweepReport {
    std::uint64_t first_point = 0, end_point = 0;  ///< this shard's points
    std::vector<RankedPoint> records;              ///< every evaluated point, in order
    double seconds = 0;
    int threads = 1;
    bool feasible_only = false;  ///< the rows left out points that do not fit: so does the summary
};

/// "i/n" with 1 <= i <= n; throws InputError naming --shard.
std::pair<int, int> parse_shard(std::string_view text);

class Sweep {
public:
    /// Builds the space and loads every model and system it names; throws
    /// InputError for what cannot be loaded.
    Sweep(SweepSpec spec, std::vector<std::string> preset_dirs, std::vector<std::string> model_dirs);
    Sweep(const Sweep&) = delete;
    Sweep& operator=(const Sweep&) = delete;

    const SweepSpec& spec() const { return spec_; }
    const DesignSpace& space() const { return space_; }

    /// Evaluates this shard's points; `write` gets the rows in order (the CSV
    /// header first, from shard 1), `progress` the points done so far.
    SweepReport run(const SweepSettings& settings, const std::function<void(std::string_view)>& write,
                    const std::function<void(std::uint64_t done, std::uint64_t total)>& progress = {}) const;

    /// The ranked summary, per case: counts, the best `top` by the objective,
    /// the best that fits in memory, the Pareto front of time against memory.
    void write_summary(std::ostream& out, const SweepReport& report, TimeUnit unit) const;

    /// The SVG of iteration time against peak memory per case (sweep_plot.h).
    std::string plot_svg(const SweepReport& report) const;

    /// The varying parameters' values at a point, like "tp 8, pp 4".
    std::string describe_point(const RankedPoint& point) const;

private:
    SweepSpec spec_;
    DesignSpace space_;
    PointEvaluator evaluator_;
};

/// Names of the parameters whose values `predict`'s CSV columns already show.
bool shown_by_predict_columns(const ParamInfo& param);

}  // namespace dtcalc
