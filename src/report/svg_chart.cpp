#include "report/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include "core/error.h"
#include "core/units.h"

namespace dtcalc {
namespace {

constexpr double kPad = 8;
constexpr double kTitleSize = 14, kTitleLine = 18;
constexpr double kFontSize = 12, kLegendLine = 18;
constexpr double kNoteSize = 11, kNoteLine = 15;
// A white outline under a label that sits over data, so that it stays legible.
constexpr const char* kHalo = " stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\"";

std::string number_label(double value) {
    if (value == 0) return "0";
    const double a = std::abs(value);
    if (a >= 1e6 || a < 1e-3) return fmt::format("{:.3g}", value);
    return fmt::format("{:g}", std::round(value * 1e6) / 1e6);
}

std::string time_label(double us) {
    if (std::abs(us) >= 1e6) return fmt::format("{:g} s", us / 1e6);
    if (std::abs(us) >= 1e3) return fmt::format("{:g} ms", us / 1e3);
    return fmt::format("{:g} us", us);
}

std::string tick_label(double value, TickFormat format) {
    switch (format) {
        case TickFormat::Bytes:
            if (value >= 1 && value < 1.8e19 && value == std::floor(value))
                return format_byte_size(static_cast<std::uint64_t>(value));
            return number_label(value);
        case TickFormat::Microseconds: return time_label(value);
        case TickFormat::Number: break;
    }
    return number_label(value);
}

std::string text_element(double x, double y, std::string_view text, std::string_view attributes = "") {
    return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\"{}{}>{}</text>\n", x, y, attributes.empty() ? "" : " ", attributes,
                       svg_escape(text));
}

std::string marker_element(Marker marker, double cx, double cy, double r, const std::string& color, bool hollow) {
    const std::string paint = hollow ? fmt::format("fill=\"white\" stroke=\"{}\" stroke-width=\"1.5\"", color)
                                     : fmt::format("fill=\"{}\" stroke=\"white\" stroke-width=\"0.5\"", color);
    switch (marker) {
        case Marker::None: return "";
        case Marker::Circle: return fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" {}/>\n", cx, cy, r, paint);
        case Marker::Square:
            return fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" {}/>\n", cx - r * 0.9,
                               cy - r * 0.9, 1.8 * r, 1.8 * r, paint);
        case Marker::Diamond:
            return fmt::format("<polygon points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\" {}/>\n", cx,
                               cy - 1.3 * r, cx + 1.3 * r, cy, cx, cy + 1.3 * r, cx - 1.3 * r, cy, paint);
        case Marker::Triangle:
            return fmt::format("<polygon points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\" {}/>\n", cx, cy - 1.3 * r,
                               cx + 1.2 * r, cy + 0.9 * r, cx - 1.2 * r, cy + 0.9 * r, paint);
        case Marker::Cross:
            return fmt::format("<path d=\"M{:.1f} {:.1f}L{:.1f} {:.1f}M{:.1f} {:.1f}L{:.1f} {:.1f}\" stroke=\"{}\" "
                               "stroke-width=\"2\"/>\n",
                               cx - r, cy - r, cx + r, cy + r, cx - r, cy + r, cx + r, cy - r, color);
    }
    return "";
}

// Legend items laid out in rows no wider than `width`.
struct LegendItem {
    std::string text;
    double width = 0;
    double x = 0;
    int row = 0;
};

int lay_out_legend(std::vector<LegendItem>& items, double width) {
    double x = 0;
    int row = 0;
    for (LegendItem& item : items) {
        if (x > 0 && x + item.width > width) {
            ++row;
            x = 0;
        }
        item.x = x;
        item.row = row;
        x += item.width;
    }
    return items.empty() ? 0 : row + 1;
}

std::string title_element(const std::vector<std::string>& lines, double x, double y) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += text_element(x, y + kTitleSize + static_cast<double>(i) * kTitleLine, lines[i],
                            "font-size=\"14\" font-weight=\"bold\"");
    return out;
}

std::string notes_element(const std::vector<std::string>& lines, double x, double y) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += text_element(x, y + kNoteSize + static_cast<double>(i) * kNoteLine, lines[i],
                            "font-size=\"11\" fill=\"#444\"");
    return out;
}

