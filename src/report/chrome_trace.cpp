#include "report/chrome_trace.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <set>
#include <string>

#include "core/text_formats.h"

namespace dtcalc {
namespace {

// Track of an op: 0 compute, 1 memory, 2 + d communication on dimension d (a
// collective spanning several dimensions sits on its innermost one; it holds
// all of them, so nothing on any of its tracks overlaps it). Receives have no
// stream of their own; they sit on track 2 + 0 as instants.
int track_of(const WorkloadGraph& graph, const Op& op) {
    switch (op.kind) {
        case OpKind::Compute: return 0;
        case OpKind::Memory: return 1;
        case OpKind::Recv: return -1;
        case OpKind::Collective:
        case OpKind::Send: {
            const CommGroup& g = graph.groups[static_cast<std::size_t>(op.group)];
            for (std::size_t d = 0; d < g.members.size(); ++d)
                if (g.members[d] > 1) return 2 + static_cast<int>(d);
            return 2;
        }
    }
    return 0;
}

std::string track_name(int track) {
    if (track == 0) return "compute";
    if (track == 1) return "memory";
    return "comm dim " + std::to_string(track - 2);
}

}  // namespace

void write_chrome_trace(std::ostream& out, const WorkloadGraph& graph, const Schedule& schedule) {
    out << "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";
    bool first = true;
    auto sep = [&] {
        if (!first) out << ",\n";
        first = false;
    };
    std::set<std::pair<int, int>> tracks;
    for (std::size_t i = 0; i < graph.ops.size(); ++i) {
        const Op& op = graph.ops[i];
        const OpTiming& t = schedule.ops[i];
        const int track = track_of(graph, op);
        const std::string name = json_string(graph.op_label(static_cast<int>(i)));
        sep();
        if (track < 0) {
            fmt::print(out, "{{\"name\": {}, \"cat\": \"recv\", \"ph\": \"i\", \"s\": \"t\", \"ts\": {:.3f}, \"pid\": {}, \"tid\": 2}}",
                       name, t.end_ns * 1e-3, op.role);
            tracks.insert({op.role, 2});
            continue;
        }
        tracks.insert({op.role, track});
        fmt::print(out,
                   "{{\"name\": {}, \"cat\": \"{}\", \"ph\": \"X\", \"ts\": {:.3f}, \"dur\": {:.3f}, \"pid\": {}, "
                   "\"tid\": {}, \"args\": {{\"op\": {}, \"phase\": \"{}\", \"start_ns\": {:.3f}, \"end_ns\": {:.3f}}}}}",
                   name, op_kind_name(op.kind), t.start_ns * 1e-3, (t.end_ns - t.start_ns) * 1e-3, op.role, track, i,
                   op_phase_name(op.phase), t.start_ns, t.end_ns);
    }
    for (int role = 0; role < graph.roles; ++role) {
        sep();
        fmt::print(out, "{{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": {}, \"args\": {{\"name\": \"role {} ({} NPUs)\"}}}}",
                   role, role, role < static_cast<int>(graph.role_npus.size()) ? graph.role_npus[static_cast<std::size_t>(role)] : 1);
    }
    for (const auto& [role, track] : tracks) {
        sep();
        fmt::print(out, "{{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": {}, \"tid\": {}, \"args\": {{\"name\": \"{}\"}}}}",
                   role, track, track_name(track));
    }
    out << "\n]}\n";
}

}  // namespace dtcalc
