// The C ABI (dtcalc.h) over embedded_calls.h: text in, JSON out, every C++
// exception turned into a status and a message at the boundary.
#include "capi/dtcalc.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "capi/embedded_calls.h"
#include "core/error.h"

namespace {

// A copy the caller frees with dtcalc_free; nullptr when memory runs out.
char* duplicate(const std::string& text) {
    char* out = static_cast<char*>(std::malloc(text.size() + 1));
    if (out) std::memcpy(out, text.c_str(), text.size() + 1);
    return out;
}

// The file this library was loaded from: presets and models are looked up
// beside its install (lib/../share/dtcalc).
std::string library_path() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&dtcalc_version), &info) && info.dli_fname) return info.dli_fname;
    return "";
}

template <class F>
int call(const char* settings, char** result, char** error, const char* source, F&& f) {
    if (!result || !error) return DTCALC_NULL_ARGUMENT;
    *result = nullptr;
    *error = nullptr;
    if (!settings) return DTCALC_NULL_ARGUMENT;
    try {
        const dtcalc::ConfigValue config = dtcalc::parse_config_text(settings, source);
        const std::string json = f(config, library_path());
        *result = duplicate(json);
        if (!*result) {
            *error = duplicate("out of memory");
            return DTCALC_FAILURE;
        }
        return DTCALC_OK;
    } catch (const dtcalc::InputError& e) {
        *error = duplicate(e.what());
        return DTCALC_INPUT_ERROR;
    } catch (const std::bad_alloc&) {
        *error = duplicate("out of memory");
        return DTCALC_FAILURE;
    } catch (const std::exception& e) {
        *error = duplicate(e.what());
        return DTCALC_FAILURE;
    } catch (...) {
        *error = duplicate("unknown failure");
        return DTCALC_FAILURE;
    }
}

}  // namespace

extern "C" {

const char* dtcalc_version(void) { return "0.1.0"; }

int dtcalc_predict(const char* settings, char** result, char** error) {
    return call(settings, result, error, "predict settings", dtcalc::predict_json);
}

int dtcalc_collective(const char* settings, char** result, char** error) {
    return call(settings, result, error, "collective settings", dtcalc::collective_json);
}

int dtcalc_sweep(const char* settings, char** result, char** error) {
    return call(settings, result, error, "sweep settings", dtcalc::sweep_json);
}

void dtcalc_free(char* text) { std::free(text); }

}  // extern "C"
