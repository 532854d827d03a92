#pragma once
// The JSON file nccl-tests writes with -J (--output_file FILE.json, nccl-tests
// 2.18.5 on; NVIDIA/nccl-tests src/util.cu, jsonOutputInit, writeDeviceReport,
// writeBenchmarkLine*, writeResultFooter, writeErrors), one run per file:
//
//   {"version": 3, "args": ["./build/all_reduce_perf", "-b", "32M", ...],
//    "env": ["NCCL_ALGO=Ring", ...], "nccl_version": 22902,
//    "config": {"nthreads": 1, "ngpus": 1, "iterations": 20, "graph": 0, ...,
//               "devices": [{"rank": 0, "hostname": "cnode3-002", ...}, ...]},
//    "results": [{"size": 33554432, "count": 4194304, "type": "double",
//                 "redop": "sum", "root": "    -1",
//                 "out_of_place": {"time": 182.87, "alg_bw": ..., ...},
//                 "in_place": {...}, ...}, ...],
//    "errors": [...], ...}
//
// Read as the text output is (nccl_tests_run.h): the program from args[0];
// the hosts from config.devices, where each entry is one process, which drove
// nthreads x ngpus GPUs (nccl-tests keeps each process's first rank line);
// the NCCL settings dtcalc models from env; each result's size and out-of-place time
// ("time", or "cpu_time" with -C); nccl-tests' timed operations from
// iterations x graph launches. nccl-tests closes the file when the run ends;
// a run stopped part way leaves it cut short, which is an error at the line
// where the JSON stops ("errors", NCCL's last error string, is written by
// every run, failed or not, and is not read). Keys dtcalc does not read are
// left alone (the format grows with nccl-tests); a key it reads with the
// wrong type, or a result without its size or time, is an error naming the
// key ("results[3].out_of_place.time").
#include <string>

#include "validate/nccl_tests_log.h"

namespace dtcalc {

/// True when `text` is a JSON object (its first non-blank character is '{').
bool looks_like_json(const std::string& text);

/// The run in `text` (nccl-tests' JSON); `path` names the file in rows and errors.
NcclTestsLog parse_nccl_tests_json(const std::string& text, const std::string& path, const NcclLogShape& shape = {});

}  // namespace dtcalc
