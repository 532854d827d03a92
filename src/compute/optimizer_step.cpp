#include "compute/optimizer_step.h"

namespace dtcalc {

double optimizer_step_bytes(double updated, double buffered, double gradient_bytes) {
    const double to_main_grad = gradient_bytes < 4 ? 2 + 4 : 0;
    const double grad_norm = 4, adam = 16 + 12, to_model_param = 4 + 2;
    return updated * (to_main_grad + grad_norm + adam + to_model_param) + buffered * gradient_bytes;
}

}  // namespace dtcalc
