#include "model/fp8_casts.h"

namespace dtcalc {

Fp8CastBytes fp8_cast_bytes(const LayerForwardWork& w, const LayerSplit& split) {
    const bool sp = split.sequence_parallel && split.tp > 1;
    Fp8CastBytes out;
    for (const GemmShape& g : w.shapes) {
        const double input = g.m * g.k, output = g.m * g.n;  // the input, and the output gradient
        switch (g.role) {
            case GemmRole::Qkv:
            case GemmRole::Fc1:  // input cast inside the norm; its transpose apart
                (sp ? out.backward : out.forward) += kFp8TransposeBytes * input;
                out.backward += kFp8CastTransposeBytes * output;
                break;
            case GemmRole::Projection:
            case GemmRole::Fc2:
                out.forward += kFp8CastTransposeBytes * input;
                out.backward += sp ? kFp8CastBytes * output / split.tp + kFp8TransposeBytes * output
                                   : kFp8CastTransposeBytes * output;
                break;
            case GemmRole::Router: continue;  // bf16
        }
        out.weights += kFp8CastTransposeBytes * g.k * g.n * g.weights;
    }
    return out;
}

}  // namespace dtcalc
