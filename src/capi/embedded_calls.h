#pragma once
// What the C ABI (dtcalc.h) and the Python module call: a configuration tree
// (from TOML or JSON text, or from keyword arguments) in, JSON or rows out.
// The keys are those of the command line with '_' for '-':
//   predict     a scenario, as `dtcalc predict --scenario` reads it (model,
//               preset, dp, tp, ..., memory_limit)
//   collective  kind, size (a size or a range LO:HI), npus or nodes and
//               gpus_per_node, preset or network + system, backend
//   sweep       a sweep spec (sweep/sweep_spec.h), plus the run settings
//               threads (default every core) and feasible_only
// All three also take preset_path and model_path: directories (':'-separated)
// searched before the usual ones. Errors are InputError, as everywhere.
#include <string>
#include <vector>

#include "config/config_value.h"
#include "sweep/sweep.h"

namespace dtcalc {

/// The TOML or JSON text as a tree: JSON when its first non-blank character
/// is '{'. `source` names it in error messages.
ConfigValue parse_config_text(const std::string& text, const std::string& source);

/// `dtcalc predict --format json`'s object.
std::string predict_json(const ConfigValue& config, const std::string& library_path);

/// `dtcalc collective --format json`'s output: one entry per size.
std::string collective_json(const ConfigValue& config, const std::string& library_path);

/// A JSON array of the sweep's rows (sweep_rows.h's JSON lines).
std::string sweep_json(const ConfigValue& spec, const std::string& library_path);

/// The sweep's rows as CSV text (header first), for callers that want flat
/// records. `spec_file`: a spec to start from (may be empty); `overrides`: a
/// table of parameters (a value, a list or a range each), and npus, rules,
/// objective, top, threads, feasible_only, over it.
std::string sweep_csv(const std::string& spec_file, const ConfigValue& overrides, const std::string& library_path);

/// Where presets and models are looked up for a caller whose code lives at
/// `library_path` (its share/dtcalc/... beside lib/), after the config's
/// preset_path / model_path, $DTCALC_PRESET_PATH / $DTCALC_MODEL_PATH.
std::vector<std::string> embedded_preset_dirs(const ConfigValue* config, const std::string& library_path);
std::vector<std::string> embedded_model_dirs(const ConfigValue* config, const std::string& library_path);

}  // namespace dtcalc
