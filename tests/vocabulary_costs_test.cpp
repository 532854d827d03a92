// The vocabulary's two ends (compute/vocabulary_costs.h) and the optimizer step's
// bytes (compute/optimizer_step.h), against values worked by hand.
#include <doctest/doctest.h>

#include "compute/optimizer_step.h"
#include "compute/vocabulary_costs.h"

using namespace dtcalc;

namespace {

// GEMMs at exactly the peak (one 1 x 1 tile on one SM, plateau 1, no K overhead): a GEMM
// of F FLOPs takes F / 1e6 ns (1,000 TFLOP/s); memory moves 1e4 B per ns at full rate.
TrainingDevice exact_device(bool shapes = true) {
    TrainingDevice d;
    d.peak_tflops_bf16 = 1000;
    d.hbm_gbps = 1e4;
    if (shapes) {
        GemmTiling t;
        t.tiles = {{1, 1}};
        t.sms = 1;
        d.gemm_shape = {t, 1.0};
    }
    return d;
}

// Llama-3 8B's ends at tp 8 for a micro-batch of 8,192 tokens: h 4,096, v 128,256 / 8 = 16,032.
// t x h = 33,554,432; v x h = 65,667,072; t x v = 131,334,144.
constexpr VocabularyShape kLlama3Tp8{.tokens = 8192, .hidden = 4096, .vocab = 16032, .gradient_bytes = 4};

}  // namespace

TEST_CASE("the loss's bytes per logit are the passes of each framework's code") {
    // Megatron-Core unfused: cast 2 + 4, max 4, subtract 8, exp 8, sum 4, divide 8 = 38;
    // backward: multiply 8, cast back 4 + 2 = 14.
    CHECK(cross_entropy_bytes(CrossEntropyKernel::Unfused).forward == 38);
    CHECK(cross_entropy_bytes(CrossEntropyKernel::Unfused).backward == 14);
    // Fused: cast and max 6, subtract-exp 8, sum 4, divide 8 = 26; backward as unfused.
    CHECK(cross_entropy_bytes(CrossEntropyKernel::Fused).forward == 26);
    CHECK(cross_entropy_bytes(CrossEntropyKernel::Fused).backward == 14);
    // F.cross_entropy on fp32: cast 6, log_softmax 4 + 4 + 8 = 22; backward: zero-filled 4,
    // log_softmax backward 4 + 4 + 4 + 4, cast 6 = 26.
    CHECK(cross_entropy_bytes(CrossEntropyKernel::Torch).forward == 22);
    CHECK(cross_entropy_bytes(CrossEntropyKernel::Torch).backward == 26);
}

TEST_CASE("vocabulary_times: embedding, logits GEMMs and loss of one micro-batch") {
    const VocabularyTimes v = vocabulary_times(exact_device(), kLlama3Tp8, CrossEntropyKernel::Unfused);
    // Lookup: t x h x 4 = 134,217,728 B -> 13,421.7728 ns.
    CHECK(v.embedding_forward == doctest::Approx(13421.7728).epsilon(1e-12));
    // Gradient: v x h x (2 + 2 + 2 x 4) = 788,004,864 B and t x h x 32 = 1,073,741,824 B:
    // 1,861,746,688 B -> 186,174.6688 ns.
    CHECK(v.embedding_backward == doctest::Approx(186174.6688).epsilon(1e-12));
    // Logits: 2 x 8,192 x 16,032 x 4,096 = 1,075,889,307,648 FLOPs -> 1,075,889.307648 ns;
    // dgrad and wgrad the same FLOPs in their own shapes.
    CHECK(v.logits_forward == doctest::Approx(1075889.307648).epsilon(1e-12));
    CHECK(v.logits_dgrad == doctest::Approx(1075889.307648).epsilon(1e-12));
    CHECK(v.logits_wgrad == doctest::Approx(1075889.307648).epsilon(1e-12));
    CHECK(v.logits_backward() == doctest::Approx(2 * 1075889.307648).epsilon(1e-12));
    // Loss: 131,334,144 x 38 = 4,990,697,472 B -> 499,069.7472 ns; x 14 -> 183,867.8016 ns.
    CHECK(v.loss_forward == doctest::Approx(499069.7472).epsilon(1e-12));
    CHECK(v.loss_backward == doctest::Approx(183867.8016).epsilon(1e-12));

    SUBCASE("the fused and torch losses") {
        const VocabularyTimes f = vocabulary_times(exact_device(), kLlama3Tp8, CrossEntropyKernel::Fused);
        CHECK(f.loss_forward == doctest::Approx(341468.7744).epsilon(1e-12));  // x 26
        CHECK(f.loss_backward == doctest::Approx(183867.8016).epsilon(1e-12));
        const VocabularyTimes t = vocabulary_times(exact_device(), kLlama3Tp8, CrossEntropyKernel::Torch);
        CHECK(t.loss_forward == doctest::Approx(288935.1168).epsilon(1e-12));   // x 22
        CHECK(t.loss_backward == doctest::Approx(341468.7744).epsilon(1e-12));  // x 26
    }
    SUBCASE("bf16 gradients: the main_grad add moves 2 + 2 + 2 x 2") {
        VocabularyShape s = kLlama3Tp8;
        s.gradient_bytes = 2;
        // 65,667,072 x 8 = 525,336,576 B + 1,073,741,824 B -> 159,907.84 ns.
        CHECK(vocabulary_times(exact_device(), s, CrossEntropyKernel::Unfused).embedding_backward ==
              doctest::Approx(159907.84).epsilon(1e-12));
    }
    SUBCASE("a device without a GEMM shape model times the backward GEMMs as twice the forward") {
        TrainingDevice d = exact_device(false);
        d.gemm_efficiency.points = {{1.0, 0.5}};  // one point: 0.5 at every size
        const VocabularyTimes w = vocabulary_times(d, kLlama3Tp8, CrossEntropyKernel::Unfused);
        CHECK(w.logits_forward == doctest::Approx(2 * 1075889.307648).epsilon(1e-12));  // at half the peak
        CHECK(w.logits_backward() == doctest::Approx(2 * w.logits_forward).epsilon(1e-12));
    }
}

TEST_CASE("optimizer_step_bytes: Megatron-Core's mixed-precision Adam step") {
    // 1,000 parameters updated, a buffer of 8,000: fp32 gradients, 1,000 x (4 + 28 + 6)
    // + 8,000 x 4 = 70,000 B; bf16 gradients add the copy to fp32 (2 + 4) and clear 2 B
    // elements: 1,000 x 44 + 8,000 x 2 = 60,000 B.
    CHECK(optimizer_step_bytes(1000, 8000, 4) == 70000);
    CHECK(optimizer_step_bytes(1000, 8000, 2) == 60000);
    CHECK(optimizer_step_bytes(0, 0, 4) == 0);
}
