#pragma once
// All NPUs' traces of one workload, `PREFIX.<rank>.et` for rank 0..NPUs-1,
// held once per distinct structure.
//
// NPUs whose nodes have the same signatures in the same order (see
// trace_decoder.h: everything but names and peers) share one "shape": its
// decoded RankTrace is kept once (from the lowest such rank); every rank keeps
// only its peer fields. A 64-NPU STAGE trace of a few pipeline stages is then
// a few shapes, not 64 copies.
//
// Files are read on a few threads; which rank's file is decoded first does
// not change the result (the kept copy is always the lowest rank's, and of
// several bad files the lowest rank's error is reported).
#include <cstdint>
#include <string>
#include <vector>

#include "chakra/trace_decoder.h"

namespace dtcalc::chakra {

/// What differs between NPUs of one shape: per Send, Recv and Collective node
/// of the shape, in node order.
struct PeerFields {
    std::int64_t src = -1;  ///< comm_src as written, -1 when absent (the NPU itself)
    std::int64_t dst = -1;  ///< comm_dst as written, -1 when absent
    std::int32_t pg = -1;   ///< index into TraceSet::pg_names, -1 when absent
};

struct TraceSet {
    std::string prefix;
    long long npus = 0;
    std::vector<RankTrace> shapes;
    std::vector<int> shape_of_rank;
    std::vector<std::vector<PeerFields>> peers;  ///< per rank
    std::vector<std::string> pg_names;
    std::uint64_t nodes = 0;  ///< over every rank's file
};

/// "PREFIX.<rank>.et".
std::string rank_file(const std::string& prefix, long long rank);

/// Reads PREFIX.0.et .. PREFIX.<npus-1>.et. A missing file is an InputError
/// naming it and saying how many the network needs; each file's errors are
/// decode_rank_trace's. `threads` <= 0 picks the machine's core count (at most 8).
TraceSet load_trace_set(const std::string& prefix, long long npus, const DecodeOptions& options, int threads = 0);

}  // namespace dtcalc::chakra
