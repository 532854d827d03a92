// Dataset kind "gemm" (validate/gemm_dataset.h): measured GEMMs against the
// device model a training step times them with, on the shipped H100 preset.
#include <doctest/doctest.h>

#include <string>

#include "temp_file.h"
#include "validate/validation_plan.h"
#include "validate/validation_run.h"

using namespace dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

const ValidationContext kContext{{DTCALC_PRESETS_DIR}, {std::string(DTCALC_PRESETS_DIR) + "/../models"}};

ValidationReport run_gemm_plan(const std::string& name, const std::string& csv) {
    const std::string file = write_temp_file(name + ".csv", csv);
    const std::string plan = write_temp_file(name + ".toml", "[[dataset]]\nname = \"g\"\nkind = \"gemm\"\nfile = \"" +
                                                                 file + "\"\npreset = \"h100-ib-ndr400\"\n"
                                                                 "\n[[gate]]\ndataset = \"g\"\ngroup = \"*\"\n"
                                                                 "metric = \"max\"\nbound = 1\n");
    return run_validation(load_validation_plan(plan), kContext);
}

}  // namespace

TEST_CASE("gemm dataset: each row predicted by the preset's device model, by hand") {
    const ValidationReport report = run_gemm_plan(
        "gemm-dataset-values",
        "run,family,pass,precision,m,n,k,median_us,p10_us,p90_us\n"
        "1,big/square,fwd,bf16,8192,8192,8192,1600,1590,1610\n"
        "1,mid/square,dgrad,fp8,4096,4096,4096,110,108,112\n"
        "2,mid/square,dgrad,fp8,4096,4096,4096,110,50,100\n");
    // The third row's p90 / p10 = 2 > 1.5: left out, and said so in a note.
    REQUIRE(report.cases.size() == 2);
    // bf16 8192^3 on h100-sxm: every tile (128x256, 256x128, 128x128) covers 8192 x 8192
    // in 16 (or 32) waves of 132 SMs, 8192^2 / (16 x 132 x 128 x 256) = 0.969697, the same
    // as the benchmark shape 2048 x 2048 (128 tiles, one wave), so waves cancel: eff =
    // 0.803 x fill(8192) / fill(13312) x sustained, fill(k) = k / (k + 272):
    // 0.803 x (8192 / 8464) / (13312 / 13584) x 0.83 = 0.658252. Time = 2 x 8192^3 /
    // (989.4e12 x 0.658252) = 1688.25 us (HBM: 3 x 128 MiB at 0.7 x 3350 GB/s = 172 us, less).
    CHECK(report.cases[0].group == "bf16/fwd");
    CHECK(report.cases[0].model == "big");
    CHECK(report.cases[0].label == "big/square fwd bf16 8192x8192x8192 run 1");
    CHECK(report.cases[0].predicted == doctest::Approx(1688.25).epsilon(1e-5));
    CHECK(report.cases[0].x == doctest::Approx(2.0 * 8192 * 8192 * 8192));
    // fp8 4096^3: the K overhead doubles with the rate (1978.9 / 989.4 x 272 = 544). The
    // benchmark 1024 x 9216 x 14336 at 0.709 is best tiled 128 x 128 (576 tiles, 5 waves:
    // 1024 x 9216 / (5 x 132 x 128^2) = 0.872727), plateau 0.709 / (0.872727 x 14336 /
    // 14880) = 0.843223; 4096^2 in 128 x 256 tiles is 512 tiles, 4 waves, 0.969697: eff
    // 0.843223 x 0.969697 x 4096 / 4640 x 0.83 = 0.599099. Time = 2 x 4096^3 /
    // (1978.9e12 x 0.599099) = 115.928 us (HBM: 2 x 16 MiB of fp8 operands + 32 MiB bf16
    // out = 28.6 us, less).
    CHECK(report.cases[1].group == "fp8/dgrad");
    CHECK(report.cases[1].predicted == doctest::Approx(115.928).epsilon(1e-4));
    CHECK(report.cases[1].error() == doctest::Approx(115.928 / 110 - 1).epsilon(1e-4));
    REQUIRE(report.groups.size() == 2);
    CHECK(report.groups[1].group == "fp8/dgrad");
    CHECK(report.groups[1].note == "1 row(s) left out: p90 / p10 above 1.5 (launch gaps timed)");
}

