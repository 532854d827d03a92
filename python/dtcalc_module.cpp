// The `dtcalc` Python module: predictions, collectives and sweeps with
// keyword arguments named like the command line's flags ('_' for '-').
//
//   import dtcalc
//   dtcalc.predict(model="llama2-70b", preset="hgx-h100", tp=8)           -> dict
//   dtcalc.collective(kind="all-reduce", size="1MiB", preset="hgx-h100")   -> list of dicts
//     (algo="ring", proto="^LL128": NCCL_ALGO / NCCL_PROTO, as --algo / --proto;
//     min_nchannels=32, max_nchannels=8: NCCL_MIN/MAX_NCHANNELS;
//     env=["NCCL_MAX_CTAS=8"]: any NCCL setting dtcalc models, as --env;
//     datatype="bfloat16", op="avg": nccl-tests' -d / -o)
//   dtcalc.sweep(model="llama2-70b", preset="lab-system1", tp="1..64",
//                recompute=["none", "full"], npus=64)                      -> list of flat dicts
//
// A sweep's rows are flat (one key per CSV column), so
// pandas.DataFrame(dtcalc.sweep(...)) takes them as they are. Bad input
// raises dtcalc.InputError (a ValueError) with the message the command line
// prints, a plan that breaks a rule included; a plan that does not fit in
// memory is a result with feasible False, and in a sweep a point that breaks
// a rule is a row with its reason.
#include <dlfcn.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <charconv>
#include <string>

#include "capi/embedded_calls.h"
#include "core/error.h"
#include "core/csv_document.h"

namespace py = pybind11;

namespace {

using dtcalc::ConfigValue;

std::string module_path() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&module_path), &info) && info.dli_fname) return info.dli_fname;
    return "";
}

ConfigValue to_config(const py::handle& value, const std::string& call, const std::string& key) {
    ConfigValue out;
    out.where = {call, 0, 0, key};
    if (py::isinstance<py::bool_>(value)) {
        out.type = ConfigValue::Type::Bool;
        out.boolean = value.cast<bool>();
    } else if (py::isinstance<py::int_>(value)) {
        out.type = ConfigValue::Type::Integer;
        out.number = value.cast<double>();
    } else if (py::isinstance<py::float_>(value)) {
        out.type = ConfigValue::Type::Float;
        out.number = value.cast<double>();
    } else if (py::isinstance<py::str>(value)) {
        out.type = ConfigValue::Type::String;
        out.text = value.cast<std::string>();
    } else if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value) || py::isinstance<py::set>(value)) {
        out.type = ConfigValue::Type::List;
        std::size_t i = 0;
        for (const py::handle item : value) out.items.push_back(to_config(item, call, key + "[" + std::to_string(i++) + "]"));
    } else {
        throw dtcalc::InputError(out.where, "expected a number, text, true/false or a list of them, got a Python " +
                                                std::string(py::str(py::type::of(value).attr("__name__"))));
    }
    return out;
}

ConfigValue table_of(const py::kwargs& kwargs, const std::string& call) {
    ConfigValue table;
    table.type = ConfigValue::Type::Table;
    table.where = {call, 0, 0, ""};
    for (const auto& [key, value] : kwargs) {
        const std::string name = py::str(key);
        // Messages name the keyword as it was written: "tp=3".
        std::string written = py::repr(value).cast<std::string>();
        if (written.size() > 40) written = written.substr(0, 36) + " ...";
        table.fields.emplace_back(name, to_config(value, call, name + "=" + written));
    }
    return table;
}

// An option that cannot be used, in the caller's terms. One given as a
// keyword is already located at it ("dtcalc.predict(): precision='fp8': ..."),
// one from a spec file at its line; one not given names the keyword to give.
[[noreturn]] void raise_at_keyword(const dtcalc::OptionError& e, const std::string& call) {
    if (!e.where().file.empty()) throw e;
    throw dtcalc::InputError({call, 0, 0, e.option() + "="}, e.detail());
}

