#include "collective/nccl/nccl_parameters.h"

#include <string>

#include "core/name_key.h"

namespace dtcalc {

std::optional<NcclAlgorithm> parse_nccl_algorithm(std::string_view name) {
    const std::string key = name_key(name);
    if (key == "ring") return NcclAlgorithm::Ring;
    if (key == "tree") return NcclAlgorithm::Tree;
    if (key == "nvls") return NcclAlgorithm::Nvls;
    if (key == "nvlstree") return NcclAlgorithm::NvlsTree;
    if (key == "pat") return NcclAlgorithm::Pat;
    return std::nullopt;
}

std::string_view nccl_algorithm_name(NcclAlgorithm algorithm) {
    switch (algorithm) {
        case NcclAlgorithm::Ring: return "ring";
        case NcclAlgorithm::Tree: return "tree";
        case NcclAlgorithm::Nvls: return "nvls";
        case NcclAlgorithm::NvlsTree: return "nvls-tree";
        case NcclAlgorithm::Pat: return "pat";
        case NcclAlgorithm::P2p: return "p2p";
    }
    return "?";
}

std::optional<NcclProtocol> parse_nccl_protocol(std::string_view name) {
    const std::string key = name_key(name);
    if (key == "ll") return NcclProtocol::LL;
    if (key == "ll128") return NcclProtocol::LL128;
    if (key == "simple") return NcclProtocol::Simple;
    return std::nullopt;
}

std::string_view nccl_protocol_name(NcclProtocol protocol) {
    switch (protocol) {
        case NcclProtocol::LL: return "LL";
        case NcclProtocol::LL128: return "LL128";
        case NcclProtocol::Simple: return "Simple";
    }
    return "?";
}

std::string_view nccl_choice_name(NcclAlgorithm algorithm, NcclProtocol protocol) {
    static constexpr std::string_view names[6][3] = {
        {"ring/LL", "ring/LL128", "ring/Simple"},
        {"tree/LL", "tree/LL128", "tree/Simple"},
        {"nvls/LL", "nvls/LL128", "nvls/Simple"},
        {"nvls-tree/LL", "nvls-tree/LL128", "nvls-tree/Simple"},
        {"pat/LL", "pat/LL128", "pat/Simple"},
        {"p2p/LL", "p2p/LL128", "p2p/Simple"},
    };
    return names[static_cast<int>(algorithm)][static_cast<int>(protocol)];
}

double NcclHardware::pcie_gbps() const {
    // NCCL (topo.cc, kvDictPciGen): per-lane rate in units of 100 Mb/s, GB/s = lanes x rate / 80.
    const int per_lane = pcie_gen <= 1 ? 15 : pcie_gen == 2 ? 30 : pcie_gen == 3 ? 60 : pcie_gen == 4 ? 120
                       : pcie_gen == 5 ? 240 : 480;
    return static_cast<double>(pcie_lanes) * per_lane / 80.0;
}

double NcclHardware::pcie_payload_gbps() const {
    // PCI Express Base Specifications: 2.5, 5, 8, 16, 32, 64 GT/s per lane and
    // direction for Gen1-6. Line coding 8b/10b (Gen1-2), 128b/130b (Gen3-5);
    // Gen6 sends 256 B FLITs of which 236 B carry TLPs. A memory write TLP of
    // 256 B (the usual maximum payload) carries a 16 B header (64-bit address),
    // and up to Gen5 also a 2 B sequence number, a 4 B LCRC and 2 B of framing:
    // 256 / 280 = 0.914 (Gen6: 256 / 272 = 0.941). Flow-control and ACK DLLPs
    // take a little more, so this is the link's upper bound.
    const double gt_per_s = pcie_gen <= 1 ? 2.5 : pcie_gen == 2 ? 5.0 : pcie_gen == 3 ? 8.0 : pcie_gen == 4 ? 16.0
                          : pcie_gen == 5 ? 32.0 : 64.0;
    const double coding = pcie_gen <= 2 ? 0.8 : pcie_gen <= 5 ? 128.0 / 130.0 : 236.0 / 256.0;
    const double tlp = pcie_gen <= 5 ? 256.0 / 280.0 : 256.0 / 272.0;
    return static_cast<double>(pcie_lanes) * gt_per_s / 8.0 * coding * tlp;
}

}  // namespace dtcalc
