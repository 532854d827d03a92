#pragma once
// collective/message_model.h's event passes: one representative rank's, or
// every rank's, events over per-link FIFOs in time order (what each case uses
// and why is said in message_model.h).
#include "collective/message_model.h"

namespace dtcalc {

/// Runs the case as an event pass: one rank when
/// message_model_is_representative(), else every rank. The caller has checked
/// message_model_supports().
MessageModelResult run_message_event_pass(const MessageModelInput& input);

}  // namespace dtcalc
