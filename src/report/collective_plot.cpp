#include "report/collective_plot.h"

#include <fmt/format.h>

#include <set>

#include "report/svg_chart.h"

namespace dtcalc {

CollectivePlot collective_plot_from_rows(const std::vector<CollectiveRow>& rows, const std::string& system_label) {
    CollectivePlot plot;
    std::set<std::uint64_t> sizes;
    std::set<std::int64_t> counts;
    for (const CollectiveRow& r : rows) {
        sizes.insert(r.size_bytes);
        counts.insert(r.npus);
    }
    const std::string kind = rows.empty() ? "collective" : std::string(collective_kind_name(rows.front().kind));
    const std::string backend = rows.empty() ? "" : std::string(network_backend_name(rows.front().backend));
    auto point = [](const CollectiveRow& r, double x) {
        return CollectivePlotPoint{x, r.result.time_ns / 1e3, r.busbw_gbps()};
    };
    if (sizes.size() == 1 && counts.size() > 1) {
        plot.x = CollectivePlotX::Gpus;
        plot.title = fmt::format("{} of {} on {}, backend {}", kind, format_byte_size(*sizes.begin()), system_label, backend);
        CollectivePlotSeries s;
        for (const CollectiveRow& r : rows) s.points.push_back(point(r, static_cast<double>(r.npus)));
        plot.series.push_back(std::move(s));
        return plot;
    }
    plot.x = CollectivePlotX::Size;
    plot.title = counts.size() == 1
                     ? fmt::format("{} on {} NPUs, {}, backend {}", kind, *counts.begin(), system_label, backend)
                     : fmt::format("{} on {}, backend {}", kind, system_label, backend);
    for (std::int64_t n : counts) {
        CollectivePlotSeries s;
        if (counts.size() > 1) s.name = fmt::format("{} NPUs", n);
        for (const CollectiveRow& r : rows)
            if (r.npus == n) s.points.push_back(point(r, static_cast<double>(r.size_bytes)));
        plot.series.push_back(std::move(s));
    }
    return plot;
}

std::string collective_plot_svg(const CollectivePlot& plot) {
    constexpr double kWidth = 760, kPanel = 360;
    ChartAxis x;
    x.log = true;
    x.ticks = TickStyle::PowersOfTwo;
    if (plot.x == CollectivePlotX::Size) {
        x.label = "size (bytes, as nccl-tests counts them)";
        x.format = TickFormat::Bytes;
    } else {
        x.label = "GPUs";
    }
    XyChart time, busbw;
    time.title = plot.title + ": time";
    time.x = x;
    time.y = {"time", true, false, TickStyle::Decimal, TickFormat::Microseconds};
    busbw.title = "bus bandwidth (nccl-tests' busbw)";
    busbw.x = x;
    busbw.y = {"busbw (GB/s)", false, true, TickStyle::Decimal, TickFormat::Number};
    for (std::size_t i = 0; i < plot.series.size(); ++i) {
        Series t{plot.series[i].name, chart_color(i), {}, true, false, chart_marker(i), false};
        Series b = t;
        for (const CollectivePlotPoint& p : plot.series[i].points) {
            t.points.emplace_back(p.x, p.time_us);
            b.points.emplace_back(p.x, p.busbw_gbps);
        }
        time.series.push_back(std::move(t));
        busbw.series.push_back(std::move(b));
    }
    const double legend = plot.series.size() > 1 ? 18.0 * (1 + plot.series.size() / 6) : 0;
    std::string body = render_xy_chart(time, {0, 0, kWidth, kPanel + legend});
    body += render_xy_chart(busbw, {0, kPanel + legend, kWidth, kPanel + legend});
    return svg_document(kWidth, 2 * (kPanel + legend), body);
}

}  // namespace dtcalc
