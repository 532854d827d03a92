#include "network/plausible_links.h"

#include <fmt/format.h>

namespace dtcalc {
namespace {

std::string latency_text(double ns) {
    if (ns >= 1000) return fmt::format("{:g} us", ns / 1000);
    return fmt::format("{:g} ns", ns);
}

}  // namespace

LinkRange plausible_link_range(Topology topology) {
    if (topology == Topology::Switch) return {1.0, 1000.0, 50.0, 10000.0};
    return {1.0, 1000.0, 10.0, 10000.0};
}

std::vector<std::string> implausible_links(const Network& network) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < network.dimensions.size(); ++i) {
        const Dimension& d = network.dimensions[i];
        const LinkRange r = plausible_link_range(d.topology);
        const std::string what = d.topology == Topology::Switch ? "a switch" : "a direct link";
        const std::string dim = fmt::format("dimension {} ({})", i, topology_name(d.topology));
        if (d.bandwidth_gbps < r.min_gbps || d.bandwidth_gbps > r.max_gbps)
            out.push_back(fmt::format("{}: bandwidth {:g} GB/s per link is outside the usual {:g} to {:g} GB/s for {} "
                                      "(GB/s per direction, not Gb/s?)",
                                      dim, d.bandwidth_gbps, r.min_gbps, r.max_gbps, what));
        if (d.latency_ns < r.min_latency_ns || d.latency_ns > r.max_latency_ns)
            out.push_back(fmt::format("{}: latency {} per hop is outside the usual {} to {} for {} (ns per hop, not us?)",
                                      dim, latency_text(d.latency_ns), latency_text(r.min_latency_ns),
                                      latency_text(r.max_latency_ns), what));
    }
    return out;
}

}  // namespace dtcalc