std::vector<std::string> wrap_all(const std::vector<std::string>& texts, double font_size, double width) {
    std::vector<std::string> lines;
    for (const std::string& t : texts)
        for (std::string& l : wrap_text(t, font_size, width)) lines.push_back(std::move(l));
    return lines;
}

// Ticks whose labels do not overlap: every k-th, the smallest k that leaves gaps.
std::vector<std::size_t> spaced_ticks(const std::vector<double>& pixels, const std::vector<std::string>& labels,
                                      double font_size, bool horizontal) {
    std::vector<std::size_t> kept;
    for (std::size_t every = 1; every <= std::max<std::size_t>(1, pixels.size()); ++every) {
        kept.clear();
        for (std::size_t i = 0; i < pixels.size(); i += every) kept.push_back(i);
        bool fits = true;
        for (std::size_t j = 1; j < kept.size() && fits; ++j) {
            const std::size_t a = kept[j - 1], b = kept[j];
            const double need = horizontal
                                    ? 0.5 * (text_width(labels[a], font_size) + text_width(labels[b], font_size)) + 6
                                    : font_size + 2;
            fits = std::abs(pixels[b] - pixels[a]) >= need;
        }
        if (fits) break;
    }
    return kept;
}

struct DataRange {
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    void add(double v, bool log) {
        if (!std::isfinite(v) || (log && !(v > 0))) return;
        min = std::min(min, v);
        max = std::max(max, v);
    }
    bool empty() const { return !(max >= min); }
};

std::vector<double> axis_ticks(const ChartAxis& axis, const AxisScale& scale) {
    return axis.log ? log_ticks(scale.lo, scale.hi, axis.ticks, 12) : linear_ticks(scale.lo, scale.hi, 6);
}

}  // namespace

std::string svg_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default:
                // Control characters are not allowed in XML 1.0: drop them.
                if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') continue;
                out += c;
        }
    }
    return out;
}

double text_width(std::string_view text, double font_size) {
    std::size_t chars = 0;
    for (char c : text)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++chars;  // not a UTF-8 continuation byte
    return static_cast<double>(chars) * font_size * 0.6;
}

std::vector<std::string> wrap_text(std::string_view text, double font_size, double max_width) {
    std::vector<std::string> lines;
    std::string line;
    auto cut = [&](std::string word) {
        while (!word.empty() && text_width(word + "...", font_size) > max_width) {
            word.pop_back();
            while (!word.empty() && (static_cast<unsigned char>(word.back()) & 0xC0) == 0x80) word.pop_back();
            if (!word.empty() && (static_cast<unsigned char>(word.back()) & 0xC0) == 0xC0) word.pop_back();
        }
        return word + "...";
    };
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && text[i] == ' ') ++i;
        if (i >= text.size()) break;
        std::size_t j = text.find(' ', i);
        if (j == std::string_view::npos) j = text.size();
        std::string word(text.substr(i, j - i));
        i = j;
        const std::string joined = line.empty() ? word : line + " " + word;
        if (text_width(joined, font_size) <= max_width) {
            line = joined;
            continue;
        }
        if (!line.empty()) lines.push_back(line);
        line = text_width(word, font_size) <= max_width ? word : cut(word);
    }
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
}

const char* chart_color(std::size_t index) {
    static const char* const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                          "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
    return palette[index % 10];
}

Marker chart_marker(std::size_t index) {
    static const Marker shapes[] = {Marker::Circle, Marker::Square, Marker::Diamond, Marker::Triangle, Marker::Cross};
    return shapes[(index + index / 10) % 5];  // shifted every ten: no (colour, shape) pair repeats before 50
}

AxisScale xy_chart_scale(const XyChart& chart, bool x_axis, double pixel_lo, double pixel_hi) {
    const ChartAxis& axis = x_axis ? chart.x : chart.y;
    DataRange range;
    for (const Series& s : chart.series)
        for (const auto& [x, y] : s.points) range.add(x_axis ? x : y, axis.log);
    for (const Callout& c : chart.callouts) range.add(x_axis ? c.x : c.y, axis.log);
    if (!x_axis)
        for (const ReferenceLine& l : chart.y_lines) range.add(l.y, axis.log);
    if (range.empty()) range.min = range.max = 1;
    AxisScale scale;
    scale.log = axis.log;
    std::tie(scale.lo, scale.hi) =
        axis.log ? log_range(range.min, range.max) : linear_range(range.min, range.max, axis.from_zero, 6);
    scale.pixel_lo = pixel_lo;
    scale.pixel_hi = pixel_hi;
    return scale;
}

