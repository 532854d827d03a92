#pragma once
// The lines of NCCL's own NCCL_DEBUG=INFO output that an nccl-tests log may
// hold between its tables, and what dtcalc reads from them:
//
//   host:pid:tid [0] NCCL INFO NCCL_ALGO set by environment to Ring
//       (src/graph/tuning.cc, ncclTopoTuneModel; every rank; also NCCL_PROTO)
//   host:pid:tid [0] NCCL INFO NCCL_NVLS_ENABLE set by environment to 0.
//       (src/misc/param.cc, every integer parameter: its value ends in a
//        period; dtcalc models the settings nccl_force.h lists
//        (nccl_modelled_settings) and names the others beside the rows' errors)
//   host:pid:tid [0] NCCL INFO AllReduce: 1048576 Bytes -> Algo TREE proto LL128 channel{Lo..Hi}={0..15}
//       (src/enqueue.cc; rank 0, once per call, with NCCL_DEBUG_SUBSYS=TUNING;
//        the bytes are count x type size: a rank's share for AllGather and
//        ReduceScatter)
//
// Any other line is neither (nullopt).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dtcalc {

struct NcclEnvLine {
    std::string variable;  ///< "NCCL_ALGO", "NCCL_PROTO", "NCCL_NVLS_ENABLE", any NCCL_ variable
    std::string value;     ///< as set, e.g. "ring,tree", "0" (nccl_force.h reads it)
};

std::optional<NcclEnvLine> nccl_env_line(std::string_view line);

/// Settings that change nothing a run's times depend on (logging, files, the
/// bootstrap sockets, IB retry timing): not worth a note.
bool nccl_setting_changes_nothing_timed(std::string_view variable);

struct NcclTuningLine {
    std::string function;     ///< NCCL's name: AllReduce, AllGather, ReduceScatter, ...
    std::uint64_t bytes = 0;  ///< count x type size
    std::string choice;       ///< in dtcalc's names: "tree/LL128", "collnet-direct/Simple"
    int channels = 0;         ///< Hi - Lo + 1
};

std::optional<NcclTuningLine> nccl_tuning_line(std::string_view line);

}  // namespace dtcalc
