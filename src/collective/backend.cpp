#include "collective/backend.h"

namespace dtcalc {

std::optional<NetworkBackend> parse_network_backend(std::string_view name) {
    if (name == "astra-unaware" || name == "unaware") return NetworkBackend::AstraUnaware;
    if (name == "astra-aware" || name == "aware") return NetworkBackend::AstraAware;
    if (name == "nccl") return NetworkBackend::Nccl;
    return std::nullopt;
}

std::string_view network_backend_name(NetworkBackend backend) {
    switch (backend) {
        case NetworkBackend::AstraUnaware: return "astra-unaware";
        case NetworkBackend::AstraAware: return "astra-aware";
        case NetworkBackend::Nccl: return "nccl";
    }
    return "?";
}

}  // namespace dtcalc
