#include "report/link_table.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cctype>
#include <string>

namespace dtcalc {
namespace {

std::string algorithm_label(const AlgorithmChoice& choice) {
    std::string name(algorithm_name(choice.kind));
    if (!choice.flat) return name;
    name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    return "one" + name;
}

}  // namespace

void write_link_table(std::ostream& out, const std::vector<PhaseLinks>& phases, TimeUnit unit,
                      std::uint64_t size_bytes) {
    const std::string u(time_unit_name(unit));
    fmt::print(out, "\nbusiest links of each phase at {} (the phase's costliest step; times in {}):\n",
               format_byte_size(size_bytes), u);
    for (const PhaseLinks& p : phases) {
        const std::string what = p.kind == CollectiveKind::SendRecv
                                     ? std::string("send-recv")
                                     : std::string(collective_kind_name(p.kind)) + " " + algorithm_label(p.algorithm);
        if (!p.on_grid) {
            fmt::print(out, "phase {}: {} on dimension {}: every message has a link of its own\n", p.phase, what,
                       p.dimension);
            continue;
        }
        fmt::print(out, "phase {}: {} on dimension {} ({}): {} step{} of {} B, {} messages each\n", p.phase, what,
                   p.dimension, p.where, p.steps, p.steps == 1 ? "" : "s", p.message_bytes, p.messages);
        fmt::print(out, "  busiest link {} message{}, longest route {} hop{}, step {}\n", p.summary.max_messages(),
                   p.summary.max_messages() == 1 ? "" : "s", p.summary.longest_route_total_hops(),
                   p.summary.longest_route_total_hops() == 1 ? "" : "s", format_time(unit, p.step_ns));
        fmt::print(out, "  {:>10} {:>10} {:>4} {:>5} {:>9} {:>12}\n", "from", "to", "dim", "axis", "messages",
                   "busy (" + u + ")");
        for (const ReportedLink& l : p.busiest)
            fmt::print(out, "  {:>10} {:>10} {:>4} {:>5} {:>9} {:>12}\n", l.from, l.to, l.dimension,
                       std::string(1, l.axis) + (l.direction > 0 ? "+" : "-"), l.messages, format_time(unit, l.busy_ns));
    }
}

}  // namespace dtcalc
