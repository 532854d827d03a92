#pragma once
// collective/message_model.h's recurrence: the congestion-aware ring (and
// direct on a FullyConnected) over one representative rank's messages in FIFO
// order, no event list.
#include "collective/message_model.h"

namespace dtcalc {

/// The caller has checked message_model_supports() and that the case is a
/// congestion-aware ring, or direct on a FullyConnected.
MessageModelResult run_message_recurrence(const MessageModelInput& input);

}  // namespace dtcalc
