#include "validate/svg_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/error.h"
#include "report/svg_chart.h"

namespace dtcalc {
namespace fs = std::filesystem;

std::string group_plot_file_name(const GroupSummary& group) {
    std::string name = group.dataset + "__" + group.group;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
    return name + ".svg";
}

std::string group_plot_svg(const GroupSummary& group, const std::vector<const ValidationCase*>& input) {
    constexpr double kWidth = 720, kHeight = 440;
    std::vector<const ValidationCase*> cases;
    for (const ValidationCase* c : input)
        if (c->x > 0 && c->measured > 0 && c->predicted > 0) cases.push_back(c);
    std::stable_sort(cases.begin(), cases.end(), [](const auto* a, const auto* b) { return a->x < b->x; });
    const bool time_axis = group.unit.empty() || group.unit == "us";
    const bool bytes_axis = group.x_label.empty() || group.x_label.starts_with("size");

    XyChart chart;
    chart.title = fmt::format("{} / {}: {} cases, geomean {:.2f}%, max {:.2f}%", group.dataset, group.group, group.cases,
                              100 * group.geomean, 100 * group.max);
    for (const GateCheck& g : group.gates)
        chart.title += fmt::format(", {} <= {:.1f}% {}", error_metric_name(g.metric), 100 * g.bound,
                                   g.passed ? "pass" : "FAIL");
    chart.x = {group.x_label.empty() ? "size (bytes)" : group.x_label, true, false, TickStyle::PowersOfTwo,
               bytes_axis ? TickFormat::Bytes : TickFormat::Number};
    double legend_rows = 1;
    if (group.points_per_model) {
        chart.y = {group.unit, false, true, TickStyle::Decimal, TickFormat::Number};
        std::vector<std::string> models;
        for (const ValidationCase* c : cases)
            if (std::find(models.begin(), models.end(), c->model) == models.end()) models.push_back(c->model);
        for (const ValidationCase* c : cases)  // measured and predicted of one case, joined
            chart.series.push_back({"", "#bbbbbb", {{c->x, c->measured}, {c->x, c->predicted}}, true, false, Marker::None, false});
        for (std::size_t m = 0; m < models.size(); ++m) {
            Series measured{models[m].empty() ? "(no model)" : models[m], chart_color(m), {}, false, false, chart_marker(m), false};
            Series predicted{"", chart_color(m), {}, false, false, chart_marker(m), true};
            for (const ValidationCase* c : cases)
                if (c->model == models[m]) {
                    measured.points.emplace_back(c->x, c->measured);
                    predicted.points.emplace_back(c->x, c->predicted);
                }
            chart.series.push_back(std::move(measured));
            chart.series.push_back(std::move(predicted));
        }
        chart.series.push_back({"measured (filled)", "#555555", {}, false, false, Marker::Circle, false});
        chart.series.push_back({"dtcalc (hollow)", "#555555", {}, false, false, Marker::Circle, true});
        legend_rows = 1 + static_cast<double>(models.size() + 2) / 4;
    } else {
        chart.y = {time_axis ? "time" : group.unit, true, false, TickStyle::Decimal,
                   time_axis ? TickFormat::Microseconds : TickFormat::Number};
        Series reference{group.reference_name.empty() ? "reference" : group.reference_name, "#e08a1e", {}, true, true,
                         Marker::None, false};
        Series predicted{"dtcalc", "#1f5fbf", {}, true, false, Marker::None, false};
        Series measured{"measured", "#111111", {}, false, false, Marker::Circle, false};
        for (const ValidationCase* c : cases) {
            if (c->reference) reference.points.emplace_back(c->x, *c->reference);
            predicted.points.emplace_back(c->x, c->predicted);
            measured.points.emplace_back(c->x, c->measured);
        }
        if (!reference.points.empty()) chart.series.push_back(std::move(reference));
        chart.series.push_back(std::move(predicted));
        chart.series.push_back(std::move(measured));
    }
    const double title_rows = static_cast<double>(wrap_text(chart.title, 14, kWidth - 16).size());
    const double height = kHeight + 18 * (title_rows - 1) + 18 * (legend_rows - 1);
    return svg_document(kWidth, height, render_xy_chart(chart, {0, 0, kWidth, height}));
}

std::vector<std::string> write_group_plots(const ValidationReport& report, const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir, ec))
        throw InputError({"--plot", 0, 0, ""}, "cannot create directory '" + dir + "'");
    std::vector<std::string> written;
    for (const GroupSummary& group : report.groups) {
        std::vector<const ValidationCase*> cases;
        for (const ValidationCase& c : report.cases)
            if (c.dataset == group.dataset && c.group == group.group) cases.push_back(&c);
        const std::string path = (fs::path(dir) / group_plot_file_name(group)).string();
        write_svg_file(path, group_plot_svg(group, cases), "--plot");
        written.push_back(path);
    }
    return written;
}

}  // namespace dtcalc
