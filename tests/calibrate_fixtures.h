#pragma once
// What the calibrate tests share: the shipped preset expanded (every table
// stated), the visible nccl-tests table, a fixed noise sequence, and lookups
// into a calibration result.
#include <doctest/doctest.h>

#include <string>

#include "calibrate/calibration.h"

namespace dtcalc::testing {

// The shipped preset with every table stated (the shipped file is composed of the
// hardware catalogue; tests/fixtures/expanded-presets holds it expanded).
inline const std::string kPreset =
    std::string(DTCALC_PRESETS_DIR) + "/../tests/fixtures/expanded-presets/h100-ib-ndr400.toml";
inline const std::string kCsv = std::string(DTCALC_VALIDATION_DIR) + "/nccl/h100_nccl_tests.csv";

// The k-th of a fixed sequence spread evenly over [-1, 1] (7919 is prime to 201).
inline double noise_step(int k) { return static_cast<double>((k * 7919) % 201 - 100) / 100.0; }

inline const ConstantFit& constant(const CalibrationResult& r, const std::string& key) {
    for (const ConstantFit& c : r.constants)
        if (c.key == key) return c;
    FAIL("no constant " << key);
    return r.constants.front();
}

inline const GroupFit& group(const CalibrationResult& r, const std::string& name) {
    for (const GroupFit& g : r.groups)
        if (g.group == name) return g;
    FAIL("no group " << name);
    return r.groups.front();
}

}  // namespace dtcalc::testing