TEST_CASE("a gates file's preset given as a .toml path is read from the gates file's folder") {
    // The folder holds the gates file, its data and the preset; the working folder does not.
    write_temp_file("gates-folder/gemm.csv",
                    "family,pass,precision,m,n,k,median_us,p10_us,p90_us\n"
                    "a/b,fwd,bf16,8192,8192,8192,1700,1690,1710\n");
    write_temp_file("gates-folder/node.toml",
                    "name = \"n\"\ndescription = \"d\"\nsources = [\"s\"]\nbackend = \"nccl\"\ngpu = \"h200\"\n"
                    "gpus-per-node = 8\nnodes = 1\n");
    const std::string plan = write_temp_file("gates-folder/gates.toml",
                                             "[[dataset]]\nname = \"g\"\nkind = \"gemm\"\nfile = \"gemm.csv\"\n"
                                             "preset = \"node.toml\"\n\n[[gate]]\ndataset = \"g\"\ngroup = \"*\"\n"
                                             "metric = \"max\"\nbound = 1\n");
    const ValidationReport report = run_validation(load_validation_plan(plan), kContext);
    REQUIRE(report.cases.size() == 1);
    // h200 borrows h100-sxm's GEMM constants and has its peak: the same 1688.25 us as above.
    CHECK(report.cases[0].predicted == doctest::Approx(1688.25).epsilon(1e-5));
}

TEST_CASE("output-layer dataset: the loss and the embedding's gradient predicted as a step times them, by hand") {
    const std::string file = write_temp_file(
        "output-layer-values.csv",
        "run,model,tp,tokens,hidden,vocab_per_rank,op,m,n,k,elements,median_us,p10_us,p90_us\n"
        "1,llama3-8b,8,8192,4096,16032,loss_fwd,8192,16032,0,131334144,2077.41,2069.15,2080.38\n"
        "1,llama3-8b,8,8192,4096,16032,embedding_bwd,16032,4096,0,65667072,876.22,868.03,877.89\n");
    const std::string plan = write_temp_file("output-layer-values.toml",
                                             "[[dataset]]\nname = \"o\"\nkind = \"output-layer\"\nfile = \"" + file +
                                                 "\"\npreset = \"h100-ib-ndr400\"\n"
                                                 "\n[[gate]]\ndataset = \"o\"\ngroup = \"*\"\nmetric = \"max\"\nbound = 1\n");
    const ValidationReport report = run_validation(load_validation_plan(plan), kContext);
    REQUIRE(report.cases.size() == 2);
    // Megatron-Core's unfused loss, 38 B per logit: 8,192 x 16,032 x 38 = 4,990,697,472 B at
    // 0.70 x 3,350 GB/s = 2,345 B/ns: 2,128.2292 us.
    CHECK(report.cases[0].group == "loss_fwd");
    CHECK(report.cases[0].label == "llama3-8b tp 8 8192 tokens loss_fwd run 1");
    CHECK(report.cases[0].predicted == doctest::Approx(2128.2292).epsilon(1e-6));
    CHECK(report.cases[0].x == doctest::Approx(8192.0 * 16032));
    // The embedding's gradient into an fp32 main_grad: 16,032 x 4,096 x 12 = 788,004,864 B and
    // 8,192 x 4,096 x 32 = 1,073,741,824 B: 1,861,746,688 B / 2,345 B/ns = 793.9218 us.
    CHECK(report.cases[1].group == "embedding_bwd");
    CHECK(report.cases[1].predicted == doctest::Approx(793.9218).epsilon(1e-6));
}

TEST_CASE("output-layer dataset: an unknown op is an error at its row and column") {
    const std::string file = write_temp_file(
        "output-layer-bad.csv",
        "model,tp,tokens,hidden,vocab_per_rank,op,median_us,p10_us,p90_us\n"
        "llama3-8b,8,8192,4096,16032,softmax,2077.41,2069.15,2080.38\n");
    const std::string plan = write_temp_file("output-layer-bad.toml",
                                             "[[dataset]]\nname = \"o\"\nkind = \"output-layer\"\nfile = \"" + file +
                                                 "\"\npreset = \"h100-ib-ndr400\"\n"
                                                 "\n[[gate]]\ndataset = \"o\"\ngroup = \"*\"\nmetric = \"max\"\nbound = 1\n");
    try {
        (void)run_validation(load_validation_plan(plan), kContext);
        FAIL("expected an error");
    } catch (const InputError& e) {
        const std::string what = e.what();
        CHECK(what.find("output-layer-bad.csv:2") != std::string::npos);
        CHECK(what.find("op") != std::string::npos);
        CHECK(what.find("got 'softmax'") != std::string::npos);
    }
}
