#pragma once
// NcclParameters from a preset's [nccl] table (keys and units: the hgx-h100
// preset documents every one). Every key is required: a preset states all of
// its constants. Unknown keys, wrong types, negative values, fractions above 1
// and lists of the wrong length are errors naming the key.
//
//   [nccl]               nvls, nvls-efficiency, nvls-channels (or [one node, several]),
//                        nvls-chunk-overhead-us, alltoall-nvlink-efficiency, network-p2p-efficiency,
//                        network-alltoall-efficiency, ring-network-channel-bandwidth,
//                        ring-network-slice-overhead-us, ring-plateau-factor
//                        (nvls-loop-overhead-us, the former cost per loop, is an error
//                        naming its replacement)
//   [nccl.hardware]      sm, nvlinks-per-gpu, nvlink-bandwidth-per-link, nvswitch,
//                        nics-per-node, gpus-per-nic, pcie-gen, pcie-lanes,
//                        cpu-vendor ("intel" | "amd" | "arm"), and nics-per-gpu
//                        (the one optional key: 1 when left out)
//   [nccl.protocol]      ll128, ll-bandwidth-factor, ll128-bandwidth-factor,
//                        ll-max-bus-bandwidth [3], ll128-max-bandwidth-per-channel (or [3]),
//                        step-bytes [LL, LL128, Simple]
//                        (nvls-pipeline-bytes, the former NVLS fill, is an error naming
//                        its replacement)
//   [nccl.tree]          bandwidth-factor, ll-bandwidth-factor,
//                        ll128-bandwidth-factor [3], max-bandwidth-per-channel [3],
//                        ll128-max-bandwidth-per-channel [3],
//                        nvls-tree-max-bandwidth-per-channel [3], correction [3][24]
//   [nccl.pat]           bandwidth-factor, per-rank-latency-us, network-latency-divisor
//   [nccl.p2p]           latency-us, nvlink-chunk-bytes, network-chunk-bytes,
//                        network-channel-bandwidth, network-chunk-overhead-us,
//                        network-connection-start-us,
//                        copy-bandwidth-per-channel, per-channel-net-bandwidth
//   [nccl.latency-us.base|nvlink|network]  ring, tree, nvls, nvls-tree, pat:
//                        [LL, LL128, Simple] each
// ([3] lists are by node count: one node, two nodes, more.)
#include "collective/nccl/nccl_parameters.h"
#include "config/config_value.h"

namespace dtcalc {

NcclParameters nccl_parameters_from(const ConfigValue& table);

}  // namespace dtcalc
