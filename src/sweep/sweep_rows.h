#pragma once
// The rows a sweep writes: one per point, CSV (a header line, then one line
// per point) or JSON lines (one object per line, no header).
//
// A CSV row is the point's identifiers (point and case; a batch file's row
// keeps its own cells instead), the parameters `predict`'s columns do not
// show, `predict`'s own CSV columns (report/predict_report.h, byte for byte as
// `dtcalc predict --format csv` writes them), and cost_per_mtok. A point that
// is not allowed or cannot run leaves the result columns empty and says why
// in `reason`.
//
// A JSON line is {identifiers, "parameters": {...} (a batch file's cells:
// "input"), then `predict --format json`'s keys, "cost_per_mtok"}.
#include <optional>
#include <sstream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.h"
#include "sweep/point_evaluator.h"

namespace dtcalc {

enum class SweepFormat { Csv, JsonLines };

/// "csv", "jsonl" (also "json" and "ndjson": JSON lines).
std::optional<SweepFormat> parse_sweep_format(std::string_view text);

struct RowField {
    std::string name;
    std::string text;      ///< as a CSV cell shows it
    bool is_text = false;  ///< JSON: a string (else a number or boolean literal; empty text is null)
};

/// What one thread reuses from row to row.
struct RowScratch {
    std::ostringstream text;  ///< a JSON line
    std::string line;         ///< a CSV row
    std::vector<std::size_t> field_ends;  ///< where each of its fields ends
};

class SweepRowWriter {
public:
    /// `group_name`: the JSON key holding the parameter fields; `dropped`:
    /// predict columns to leave out (a batch file that has them itself).
    /// `comm_by_group`: keep the columns of communication by group (left out otherwise).
    /// `unit`: the CSV's times (its time columns are named for it); JSON lines keep predict's microseconds.
    SweepRowWriter(SweepFormat format, std::string group_name, std::vector<std::string> dropped = {},
                   bool comm_by_group = false, TimeUnit unit = TimeUnit::Microseconds);

    /// The CSV header line (with its newline); empty for JSON lines.
    std::string header(std::span<const std::string> id_names, std::span<const std::string> group_names) const;

    void write(std::string& out, std::span<const RowField> ids, std::span<const RowField> group, const PointOutcome& point,
               RowScratch& scratch) const;
    /// A row whose point could not be read at all (batch mode's --keep-going).
    void write_error(std::string& out, std::span<const RowField> ids, std::span<const RowField> group,
                     const std::string& message) const;

    /// predict's CSV column names, in order.
    const std::vector<std::string>& predict_columns() const { return columns_; }

private:
    SweepFormat format_;
    TimeUnit unit_;
    std::string group_name_;
    std::vector<std::string> columns_;
    std::vector<bool> kept_, result_;
    int feasible_column_ = -1, reason_column_ = -1;
};

}  // namespace dtcalc
