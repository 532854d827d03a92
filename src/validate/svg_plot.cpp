#include "validate/svg_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "core/error.h"
#include "core/units.h"

namespace dtcalc {
namespace fs = std::filesystem;
namespace {

constexpr double kWidth = 720, kHeight = 440;
constexpr double kLeft = 80, kRight = 20, kTop = 56, kBottom = 56;

std::string escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

struct LogAxis {
    double lo = 0, hi = 1;  // log10 of the range ends
    double pixel_lo = 0, pixel_hi = 1;
    double at(double value) const {
        const double t = (std::log10(value) - lo) / (hi - lo);
        return pixel_lo + t * (pixel_hi - pixel_lo);
    }
};

LogAxis make_axis(double min, double max, double pixel_lo, double pixel_hi) {
    if (!(min > 0)) min = 1;
    if (!(max > 0)) max = min;
    LogAxis axis;
    axis.lo = std::log10(min);
    axis.hi = std::log10(max);
    if (axis.hi - axis.lo < 0.3) {  // at least a factor of 2 of range
        const double mid = 0.5 * (axis.lo + axis.hi);
        axis.lo = mid - 0.15;
        axis.hi = mid + 0.15;
    }
    const double pad = 0.04 * (axis.hi - axis.lo);
    axis.lo -= pad;
    axis.hi += pad;
    axis.pixel_lo = pixel_lo;
    axis.pixel_hi = pixel_hi;
    return axis;
}

std::string time_label(double us) {
    if (us >= 1e6) return fmt::format("{:g} s", us / 1e6);
    if (us >= 1e3) return fmt::format("{:g} ms", us / 1e3);
    return fmt::format("{:g} us", us);
}

std::string polyline(const std::vector<std::pair<double, double>>& points, const char* style) {
    std::string out = "<polyline fill=\"none\" " + std::string(style) + " points=\"";
    for (const auto& [x, y] : points) out += fmt::format("{:.1f},{:.1f} ", x, y);
    return out + "\"/>\n";
}

}  // namespace

std::string group_plot_file_name(const GroupSummary& group) {
    std::string name = group.dataset + "__" + group.group;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
    return name + ".svg";
}

std::string group_plot_svg(const GroupSummary& group, const std::vector<const ValidationCase*>& input) {
    std::vector<const ValidationCase*> cases;
    for (const ValidationCase* c : input)
        if (c->x > 0 && c->measured > 0 && c->predicted > 0) cases.push_back(c);
    std::sort(cases.begin(), cases.end(), [](const auto* a, const auto* b) { return a->x < b->x; });

    double x_min = std::numeric_limits<double>::max(), x_max = 0;
    double y_min = std::numeric_limits<double>::max(), y_max = 0;
    for (const ValidationCase* c : cases) {
        x_min = std::min(x_min, c->x);
        x_max = std::max(x_max, c->x);
        for (double v : {c->measured, c->predicted, c->reference.value_or(c->measured)}) {
            y_min = std::min(y_min, v);
            y_max = std::max(y_max, v);
        }
    }
    if (cases.empty()) x_min = x_max = y_min = y_max = 1;
    const LogAxis xa = make_axis(x_min, x_max, kLeft, kWidth - kRight);
    const LogAxis ya = make_axis(y_min, y_max, kHeight - kBottom, kTop);
    const bool time_axis = group.unit.empty() || group.unit == "us";
    const bool bytes_axis = group.x_label.empty() || group.x_label.starts_with("size");

    std::string title = fmt::format("{} / {}: {} cases, geomean {:.2f}%, max {:.2f}%", group.dataset, group.group,
                                    group.cases, 100 * group.geomean, 100 * group.max);
    for (const GateCheck& g : group.gates)
        title += fmt::format(", {} <= {:.1f}% {}", error_metric_name(g.metric), 100 * g.bound,
                             g.passed ? "pass" : "FAIL");

    std::string svg = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
        "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
        kWidth, kHeight);
    svg += fmt::format("<text x=\"{}\" y=\"22\" font-size=\"14\">{}</text>\n", kLeft, escape(title));

