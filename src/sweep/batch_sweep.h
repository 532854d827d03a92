#pragma once
// Batch mode, for spreadsheets: a CSV file whose rows are configurations, its
// columns named like the parameters (sweep_parameters.h; '-' or '_'), written
// back row for row with `predict`'s columns and cost_per_mtok appended (those
// the file already has are not repeated).
//
// An empty cell leaves the parameter to the spec or the flags (single values
// only: batch mode sweeps nothing itself). Columns whose name starts with '#'
// are carried through untouched (notes, ids). A row with a missing or extra
// field, a value that cannot be read, or a model or system that cannot be
// loaded is an input error naming the file, line and column; with keep-going
// it is reported, written with its reason, and the other rows go on.
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/csv_document.h"
#include "sweep/sweep.h"

namespace dtcalc {

struct BatchReport {
    std::vector<RankedPoint> records;  ///< point = the row's index (0-based)
    std::vector<std::string> bad_rows;  ///< the messages of rows that could not be read
    double seconds = 0;
    int threads = 1;
    bool feasible_only = false;  ///< the rows left out rows that do not fit: so does the summary
};

class BatchSweep {
public:
    /// Reads and checks every row and loads what they name. Throws InputError
    /// for a bad header, and for the first bad row unless `keep_going`.
    BatchSweep(SweepSpec spec, const std::string& csv_text, const std::string& source, std::vector<std::string> preset_dirs,
               std::vector<std::string> model_dirs, bool keep_going);
    BatchSweep(const BatchSweep&) = delete;
    BatchSweep& operator=(const BatchSweep&) = delete;

    std::size_t rows() const { return rows_.size(); }
    const std::vector<std::string>& bad_rows() const { return bad_; }

    BatchReport run(const SweepSettings& settings, const std::function<void(std::string_view)>& write,
                    const std::function<void(std::uint64_t done, std::uint64_t total)>& progress = {}) const;
    void write_summary(std::ostream& out, const BatchReport& report, TimeUnit unit) const;
    /// The SVG of iteration time against peak memory of the rows (sweep_plot.h).
    std::string plot_svg(const BatchReport& report) const;

private:
    struct Row {
        int line = 0;
        std::vector<std::string> cells;
        std::vector<ParamValue> values;  ///< per column (unused for empty and '#' cells)
        std::vector<Assigned> assigned;  ///< the spec's fixed values, then the row's cells over them
        int target = -1;
        std::string error;  ///< non-empty: the row could not be read
    };
    std::string describe(const Row& row) const;

    SweepSpec spec_;
    PointEvaluator evaluator_;
    std::string source_;
    std::vector<std::string> header_;
    std::vector<const ParamInfo*> columns_;  ///< per column; nullptr for '#' columns
    std::vector<Row> rows_;
    std::vector<std::string> bad_;
};

}  // namespace dtcalc
