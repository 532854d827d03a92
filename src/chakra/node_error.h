#pragma once
// The error every trace check raises about one node: an InputError located at
// the trace file and "node <id>" (exit code 2). Shared by the decoder, its
// attribute readers and checks, and the trace-graph builder.
#include <cstdint>
#include <string>

#include "chakra/trace_decoder.h"
#include "core/error.h"

namespace dtcalc::chakra {

/// Throws InputError({file, 0, 0, "node <id>"}, message).
[[noreturn]] inline void fail_node(const std::string& file, std::uint64_t id, const std::string& message) {
    throw InputError({file, 0, 0, "node " + std::to_string(id)}, message);
}

/// The same, for a decoded node.
[[noreturn]] inline void fail_node(const std::string& file, const TraceNode& node, const std::string& message) {
    fail_node(file, node.id, message);
}

}  // namespace dtcalc::chakra
