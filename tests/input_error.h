#pragma once
// The message of the InputError an action throws, for tests that pin messages.
#include <string>

#include "core/error.h"

namespace dtcalc::testing {

/// The whole message ("file:line:column: key: detail") of the InputError
/// `action` throws, or "(no error)".
template <typename Action>
std::string error_of(Action&& action) {
    try {
        action();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace dtcalc::testing

/// In a doctest case: `expr` throws an InputError whose whole message is `message`.
#define CHECK_INPUT_ERROR(expr, message) \
    CHECK(dtcalc::testing::error_of([&] { (void)(expr); }) == std::string(message))
