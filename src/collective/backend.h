#pragma once
// Which network model prices a collective.
#include <optional>
#include <string_view>

namespace dtcalc {

enum class NetworkBackend {
    AstraUnaware,  ///< ASTRA-sim 2.0 congestion-unaware analytical backend (stateless links)
    AstraAware,    ///< ASTRA-sim 2.0 congestion-aware analytical backend (store-and-forward links)
    Nccl,          ///< NCCL on real hardware: its algorithm/protocol choice, calibrated constants (collective/nccl/)
};

std::optional<NetworkBackend> parse_network_backend(std::string_view name);  ///< "astra-unaware", "astra-aware", "nccl"
std::string_view network_backend_name(NetworkBackend backend);

}  // namespace dtcalc