std::string render_xy_chart(const XyChart& chart, const Box& box) {
    const double inner = box.width - 2 * kPad;
    const std::vector<std::string> title = wrap_text(chart.title, kTitleSize, inner);
    const double top = box.y + kPad + static_cast<double>(title.size()) * kTitleLine + 10;

    // Legend and notes under the plot.
    // Named series, then the reference lines (named here, not over the data they would hide).
    std::vector<Series> listed;
    for (const Series& s : chart.series)
        if (!s.name.empty()) listed.push_back({s.name, s.color, {}, s.line, s.dashed, s.marker, s.hollow});
    for (const ReferenceLine& l : chart.y_lines) listed.push_back({l.label, l.color, {}, true, true, Marker::None, false});
    std::vector<LegendItem> legend;
    for (const Series& s : listed) legend.push_back({s.name, 34 + text_width(s.name, kFontSize) + 14});
    const int legend_rows = lay_out_legend(legend, inner);
    const std::vector<std::string> notes = wrap_all(chart.notes, kNoteSize, inner);
    const double below = 18 + 20 + legend_rows * kLegendLine + static_cast<double>(notes.size()) * kNoteLine + kPad;
    const double bottom = box.y + box.height - below;

    // The y labels set the left margin.
    AxisScale ys = xy_chart_scale(chart, false, bottom, top);
    const std::vector<double> y_ticks = axis_ticks(chart.y, ys);
    std::vector<std::string> y_labels;
    double y_label_width = 0;
    for (double v : y_ticks) {
        y_labels.push_back(tick_label(v, chart.y.format));
        y_label_width = std::max(y_label_width, text_width(y_labels.back(), kFontSize));
    }
    const double left = box.x + kPad + 20 + y_label_width + 8;
    const double right = box.x + box.width - kPad - 8;
    const AxisScale xs = xy_chart_scale(chart, true, left, right);
    const std::vector<double> x_ticks = axis_ticks(chart.x, xs);
    std::vector<std::string> x_labels;
    for (double v : x_ticks) x_labels.push_back(tick_label(v, chart.x.format));

    std::string svg = title_element(title, box.x + kPad, box.y + kPad);
    // Grid, ticks and their labels.
    std::vector<double> px;
    for (double v : x_ticks) px.push_back(xs.at(v));
    for (std::size_t i : spaced_ticks(px, x_labels, kFontSize, true)) {
        svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#e4e4e4\"/>\n", px[i],
                           top, bottom);
        // Centred under its tick, unless that would take it past the picture's right edge.
        const double half = 0.5 * text_width(x_labels[i], kFontSize), edge = box.x + box.width - 1;
        if (px[i] + half <= edge)
            svg += text_element(px[i], bottom + 16, x_labels[i], "text-anchor=\"middle\"");
        else
            svg += text_element(edge, bottom + 16, x_labels[i], "text-anchor=\"end\"");
    }
    std::vector<double> py;
    for (double v : y_ticks) py.push_back(ys.at(v));
    for (std::size_t i : spaced_ticks(py, y_labels, kFontSize, false)) {
        svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e4e4e4\"/>\n", left,
                           py[i], right, py[i]);
        svg += text_element(left - 6, py[i] + 4, y_labels[i], "text-anchor=\"end\"");
    }
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" stroke=\"#555\"/>\n",
                       left, top, right - left, bottom - top);
    const std::string x_title = chart.x.label + (chart.x.log ? " (log scale)" : "");
    const std::string y_title = chart.y.label + (chart.y.log ? " (log scale)" : "");
    svg += text_element(0.5 * (left + right), bottom + 34, x_title, "text-anchor=\"middle\"");
    const double y_mid = 0.5 * (top + bottom), y_x = box.x + kPad + 12;
    svg += fmt::format("<text x=\"{0:.1f}\" y=\"{1:.1f}\" transform=\"rotate(-90 {0:.1f} {1:.1f})\" "
                       "text-anchor=\"middle\">{2}</text>\n",
                       y_x, y_mid, svg_escape(y_title));

    for (const ReferenceLine& l : chart.y_lines) {
        const double y = ys.at(l.y);
        svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
                           "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n",
                           left, y, right, y, l.color);
    }
    for (const Series& s : chart.series) {
        if (s.line && s.points.size() == 1 && s.marker == Marker::None) {  // a line of one point: a short dash
            const double x = xs.at(s.points[0].first), y = ys.at(s.points[0].second);
            svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
                               "stroke-width=\"2\"/>\n",
                               x - 8, y, x + 8, y, s.color);
            continue;
        }
        if (!s.line || s.points.size() < 2) continue;
        std::string points;
        for (const auto& [x, y] : s.points) points += fmt::format("{:.1f},{:.1f} ", xs.at(x), ys.at(y));
        points.pop_back();
        svg += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} points=\"{}\"/>\n", s.color,
                           s.dashed ? " stroke-dasharray=\"6 4\"" : "", points);
    }
    for (const Series& s : chart.series)
        for (const auto& [x, y] : s.points) svg += marker_element(s.marker, xs.at(x), ys.at(y), 4, s.color, s.hollow);
    for (const Callout& c : chart.callouts) {
        const double x = xs.at(c.x), y = ys.at(c.y);
        svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"9\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n",
                           x, y, c.color);
        const double w = text_width(c.text, kFontSize);
        const bool on_left = x + 14 + w > right;
        const double ty = std::clamp(y - 12, top + 12, bottom - 4);
        svg += text_element(on_left ? x - 14 : x + 14, ty, c.text,
                            fmt::format("text-anchor=\"{}\" fill=\"{}\"{}", on_left ? "end" : "start", c.color, kHalo));
    }

    // Legend.
    const double legend_top = bottom + 44;
    for (std::size_t i = 0; i < legend.size(); ++i) {
        const Series& s = listed[i];
        const double x = box.x + kPad + legend[i].x, y = legend_top + legend[i].row * kLegendLine;
        if (s.line)
            svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
                               "stroke-width=\"2\"{}/>\n",
                               x, y, x + 26, y, s.color, s.dashed ? " stroke-dasharray=\"6 4\"" : "");
        svg += marker_element(s.marker, x + 13, y, 4, s.color, s.hollow);
        svg += text_element(x + 32, y + 4, s.name);
    }
    svg += notes_element(notes, box.x + kPad, legend_top + legend_rows * kLegendLine - 8);
    return svg;
}

