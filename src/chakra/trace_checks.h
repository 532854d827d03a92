#pragma once
// Structural checks of one decoded Chakra trace, independent of the other
// NPUs' traces: each node has the attributes its type needs, node ids are
// unique, and every dependency names a node of the same file. Failures are
// InputErrors at the file and node ("node <id>").
#include <string>

#include "chakra/trace_decoder.h"

namespace dtcalc::chakra {

/// A communication node is not a CPU op and has comm_size (but a broadcast,
/// which replays its duration); a collective has comm_type; a send has
/// comm_dst; a receive has comm_src.
void check_required_attributes(const std::string& file, const TraceNode& node);

/// Node ids are unique; no node depends on itself or on an id that is not in
/// the file. Reports the smallest duplicated id, else the first bad
/// dependency in file order.
void check_dependencies(const RankTrace& trace);

}  // namespace dtcalc::chakra
