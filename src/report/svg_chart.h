#pragma once
// One SVG chart writer for every picture dtcalc draws (predict, sweep,
// collective, validate): XY charts (markers and lines, either axis linear or
// logarithmic) and horizontal stacked bars, laid out in panels of one
// document. Plain SVG 1.1, no scripts, no external fonts; text is escaped, and
// titles and legends wrap to the width they are given.
//
// Text width is estimated, not measured: a character of a sans-serif font is
// about 0.6 of the font size wide on average (wider for capitals, narrower for
// "i" and "l"), so wrapping at that width keeps text inside its box for
// ordinary labels.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/chart_axis.h"

namespace dtcalc {

/// `text` with &, <, >, " and ' replaced by their XML entities.
std::string svg_escape(std::string_view text);

/// The estimated width in pixels of `text` (UTF-8) at `font_size`: characters x font_size x 0.6.
double text_width(std::string_view text, double font_size);

/// `text` broken at spaces into lines no wider than `max_width` (a single word
/// wider than that is cut with "..."); at least one line.
std::vector<std::string> wrap_text(std::string_view text, double font_size, double max_width);

/// The palette's colour `index` (cycling): ten colours distinguishable in print
/// and by most colour-blind readers (Tableau 10).
const char* chart_color(std::size_t index);

struct Box {
    double x = 0, y = 0, width = 0, height = 0;
};

enum class Marker { None, Circle, Square, Diamond, Triangle, Cross };

/// The marker shape `index` (cycling through the five shapes, shifted by one
/// every ten indices, so that with chart_color(index) the first 50 indices
/// each get their own colour and shape).
Marker chart_marker(std::size_t index);

/// How an axis labels its ticks.
enum class TickFormat {
    Number,        ///< 0.5, 10, 2000
    Bytes,         ///< 1 KiB, 64 MiB
    Microseconds,  ///< 10 us, 2 ms, 1.5 s
};

struct ChartAxis {
    std::string label;
    bool log = false;
    bool from_zero = false;  ///< linear: the range starts at 0
    TickStyle ticks = TickStyle::Decimal;
    TickFormat format = TickFormat::Number;
};

struct Series {
    std::string name;  ///< in the legend (empty: not listed)
    std::string color = "#4e79a7";
    std::vector<std::pair<double, double>> points;  ///< (x, y); drawn in this order
    bool line = false;
    bool dashed = false;
    Marker marker = Marker::Circle;
    bool hollow = false;
};

/// A point called out with a ring and a label.
struct Callout {
    double x = 0, y = 0;
    std::string text;
    std::string color = "#111111";
};

/// A horizontal line across the plot (a limit), named in the legend.
struct ReferenceLine {
    double y = 0;
    std::string label;
    std::string color = "#c0392b";
};

struct XyChart {
    std::string title;
    ChartAxis x, y;
    std::vector<Series> series;
    std::vector<Callout> callouts;
    std::vector<ReferenceLine> y_lines;
    std::vector<std::string> notes;  ///< lines under the legend
};

/// The scale of the chart's x (or y) axis over pixels [pixel_lo, pixel_hi]:
/// the range of its series, callouts (and, for y, reference lines), as
/// chart_axis.h widens it.
AxisScale xy_chart_scale(const XyChart& chart, bool x_axis, double pixel_lo, double pixel_hi);

/// The SVG elements of `chart` drawn inside `box`.
std::string render_xy_chart(const XyChart& chart, const Box& box);

struct BarSegment {
    std::string name;
    double value = 0;
    std::string color;
};

struct BarRow {
    std::string label;
    std::vector<BarSegment> segments;  ///< left to right
};

struct BarChart {
    std::string title;
    std::string unit;        ///< after each value
    std::string axis_label;  ///< under the axis (empty: the unit)
    int decimals = 2;  ///< of the values in the legend
    std::vector<BarRow> rows;
    std::optional<double> limit;  ///< a vertical line (a capacity)
    std::string limit_label;
    std::vector<std::string> notes;  ///< lines under the legend
};

/// The height `chart` needs at `width` (title, bars, axis, legend and notes).
double bar_chart_height(const BarChart& chart, double width);

/// The SVG elements of `chart` drawn inside `box` (the legend lists the first
/// row's segments with their values and shares of the row's total).
std::string render_bar_chart(const BarChart& chart, const Box& box);

/// A whole document of `width` x `height` on white, holding `body`.
std::string svg_document(double width, double height, std::string_view body);

/// Writes `svg` to `path`; throws InputError (key `flag`) when it cannot.
void write_svg_file(const std::string& path, const std::string& svg, const std::string& flag);

}  // namespace dtcalc