    // Grid and ticks: powers of two on x (every other one when crowded), 1-2-5 per decade on y.
    const int x_first = static_cast<int>(std::ceil(xa.lo / std::log10(2.0)));
    const int x_last = static_cast<int>(std::floor(xa.hi / std::log10(2.0)));
    const int x_step = x_last - x_first > 10 ? 2 : 1;
    for (int e = x_first; e <= x_last; ++e) {
        if ((e - x_first) % x_step != 0) continue;
        const double value = std::pow(2.0, e);
        const double px = xa.at(value);
        svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#e4e4e4\"/>\n", px, kTop,
                           kHeight - kBottom);
        const std::string label = bytes_axis && value >= 1 && value < 1.8e19
                                      ? format_byte_size(static_cast<std::uint64_t>(value))
                                      : fmt::format("{:g}", value);
        svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", px,
                           kHeight - kBottom + 16, escape(label));
    }
    for (int d = static_cast<int>(std::floor(ya.lo)); d <= static_cast<int>(std::ceil(ya.hi)); ++d) {
        for (double m : {1.0, 2.0, 5.0}) {
            const double value = m * std::pow(10.0, d);
            const double lv = std::log10(value);
            if (lv < ya.lo || lv > ya.hi) continue;
            const double py = ya.at(value);
            svg += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\"/>\n", kLeft, py,
                               kWidth - kRight, py, m == 1.0 ? "#d0d0d0" : "#eeeeee");
            svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6, py + 4,
                               escape(time_axis ? time_label(value) : fmt::format("{:g}", value)));
        }
    }
    svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#555\"/>\n", kLeft,
                       kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{} (log scale)</text>\n",
                       0.5 * (kLeft + kWidth - kRight), kHeight - 12,
                       escape(group.x_label.empty() ? "size (bytes)" : group.x_label));
    svg += fmt::format("<text x=\"16\" y=\"{0:.1f}\" transform=\"rotate(-90 16 {0:.1f})\" text-anchor=\"middle\">{1} "
                       "(log scale)</text>\n",
                       0.5 * (kTop + kHeight - kBottom), escape(time_axis ? "time" : group.unit));

    std::vector<std::pair<double, double>> predicted, reference;
    for (const ValidationCase* c : cases) {
        predicted.emplace_back(xa.at(c->x), ya.at(c->predicted));
        if (c->reference) reference.emplace_back(xa.at(c->x), ya.at(*c->reference));
    }
    if (!reference.empty())
        svg += polyline(reference, "stroke=\"#e08a1e\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"");
    svg += polyline(predicted, "stroke=\"#1f5fbf\" stroke-width=\"2\"");
    for (const ValidationCase* c : cases)
        svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"#111\"/>\n", xa.at(c->x),
                           ya.at(c->measured));

    // Legend.
    double ly = kTop + 16;
    svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"#111\"/><text x=\"{}\" y=\"{}\">measured</text>\n",
                       kLeft + 16, ly, kLeft + 26, ly + 4);
    ly += 18;
    svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#1f5fbf\" stroke-width=\"2\"/>"
                       "<text x=\"{}\" y=\"{}\">dtcalc</text>\n",
                       kLeft + 8, ly, kLeft + 22, ly, kLeft + 26, ly + 4);
    if (!reference.empty()) {
        ly += 18;
        svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e08a1e\" stroke-width=\"1.5\" "
                           "stroke-dasharray=\"6 4\"/><text x=\"{}\" y=\"{}\">{}</text>\n",
                           kLeft + 8, ly, kLeft + 22, ly, kLeft + 26, ly + 4,
                           escape(group.reference_name.empty() ? "reference" : group.reference_name));
    }
    svg += "</svg>\n";
    return svg;
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
        std::ofstream out(path);
        out << group_plot_svg(group, cases);
        if (!out) throw InputError({"--plot", 0, 0, ""}, "cannot write '" + path + "'");
        written.push_back(path);
    }
    return written;
}

}  // namespace dtcalc
