#pragma once
// The physically usual range of a network dimension's per-link bandwidth and
// per-hop latency, by topology, and the dimensions of a network outside it.
// Values outside are legal (a what-if study may want them) but are more often
// a unit slip (Gb/s for GB/s, us for ns), so front ends warn about them.
//
//   direct links (Ring, FullyConnected, meshes and tori: NVLink, Infinity
//   Fabric, TPU ICI)      1 to 1,000 GB/s per direction, 10 ns to 10 us per hop
//   Switch (NVSwitch, InfiniBand, Ethernet)
//                         1 to 1,000 GB/s per direction, 50 ns to 10 us per hop
//
// Bandwidth: the fastest per-GPU fabric shipping, B200's fifth-generation
// NVLink, moves 900 GB/s per direction (NVIDIA HGX B200 datasheet: 1.8 TB/s
// both ways); the slowest in use for training, 10 Gb/s Ethernet, 1.25 GB/s.
// Latency: a SerDes link hop with its endpoints takes tens of ns at least
// (NVLink, ICI); a switch port-to-port crossing 100-600 ns (NVIDIA Quantum-2
// InfiniBand and Spectrum Ethernet switch datasheets) and the NICs about 1 us;
// a hop beyond 10 us is a WAN. ASTRA-sim's own examples use 20-936 ns.
#include <string>
#include <vector>

#include "network/network.h"

namespace dtcalc {

struct LinkRange {
    double min_gbps = 0, max_gbps = 0;
    double min_latency_ns = 0, max_latency_ns = 0;
};

LinkRange plausible_link_range(Topology topology);

/// One line per value outside its range: "dimension 0 (Ring): latency 1 ns per
/// hop is outside the usual 10 ns to 10 us for a direct link".
std::vector<std::string> implausible_links(const Network& network);

}  // namespace dtcalc