namespace {

struct BarLayout {
    std::vector<std::string> title;
    double label_width = 0;
    std::vector<LegendItem> legend;
    int legend_rows = 0;
    std::vector<std::string> notes;
    double height = 0;
    static constexpr double kBar = 26, kGap = 10, kLimitLabel = 16, kAxis = 36;
};

std::string value_text(const BarChart& chart, double value) {
    return fmt::format("{:.{}f}{}{}", value, chart.decimals, chart.unit.empty() ? "" : " ", chart.unit);
}

BarLayout lay_out_bars(const BarChart& chart, double width) {
    BarLayout l;
    const double inner = width - 2 * kPad;
    l.title = wrap_text(chart.title, kTitleSize, inner);
    for (const BarRow& r : chart.rows) l.label_width = std::max(l.label_width, text_width(r.label, kFontSize));
    if (!chart.rows.empty()) {
        double total = 0;
        for (const BarSegment& s : chart.rows.front().segments) total += s.value;
        for (const BarSegment& s : chart.rows.front().segments) {
            if (!(s.value > 0)) continue;
            std::string text = s.name + " " + value_text(chart, s.value);
            if (total > 0) text += fmt::format(" ({:.1f} %)", 100 * s.value / total);
            l.legend.push_back({text, 18 + text_width(text, kFontSize) + 16});
        }
    }
    l.legend_rows = lay_out_legend(l.legend, inner);
    l.notes = wrap_all(chart.notes, kNoteSize, inner);
    l.height = kPad + static_cast<double>(l.title.size()) * kTitleLine + BarLayout::kLimitLabel + 6 +
               static_cast<double>(chart.rows.size()) * (BarLayout::kBar + BarLayout::kGap) + BarLayout::kAxis +
               l.legend_rows * kLegendLine + static_cast<double>(l.notes.size()) * kNoteLine + kPad;
    return l;
}

}  // namespace

