#include "validate/nccl_inputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "collective/nccl/nccl_selection.h"
#include "config/config_readers.h"
#include "validate/nccl_tests_csv.h"
#include "validate/nccl_tests_json.h"

namespace dtcalc {
namespace {

namespace fs = std::filesystem;

void read_file(const std::string& path, const NcclLogShape& shape, const std::string& preset, bool skip_failed_runs,
               MeasuredInputs& out) {
    const std::string text = read_text_file(path);
    std::string first_line = text.substr(0, text.find('\n'));
    if (!first_line.empty() && first_line.back() == '\r') first_line.pop_back();
    if (looks_like_training_cases(first_line)) {
        for (TrainingCase& c : read_training_cases(path, preset)) out.training.push_back(std::move(c));
        return;
    }
    std::vector<NcclMeasurement> rows;
    if (looks_like_nccl_tests_csv(first_line)) {
        rows = read_nccl_tests_csv(path);
    } else {
        NcclTestsLog log = looks_like_json(text) ? parse_nccl_tests_json(text, path, shape)
                                                 : parse_nccl_tests_log_with_failures(text, path, shape);
        if (!log.failed_runs.empty() && !skip_failed_runs) throw log.failed_runs.front();
        for (NcclTestsRunFailed& failed : log.failed_runs) out.failed_runs.push_back(std::move(failed));
        rows = std::move(log.rows);
    }
    for (NcclMeasurement& m : rows)
        (nccl_discards(m.kind, m.bytes) ? out.discarded : out.collectives).push_back(std::move(m));
}

bool hidden(const fs::path& p) {
    const std::string name = p.filename().string();
    return !name.empty() && name[0] == '.';
}

}  // namespace

MeasuredInputs read_measured_inputs(const std::vector<std::string>& paths, const NcclLogShape& shape,
                                    const std::string& preset, bool skip_failed_runs) {
    MeasuredInputs out;
    for (const std::string& path : paths) {
        std::error_code ec;
        const fs::file_status status = fs::status(path, ec);
        if (ec || !fs::exists(status)) throw InputError({path, 0, 0, ""}, "does not exist");
        if (!fs::is_directory(status)) {
            read_file(path, shape, preset, skip_failed_runs, out);
            continue;
        }
        std::vector<std::string> files;
        fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
        if (ec) throw InputError({path, 0, 0, ""}, "cannot read the folder: " + ec.message());
        for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (ec) throw InputError({path, 0, 0, ""}, "cannot read the folder: " + ec.message());
            if (hidden(it->path())) {
                if (it->is_directory(ec)) it.disable_recursion_pending();
                continue;
            }
            if (it->is_regular_file(ec)) files.push_back(it->path().string());
        }
        if (files.empty()) throw InputError({path, 0, 0, ""}, "the folder holds no files to read");
        std::sort(files.begin(), files.end());
        for (const std::string& file : files) read_file(file, shape, preset, skip_failed_runs, out);
    }
    if (!out.failed_runs.empty() && out.collectives.empty() && out.discarded.empty() && out.training.empty()) {
        const NcclTestsRunFailed& first = out.failed_runs.front();
        throw InputError(first.where(), fmt::format("every input's runs failed ({} run{}); this one: {}",
                                                    out.failed_runs.size(), out.failed_runs.size() == 1 ? "" : "s",
                                                    first.detail()));
    }
    return out;
}

std::vector<NcclMeasurement> read_nccl_inputs(const std::vector<std::string>& paths, const NcclLogShape& shape) {
    MeasuredInputs in = read_measured_inputs(paths, shape, "");
    if (!in.training.empty())
        throw InputError({in.training.front().file, 1, 0, ""},
                         "training cases (a plan and a measured throughput); only nccl-tests output and dataset CSVs "
                         "are read here");
    return std::move(in.collectives);
}

std::string failed_run_note(const NcclTestsRunFailed& failed) {
    const std::size_t rows = failed.rows_read();
    if (rows == 0) return std::string(failed.what()) + " (left out: --skip-failed-runs)";
    return fmt::format("{} (its {} row{} read, the sizes after it missing: --skip-failed-runs)", failed.what(), rows,
                       rows == 1 ? "" : "s");
}

}  // namespace dtcalc
