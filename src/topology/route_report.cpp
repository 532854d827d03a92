#include "topology/route_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <nlohmann/json.hpp>
#include <string>

namespace dtcalc {
namespace {

std::string coordinates_text(const Network& network, std::int64_t npu) {
    std::string out = "(";
    const std::vector<int> c = network.coordinates(npu);
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (i) out += ',';
        out += std::to_string(c[i]);
    }
    return out + ")";
}

// "x+" along a grid axis, "+"/"-" round a ring, "switch", "direct".
std::string step_text(const RouteLeg& leg) {
    if (leg.axis >= 0) return std::string(1, static_cast<char>('x' + leg.axis)) + (leg.direction > 0 ? "+" : "-");
    if (leg.direction != 0) return leg.direction > 0 ? "+" : "-";
    return leg.topology == Topology::Switch ? "switch" : "direct";
}

std::string number(double v) { return fmt::format("{:.12g}", v); }

}  // namespace

void write_route_table(std::ostream& out, const Network& network, const NetworkRoute& route) {
    fmt::print(out, "# route {} -> {}: {} hop{}, {} ns of latency (dimension-order routing)\n", route.src, route.dst,
               route.hops(), route.hops() == 1 ? "" : "s", number(route.latency_ns()));
    std::string path;
    for (std::int64_t npu : route.npus()) path += (path.empty() ? "" : " -> ") + std::to_string(npu);
    fmt::print(out, "{}\n", path);
    if (route.legs.empty()) return;
    fmt::print(out, "{:>4} {:>8} {:>8} {:>4} {:<15} {:<7} {:>5} {:>13}  {}\n", "hop", "from", "to", "dim", "topology",
               "step", "hops", "latency (ns)", "coordinates");
    int n = 0;
    for (const RouteLeg& leg : route.legs)
        fmt::print(out, "{:>4} {:>8} {:>8} {:>4} {:<15} {:<7} {:>5} {:>13}  {} -> {}\n", ++n, leg.from, leg.to,
                   leg.dimension, topology_name(leg.topology), step_text(leg), leg.hops, number(leg.latency_ns),
                   coordinates_text(network, leg.from), coordinates_text(network, leg.to));
}

void write_route_json(std::ostream& out, const NetworkRoute& route) {
    nlohmann::json legs = nlohmann::json::array();
    for (const RouteLeg& leg : route.legs)
        legs.push_back({{"from", leg.from},
                        {"to", leg.to},
                        {"dimension", leg.dimension},
                        {"topology", std::string(topology_name(leg.topology))},
                        {"step", step_text(leg)},
                        {"hops", leg.hops},
                        {"latency_ns", leg.latency_ns}});
    nlohmann::json doc;
    doc["src"] = route.src;
    doc["dst"] = route.dst;
    doc["hops"] = route.hops();
    doc["latency_ns"] = route.latency_ns();
    doc["npus"] = route.npus();
    doc["legs"] = legs;
    out << doc.dump(2) << "\n";
}

}  // namespace dtcalc
