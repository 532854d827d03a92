#pragma once
// An ASTRA-sim system JSON that loads as it is, for tests that read it or
// break one of its keys. Line numbers matter: the JSON reader locates a key by
// its line (scheduling-policy is on line 2, boost-mode on line 12).
namespace dtcalc::testing {

inline constexpr const char* kAstraSystemJson = R"({
  "scheduling-policy": "LIFO",
  "endpoint-delay": 10,
  "active-chunks-per-dimension": 2,
  "preferred-dataset-splits": 4,
  "all-reduce-implementation": ["ring", "direct"],
  "all-gather-implementation": ["ring", "direct"],
  "reduce-scatter-implementation": ["ring", "direct"],
  "all-to-all-implementation": ["ring", "direct"],
  "collective-optimization": "localBWAware",
  "local-mem-bw": 3350,
  "boost-mode": 0
})";

}  // namespace dtcalc::testing
