#pragma once
// A preset's [calibration] table: the constants `dtcalc calibrate` may fit to
// a cluster's own measurements, each with the physical range it may take.
//
//   [calibration]
//   "nccl.network-p2p-efficiency" = [0.75, 1.0]   # dotted key of a number in this preset: [low, high]
//
// Every key names a number (integer or float, not a list entry) elsewhere in
// the same preset; 0 < low < high, and the preset's own value lies within
// [low, high]. Anything else is an error naming the key and its line.
#include <string>
#include <string_view>
#include <vector>

#include "config/config_value.h"
#include "core/error.h"

namespace dtcalc {

struct CalibratedConstant {
    std::string key;       ///< dotted path, e.g. "nccl.p2p.network-channel-bandwidth"
    double low = 0;        ///< physical bounds the fit stays within
    double high = 0;
    double value = 0;      ///< the preset's value
    bool integer = false;  ///< written as a whole number (the preset states it as an integer)
    InputLocation bounds_where;  ///< the entry in [calibration]
    InputLocation value_where;   ///< the value itself (its line is rewritten by calibrate)
};

/// The number at dotted `key` below `root` (tables only), or nullptr.
const ConfigValue* find_config_path(const ConfigValue& root, std::string_view key);
ConfigValue* find_config_path(ConfigValue& root, std::string_view key);

/// Reads [calibration] (`table`) against the whole preset (`root`).
std::vector<CalibratedConstant> calibration_from(const ConfigValue& table, const ConfigValue& root);

}  // namespace dtcalc