py::object json_loads(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

// A CSV cell as the Python value it reads as: None, bool, int, float or str.
py::object typed(const std::string& cell) {
    if (cell.empty()) return py::none();
    if (cell == "true") return py::bool_(true);
    if (cell == "false") return py::bool_(false);
    long long i = 0;
    const char* end = cell.data() + cell.size();
    if (auto [p, ec] = std::from_chars(cell.data(), end, i); ec == std::errc() && p == end) return py::int_(i);
    double d = 0;
    if (auto [p, ec] = std::from_chars(cell.data(), end, d); ec == std::errc() && p == end) return py::float_(d);
    return py::str(cell);
}

}  // namespace

PYBIND11_MODULE(dtcalc, m) {
    m.doc() = "dtcalc: distributed-training iteration time, communication and memory in closed form";
    m.attr("__version__") = "0.1.0";
    static py::exception<dtcalc::InputError> input_error(m, "InputError", PyExc_ValueError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const dtcalc::InputError& e) {
            input_error(e.what());
        }
    });

    m.def(
        "predict",
        [](const py::kwargs& kwargs) {
            const ConfigValue config = table_of(kwargs, "dtcalc.predict()");
            std::string json;
            try {
                py::gil_scoped_release release;
                json = dtcalc::predict_json(config, module_path());
            } catch (const dtcalc::OptionError& e) {
                raise_at_keyword(e, "dtcalc.predict()");
            }
            return json_loads(json);
        },
        "One training iteration: predict(model=..., preset=..., dp=..., tp=..., pp=..., ...) -> dict\n"
        "(the keys of `dtcalc predict --format json`). Also preset_path, model_path.");

    m.def(
        "collective",
        [](const py::kwargs& kwargs) {
            const ConfigValue config = table_of(kwargs, "dtcalc.collective()");
            std::string json;
            {
                py::gil_scoped_release release;
                json = dtcalc::collective_json(config, module_path());
            }
            return json_loads(json);
        },
        "One collective or a range of sizes: collective(kind='all-reduce', size='1MiB', preset=..., npus=..., algo=..., proto=..., "
        "min_nchannels=..., max_nchannels=..., env=[\"NCCL_MAX_CTAS=8\", ...], datatype=..., op=...)\n"
        "-> list of dicts, one per size (`dtcalc collective --format json`).");

    m.def(
        "sweep",
        [](const py::object& spec, const py::kwargs& kwargs) {
            const std::string spec_file = spec.is_none() ? std::string() : py::str(spec).cast<std::string>();
            const ConfigValue overrides = table_of(kwargs, "dtcalc.sweep()");
            std::string csv;
            try {
                py::gil_scoped_release release;
                csv = dtcalc::sweep_csv(spec_file, overrides, module_path());
            } catch (const dtcalc::OptionError& e) {
                raise_at_keyword(e, "dtcalc.sweep()");
            }
            const dtcalc::CsvDocument table = dtcalc::parse_csv_document(csv, "sweep rows");
            py::list rows;
            std::vector<py::str> names;
            for (const std::string& h : table.header) names.emplace_back(h);
            for (const dtcalc::CsvDocumentRow& record : table.rows) {
                py::dict row;
                for (std::size_t c = 0; c < names.size() && c < record.fields.size(); ++c) row[names[c]] = typed(record.fields[c]);
                rows.append(std::move(row));
            }
            return rows;
        },
        py::arg("spec") = py::none(),
        "A design-space sweep: sweep(spec=None, **parameters) -> list of flat dicts, one per point.\n"
        "spec: a sweep spec file (TOML or JSON); parameters take a value, a list or a range string\n"
        "('1..64', '8..64+8', '0.5..4*2') and override the spec; also npus, rules, objective, top,\n"
        "threads (default every core), feasible_only, preset_path, model_path.");
}
