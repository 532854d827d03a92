#pragma once
// Random combinations of every plan option, read from bytes: the option-space
// fuzz target (plan_options_fuzz.cpp) and the property test of the normal suite
// (tests/plan_options_property_test.cpp) draw them the same way.
//
// Each option of the schema that sets the plan (predict/option_schema.h) is
// left out or given a value from a palette of its type: sensible values,
// values that break a plan rule, and values no reader accepts. The same
// settings then go to every front end; what each must answer is checked by
// check_plan_settings().
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "capi/embedded_calls.h"
#include "config/config_readers.h"
#include "core/error.h"
#include "predict/option_schema.h"
#include "predict/predict.h"
#include "predict/predict_options.h"
#include "sweep/step_replay.h"

namespace dtcalc::fuzz {

/// The input's bytes as a stream of choices; past the end every choice is 0.
struct ChoiceReader {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0, at = 0;
    unsigned next(unsigned n) { return at < size ? data[at++] % n : 0; }
};

struct PlanSettings {
    std::vector<std::pair<std::string, std::string>> keys;  ///< option name, TOML value text

    std::string toml() const {
        std::string out;
        for (const auto& [name, value] : keys) out += name + " = " + value + "\n";
        return out;
    }
    /// `predict`'s flags for the same settings (a boolean is its flag, or left out).
    std::vector<std::string> predict_flags() const {
        std::vector<std::string> out;
        for (const auto& [name, value] : keys) {
            if (value == "false") continue;
            out.push_back(option_flag(name));
            if (value == "true") continue;
            out.push_back(value.front() == '"' ? value.substr(1, value.size() - 2) : value);
        }
        return out;
    }
};

inline PlanSettings draw_plan_settings(ChoiceReader& in) {
    static const char* const models[] = {"llama2-7b", "gpt3-175b", "mixtral-8x7b", "llama3-8b", "gpt2", "resnet50"};
    static const char* const presets[] = {"hgx-h100", "lab-system1", "dgx-a100", "lab-system2"};
    static const char* const integers[] = {"1", "2", "4", "8", "1", "2", "3", "16", "0", "64", "6", "-1"};
    static const char* const numbers[] = {"1", "0.5", "2", "0", "-1", "1e9"};
    static const char* const words[] = {"bf16",   "fp8",         "flash", "unfused", "gpipe",          "1f1b",
                                        "interleaved", "none",    "selective", "full", "tp,cp,ep,dp,pp", "pp,dp,ep,cp,tp",
                                        "80GiB",  "1GiB",        "80",    "x",       "",
                                        "even",   "embedding-and-loss", "loss"};
    PlanSettings s;
    s.keys.emplace_back("model", std::string("\"") + models[in.next(6)] + "\"");
    s.keys.emplace_back("preset", std::string("\"") + presets[in.next(4)] + "\"");
    for (const OptionDecl& d : option_schema()) {
        if (d.target != OptionTarget::Option || d.base) continue;
        if (in.next(3) != 0) continue;  // mostly the default
        const bool plausible = in.next(4) != 0;  // mostly a value its reader takes; now and then anything
        std::string value;
        switch (d.type) {
            case OptionType::Integer: value = integers[in.next(plausible ? 4 : 12)]; break;
            case OptionType::Number: value = numbers[in.next(plausible ? 3 : 6)]; break;
            case OptionType::Boolean: value = in.next(2) ? "true" : "false"; break;
            case OptionType::Text: {
                std::vector<const char*> taken;
                for (const char* w : words)
                    if (!plausible || (d.accepts && d.accepts(w))) taken.push_back(w);
                if (taken.empty()) continue;
                value = std::string("\"") + taken[in.next(static_cast<unsigned>(taken.size()))] + "\"";
                break;
            }
        }
        s.keys.emplace_back(std::string(d.name), value);
    }
    return s;
}

/// What every answer must be: a result or one clear error, and predict(),
/// the sweep's timer and the sweep itself agreeing on every valid plan.
/// Returns a description of what is wrong ("" when all is well).
inline std::string check_plan_settings(const PlanSettings& settings, const std::vector<std::string>& preset_dirs,
                                       const std::vector<std::string>& model_dirs) {
    std::string paths = "preset_path = \"";
    for (const std::string& d : preset_dirs) paths += d;
    paths += "\"\nmodel_path = \"";
    for (const std::string& d : model_dirs) paths += d;
    paths += "\"\nthreads = 1\n";
    const std::string toml = settings.toml();

    // The library: predict() and the sweep's timer.
    std::string library_error;
    PredictResult full, timed;
    try {
        PredictOptions options;
        apply_scenario(parse_toml_text(toml, "settings"), options);
        const PredictInputs in = resolve_prediction(options, preset_dirs, model_dirs).inputs;
        full = predict(in);
        ReplayScratch scratch;
        scratch.comm_by_group = true;
        timed = predict_without_schedule(in, scratch);
        // The library answers a plan that breaks a rule with its problems; the front ends refuse it.
        if (timed.plan_problems != full.plan_problems) return "the sweep's timer and predict() see other plan problems";
        if (!full.plan_problems.empty()) library_error = "plan: " + full.plan_problems.front();
    } catch (const InputError& e) {
        library_error = e.what();
    }
    if (library_error.empty()) {
        for (double v : {full.iteration_ns, full.compute_ns, full.comm_ns, full.exposed_comm_ns, full.bubble_ns})
            if (!std::isfinite(v) || v < 0) return "predict() gave a time that is negative or not finite";
        if (!(full.iteration_ns > 0)) return "predict() gave a zero iteration time";
        if (full.exposed_comm_ns > full.comm_ns) return "exposed communication above communication";
        if (timed.iteration_ns != full.iteration_ns || timed.comm_ns != full.comm_ns ||
            timed.exposed_comm_ns != full.exposed_comm_ns || timed.bubble_ns != full.bubble_ns ||
            timed.idle_ns != full.idle_ns || timed.feasible != full.feasible)
            return "the sweep's timer and predict() disagree";
        for (std::size_t k = 0; k < full.comm_by_class.size(); ++k)
            if (timed.comm_by_class[k].comm_ns != full.comm_by_class[k].comm_ns ||
                timed.comm_by_class[k].exposed_ns != full.comm_by_class[k].exposed_ns)
                return "the sweep's timer and predict() disagree on communication by group";
        if (!full.feasible && full.infeasible_reasons.empty()) return "infeasible without a reason";
    }

    // What the C ABI and the Python module call: predict and a one-point sweep.
    std::string predict_error, sweep_error, predict_text, sweep_text;
    try {
        predict_text = predict_json(parse_toml_text(paths + toml, "settings"), "");
    } catch (const InputError& e) {
        predict_error = e.what();
    }
    try {
        sweep_text = sweep_json(parse_toml_text(paths + toml, "settings"), "");
    } catch (const InputError& e) {
        sweep_error = e.what();
    }
    if (predict_error.empty() != library_error.empty()) return "the embedded predict and the library disagree on refusing";
    if (!predict_error.empty()) {
        // A plan that breaks a rule is refused by predict and is a row that cannot run in a sweep;
        // a value no reader takes is refused by both.
        const bool plan_rule = predict_error.find("plan: ") != std::string::npos;
        if (plan_rule && !sweep_error.empty()) return "a plan predict refuses made the sweep fail: " + sweep_error;
        if (plan_rule) {
            const nlohmann::json rows = nlohmann::json::parse(sweep_text);
            if (rows.size() != 1) return "a one-point sweep gave other than one row";
            const nlohmann::json& row = rows[0];
            if (row.value("feasible", true) || (row["plan_problems"].empty() && !row.contains("error")))
                return "a plan predict refuses is a sweep row without its reason";
        }
        return "";
    }
    if (!sweep_error.empty()) return "a plan predict answers made the sweep fail: " + sweep_error;
    const nlohmann::json answer = nlohmann::json::parse(predict_text);
    const nlohmann::json rows = nlohmann::json::parse(sweep_text);
    if (rows.size() != 1) return "a one-point sweep gave other than one row";
    if (rows[0]["iteration_time_us"] != answer["iteration_time_us"] || rows[0]["feasible"] != answer["feasible"])
        return "predict and the sweep disagree";
    return "";
}

}  // namespace dtcalc::fuzz
