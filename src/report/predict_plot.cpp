#include "report/predict_plot.h"

#include <fmt/format.h>

#include <algorithm>

#include "memory/memory_model.h"

namespace dtcalc {
namespace {

constexpr double kWidth = 760;
constexpr double kGiB = 1073741824.0;

// The unit that keeps the iteration between 1 and 1000 of it.
std::pair<const char*, double> time_unit(double ns) {
    if (ns >= 1e9) return {"s", 1e9};
    if (ns >= 1e6) return {"ms", 1e6};
    return {"us", 1e3};
}

}  // namespace

BarChart predict_time_chart(const PredictResult& r) {
    const auto [unit, per] = time_unit(r.iteration_ns);
    BarChart chart;
    chart.title = fmt::format("Iteration: {:.3f} {} (slowest pipeline stage)", r.iteration_ns / per, unit);
    chart.unit = unit;
    chart.axis_label = fmt::format("time ({})", unit);
    chart.decimals = 3;
    BarRow row;
    row.label = "iteration";
    row.segments.push_back({"compute", r.compute_ns / per, chart_color(0)});
    double group_sum = 0;
    if (r.comm_by_class_known)
        for (const TrafficTime& t : r.comm_by_class) group_sum += t.exposed_ns;
    if (r.comm_by_class_known && group_sum > 0) {
        // Exposed times of groups in flight together overlap: share the total in proportion.
        const double share = group_sum > r.exposed_comm_ns * (1 + 1e-9) ? r.exposed_comm_ns / group_sum : 1.0;
        for (int k = 0; k < kTrafficClasses; ++k) {
            const double exposed = r.comm_by_class[static_cast<std::size_t>(k)].exposed_ns;
            if (exposed > 0)
                row.segments.push_back({fmt::format("{} exposed", traffic_class_key(static_cast<TrafficClass>(k))),
                                        exposed * share / per, chart_color(static_cast<std::size_t>(1 + k))});
        }
        if (r.exposed_comm_ns - group_sum > 1e-9 * r.iteration_ns)  // beyond rounding
            row.segments.push_back({"other exposed", (r.exposed_comm_ns - group_sum) / per, chart_color(8)});
        if (share < 1.0)
            chart.notes.push_back(fmt::format(
                "Groups in flight at the same time each count it: their exposed times add up to {:.3f} {}, the "
                "exposed total is {:.3f} {}; the bar and legend share the total in proportion (predict's table gives "
                "each group's own time).",
                group_sum / per, unit, r.exposed_comm_ns / per, unit));
    } else {
        row.segments.push_back({"exposed communication", r.exposed_comm_ns / per, chart_color(1)});
    }
    row.segments.push_back({"pipeline bubble", r.bubble_ns / per, chart_color(9)});
    chart.rows.push_back(std::move(row));
    chart.notes.push_back(fmt::format("Communication in flight {:.3f} {}, of which {:.3f} {} exposed (not hidden by compute).",
                                      r.comm_ns / per, unit, r.exposed_comm_ns / per, unit));
    return chart;
}

BarChart predict_memory_chart(const PredictInputs& in, const PredictResult& r) {
    BarChart chart;
    chart.unit = "GiB";
    chart.axis_label = "memory per GPU (GiB)";
    const int stages = in.model.kind == ModelKind::LayerList ? 1 : std::max(1, in.plan.pp);
    auto row = [&](const MemoryBreakdown& m, std::string label) {
        BarRow b;
        b.label = std::move(label);
        b.segments = {{"weights", m.weights / kGiB, chart_color(0)},
                      {"gradients", m.gradients / kGiB, chart_color(1)},
                      {"optimizer", m.optimizer / kGiB, chart_color(4)},
                      {"activations", m.activations / kGiB, chart_color(2)},
                      {"buffers", m.buffers / kGiB, chart_color(9)}};
        return b;
    };
    // The peak stage first: the legend gives its numbers.
    chart.rows.push_back(row(r.memory.breakdown, stages > 1 ? fmt::format("stage {} (peak)", r.memory.stage) : "per GPU"));
    if (stages > 1 && stages <= 16)
        for (int s = 0; s < stages; ++s)
            if (s != r.memory.stage) chart.rows.push_back(row(stage_memory(in.model, in.plan, s), fmt::format("stage {}", s)));
    const double peak = r.memory.breakdown.total() / kGiB;
    chart.title = fmt::format("Peak memory per GPU: {:.2f} GiB", peak);
    if (r.memory_limit_bytes > 0) {
        chart.limit = r.memory_limit_bytes / kGiB;
        chart.limit_label = fmt::format("limit {:.2f} GiB", *chart.limit);
        chart.title += fmt::format(" of {:.2f} GiB: {}", *chart.limit, r.feasible ? "fits" : "does NOT fit");
    } else {
        chart.title += " (no memory capacity known: not checked; --memory-limit sets one)";
    }
    return chart;
}

std::string predict_plot_svg(const PredictInputs& in, const PredictResult& r, const PredictLabels& labels) {
    const ParallelPlan& p = in.plan;
    std::string plan = fmt::format("dp {} tp {} pp {}", p.dp, p.tp, p.pp);
    if (p.cp > 1) plan += fmt::format(" cp {}", p.cp);
    if (p.ep > 1) plan += fmt::format(" ep {}", p.ep);
    if (p.vpp > 1) plan += fmt::format(" vpp {}", p.vpp);
    const std::string heading =
        fmt::format("{} on {} ({} NPUs, backend {}{}), {}", labels.model, labels.system, r.npus, labels.backend,
                    labels.framework.empty() ? "" : ", framework " + labels.framework, plan);
    std::vector<std::string> lines = wrap_text(heading, 15, kWidth - 16);
    const std::size_t bold = lines.size();
    for (const std::string& problem : r.plan_problems)
        for (std::string& l : wrap_text("cannot run: " + problem, 12, kWidth - 16)) lines.push_back(std::move(l));
    std::string body;
    for (std::size_t i = 0; i < lines.size(); ++i)
        body += fmt::format("<text x=\"8\" y=\"{}\"{}>{}</text>\n", 22 + 19 * i,
                            i < bold ? " font-size=\"15\" font-weight=\"bold\"" : "", svg_escape(lines[i]));
    double y = 12 + 19.0 * static_cast<double>(lines.size());
    if (!r.plan_problems.empty()) return svg_document(kWidth, y + 8, body);
    for (const BarChart& chart : {predict_time_chart(r), predict_memory_chart(in, r)}) {
        const double h = bar_chart_height(chart, kWidth);
        body += render_bar_chart(chart, {0, y, kWidth, h});
        y += h + 8;
    }
    return svg_document(kWidth, y, body);
}

}  // namespace dtcalc