double bar_chart_height(const BarChart& chart, double width) { return lay_out_bars(chart, width).height; }

std::string render_bar_chart(const BarChart& chart, const Box& box) {
    const BarLayout l = lay_out_bars(chart, box.width);
    double max_total = 0;
    for (const BarRow& r : chart.rows) {
        double total = 0;
        for (const BarSegment& s : r.segments) total += std::max(0.0, s.value);
        max_total = std::max(max_total, total);
    }
    if (chart.limit) max_total = std::max(max_total, *chart.limit);
    const auto [lo, hi] = linear_range(0, max_total, true, 6);
    const double left = box.x + kPad + l.label_width + (l.label_width > 0 ? 10 : 0);
    const double right = box.x + box.width - kPad - 10;
    const AxisScale xs{lo, hi, false, left, right};

    std::string svg = title_element(l.title, box.x + kPad, box.y + kPad);
    const double bars_top = box.y + kPad + static_cast<double>(l.title.size()) * kTitleLine + BarLayout::kLimitLabel + 6;
    const double bars_bottom = bars_top + static_cast<double>(chart.rows.size()) * (BarLayout::kBar + BarLayout::kGap);
    for (double v : linear_ticks(lo, hi, 6)) {
        const double x = xs.at(v);
        svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#e4e4e4\"/>\n", x,
                           bars_top, bars_bottom);
        svg += text_element(x, bars_bottom + 16, number_label(v), "text-anchor=\"middle\"");
    }
    svg += text_element(0.5 * (left + right), bars_bottom + 32, chart.axis_label.empty() ? chart.unit : chart.axis_label, "text-anchor=\"middle\"");
    for (std::size_t i = 0; i < chart.rows.size(); ++i) {
        const BarRow& r = chart.rows[i];
        const double y = bars_top + static_cast<double>(i) * (BarLayout::kBar + BarLayout::kGap) + BarLayout::kGap / 2;
        svg += text_element(left - 8, y + BarLayout::kBar / 2 + 4, r.label, "text-anchor=\"end\"");
        double at = 0;
        for (const BarSegment& s : r.segments) {
            if (!(s.value > 0)) continue;
            const double x0 = xs.at(at), x1 = xs.at(at + s.value);
            svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.1f}\" fill=\"{}\"><title>{}</title></rect>\n",
                               x0, y, x1 - x0, BarLayout::kBar, s.color, svg_escape(s.name + " " + value_text(chart, s.value)));
            at += s.value;
        }
    }
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#555\"/>\n", left,
                       bars_top, bars_bottom);
    if (chart.limit) {
        const double x = xs.at(*chart.limit);
        svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#c0392b\" "
                           "stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n",
                           x, bars_top - 4, bars_bottom);
        const bool fits_right = x + text_width(chart.limit_label, kFontSize) / 2 <= right;
        svg += text_element(fits_right ? x : x + 2, bars_top - 8, chart.limit_label,
                            fits_right ? "text-anchor=\"middle\" fill=\"#c0392b\"" : "text-anchor=\"end\" fill=\"#c0392b\"");
    }
    const double legend_top = bars_bottom + BarLayout::kAxis + 8;
    std::size_t k = 0;
    if (!chart.rows.empty())
        for (const BarSegment& s : chart.rows.front().segments) {
            if (!(s.value > 0)) continue;
            const LegendItem& item = l.legend[k++];
            const double x = box.x + kPad + item.x, y = legend_top + item.row * kLegendLine;
            svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"12\" height=\"12\" fill=\"{}\"/>\n", x, y - 10,
                               s.color);
            svg += text_element(x + 18, y, item.text);
        }
    svg += notes_element(l.notes, box.x + kPad, legend_top + l.legend_rows * kLegendLine - 8);
    return svg;
}

std::string svg_document(double width, double height, std::string_view body) {
    std::string svg = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
        "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
        std::ceil(width), std::ceil(height));
    svg += body;
    svg += "</svg>\n";
    return svg;
}

void write_svg_file(const std::string& path, const std::string& svg, const std::string& flag) {
    std::ofstream out(path, std::ios::binary);
    if (out) out << svg;
    if (!out) throw InputError({flag, 0, 0, ""}, "cannot write '" + path + "'");
}

}  // namespace dtcalc
