"""The dtcalc Python module: the same answers as the command line, flat sweep
rows, errors as dtcalc.InputError. Run by CTest (PYTHONPATH points at the
built module; DTCALC_BINARY, when set, at the dtcalc binary)."""
import json
import os
import subprocess
import unittest

import dtcalc

SOURCE = os.environ.get("DTCALC_SOURCE_DIR", "")
BINARY = os.environ.get("DTCALC_BINARY", "")


class PredictTest(unittest.TestCase):
    def test_cross_entropy_keyword(self):
        # Llama-3 8B on one HGX H100 (dp 8, one micro-batch of 8,192 tokens each): the fused
        # loss moves 26 B per logit forward where the unfused one moves 38, both 14 backward.
        # 8,192 x 128,256 = 1,050,673,152 logits x 12 B = 12,608,077,824 B at 0.70 x 3,350
        # GB/s (2,345 B/ns): 5,376.579 us less compute.
        unfused = dtcalc.predict(model="llama3-8b", preset="hgx-h100", gbs=8)
        fused = dtcalc.predict(model="llama3-8b", preset="hgx-h100", gbs=8, cross_entropy="fused")
        self.assertEqual(unfused["plan"]["cross_entropy"], "unfused")
        self.assertEqual(fused["plan"]["cross_entropy"], "fused")
        self.assertAlmostEqual(unfused["compute_time_us"] - fused["compute_time_us"], 5376.579, places=2)
        with self.assertRaises(ValueError) as caught:
            dtcalc.predict(model="llama3-8b", preset="hgx-h100", cross_entropy="liger")
        self.assertIn("cross_entropy", str(caught.exception))
        self.assertIn("unfused, fused or torch", str(caught.exception))

    def test_nccl_algo_keyword(self):
        # NCCL_ALGO for the whole job: Llama-2 7B, tp 8 in each of two H100 nodes, dp 2
        # over them. NCCL's own choice runs the 2-rank gradient all-reduce as a ring;
        # forced to the tree, every all-reduce of the step takes the tree.
        free = dtcalc.predict(model="llama2-7b", preset="h100-ib-ndr400", nodes=2, tp=8)
        tree = dtcalc.predict(model="llama2-7b", preset="h100-ib-ndr400", nodes=2, tp=8, nccl_algo="tree")
        self.assertEqual(free["nccl_algo"], "")
        self.assertEqual(tree["nccl_algo"], "tree")
        self.assertNotEqual(free["comm_time_us"], tree["comm_time_us"])
        self.assertEqual(free["compute_time_us"], tree["compute_time_us"])
        with self.assertRaises(ValueError) as caught:
            dtcalc.predict(model="llama2-7b", preset="lab-system1", tp=8, nccl_algo="ring")
        self.assertIn("nccl_algo", str(caught.exception))
        self.assertIn("applies to the nccl backend only", str(caught.exception))

    def test_predict_is_the_command_lines_json(self):
        got = dtcalc.predict(model="llama2-70b", preset="lab-system1", tp=8, gbs=64, seq=1024)
        self.assertEqual(got["plan"]["tp"], 8)
        self.assertEqual(got["plan"]["dp"], 8)  # 64 NPUs / tp 8
        self.assertGreater(got["iteration_time_us"], 0)
        if BINARY:
            cli = subprocess.run([BINARY, "predict", "--model", "llama2-70b", "--preset", "lab-system1", "--tp", "8",
                                  "--gbs", "64", "--seq", "1024", "--format", "json"],
                                 check=True, capture_output=True, text=True)
            self.assertEqual(got, json.loads(cli.stdout))

    def test_a_plan_that_breaks_a_rule_raises(self):
        with self.assertRaises(ValueError) as caught:
            dtcalc.predict(model="gpt3-175b", preset="lab-system1", tp=64)
        self.assertIsInstance(caught.exception, dtcalc.InputError)
        self.assertIn("plan: tp (64) must divide heads (96)", str(caught.exception))
        with self.assertRaises(ValueError) as caught:
            dtcalc.predict(model="llama2-7b", preset="hgx-h100", tp=3)
        self.assertIn("plan: dp x tp x pp x cp (2 x 3 x 1 x 1 = 6) must equal the NPU count (8)", str(caught.exception))

    def test_vpp_without_a_pipeline_raises(self):
        for extra in [dict(), dict(schedule="interleaved"), dict(schedule="gpipe")]:
            with self.assertRaises(ValueError) as caught:
                dtcalc.predict(model="llama2-7b", preset="hgx-h100", vpp=2, **extra)
            self.assertIn("plan: vpp > 1 needs pp > 1", str(caught.exception))
        with self.assertRaises(ValueError) as caught:
            dtcalc.predict(model="llama2-7b", preset="hgx-h100", pp=2, vpp=3, gbs=8)
        self.assertIn("layers (32) must be divisible by pp x vpp (6)", str(caught.exception))

    def test_a_plan_that_does_not_fit_is_a_result(self):
        got = dtcalc.predict(model="llama2-70b", preset="hgx-h100", tp=8)
        self.assertFalse(got["feasible"])
        self.assertIn("but the limit is 80.0 GiB", got["infeasible_reasons"][0])

    def test_bad_input_raises_input_error_naming_the_key(self):
        with self.assertRaises(dtcalc.InputError) as caught:
            dtcalc.predict(model="llama2-70b", preset="lab-system1", tpp=4)
        self.assertIn("dtcalc.predict(): tpp=4: unknown key (did you mean 'tp'?)", str(caught.exception))
        self.assertTrue(issubclass(dtcalc.InputError, ValueError))
        with self.assertRaises(dtcalc.InputError):
            dtcalc.predict(model="llama2-70b", preset="lab-system1", tp={"a": 1})


class OptionErrorTest(unittest.TestCase):
    """An option that cannot be used is named as the caller wrote it: the keyword and its value."""

    def assertRaisesMessage(self, message, call, **kwargs):
        with self.assertRaises(dtcalc.InputError) as caught:
            call(**kwargs)
        self.assertEqual(str(caught.exception), message)

    def test_predict_names_the_keyword(self):
        self.assertRaisesMessage("dtcalc.predict(): precision='fp8': fp8 needs a device with an fp8 peak; this system has none",
                                 dtcalc.predict, model="gpt2", preset="lab-system1", precision="fp8")
        self.assertRaisesMessage("dtcalc.predict(): schedule='zb': expected gpipe, 1f1b or interleaved, got 'zb'",
                                 dtcalc.predict, model="gpt2", preset="hgx-h100", schedule="zb")
        self.assertRaisesMessage("dtcalc.predict(): zero=7: expected an integer from 0 to 3, got '7'",
                                 dtcalc.predict, model="gpt2", preset="hgx-h100", zero=7)
        self.assertRaisesMessage("dtcalc.predict(): nodes=2: this system has one network dimension, so one node; "
                                 "use a multi-node preset (e.g. h100-ib-ndr400)",
                                 dtcalc.predict, model="gpt2", preset="hgx-h100", nodes=2)
        self.assertRaisesMessage("dtcalc.predict(): model=: missing: give a model name or .toml path (see `dtcalc list`)",
                                 dtcalc.predict, preset="hgx-h100")
        with self.assertRaises(dtcalc.InputError) as caught:
            dtcalc.predict(model="no-such-model", preset="hgx-h100")
        self.assertTrue(str(caught.exception).startswith("dtcalc.predict(): model='no-such-model': no model named"))

    def test_sweep_names_the_keyword(self):
        with self.assertRaises(dtcalc.InputError) as caught:
            dtcalc.sweep(model="no-such-model", preset="hgx-h100")
        self.assertTrue(str(caught.exception).startswith("dtcalc.sweep(): model='no-such-model': no model named"))
        self.assertRaisesMessage("dtcalc.sweep(): recompute=['none', 'most'][1]: expected none, selective or full, got 'most'",
                                 dtcalc.sweep, model="gpt2", preset="hgx-h100", recompute=["none", "most"])

    def test_the_same_option_names_everywhere(self):
        # sequence_parallel is the keyword, the scenario key and the sweep parameter.
        got = dtcalc.predict(model="llama2-7b", preset="hgx-h100", tp=2, sequence_parallel=True)
        self.assertTrue(got["plan"]["sequence_parallel"])
        rows = dtcalc.sweep(model="llama2-7b", preset="hgx-h100", tp=2, sequence_parallel=[False, True])
        self.assertEqual([r["sp"] for r in rows], [0, 1])


class CollectiveTest(unittest.TestCase):
    def test_hgx_h100_all_reduce(self):
        rows = dtcalc.collective(kind="all-reduce", size="1MiB", preset="astrasim-hgx-h100-validated")
        self.assertEqual(len(rows), 1)
        # 57,426 cycles (ns): ASTRA-sim's congestion-aware result quoted in seed 002.
        self.assertEqual(rows[0]["time_ns"], 57426)

    def test_a_range_of_sizes(self):
        rows = dtcalc.collective(kind="all-gather", size="1KiB:8KiB", preset="hgx-h100")
        self.assertEqual([r["size_bytes"] for r in rows], [1024, 2048, 4096, 8192])

    def test_algo_and_proto_as_nccl_reads_them(self):
        # 8 B on one HGX H100: NCCL's estimates are ring/LL 15.0 us, tree/LL
        # 15.2, nvls/Simple 25.0, tree/LL128 31.5 (Hopper latency tables).
        def choice(**force):
            rows = dtcalc.collective(kind="all-reduce", size="8", preset="hgx-h100", **force)
            return rows[0]["algorithm"] + "/" + rows[0]["protocol"]
        self.assertEqual(choice(), "ring/LL")
        self.assertEqual(choice(proto="^LL"), "nvls/Simple")
        self.assertEqual(choice(algo="^nvls", proto="^LL"), "tree/LL128")
        # nccl-tests' -d / -o: NVLS cannot average bfloat16 in the switch
        # (ncclNvlsSupported), so the next estimate wins, as with ^nvls.
        self.assertEqual(choice(proto="^LL", datatype="bfloat16", op="avg"), "tree/LL128")
        self.assertEqual(choice(proto="^LL", datatype="bfloat16", op="sum"), "nvls/Simple")
        with self.assertRaises(dtcalc.InputError) as e:
            dtcalc.collective(kind="all-reduce", size="8", preset="hgx-h100", op="xor")
        self.assertIn("expected nccl-tests' sum, prod, max, min, avg or mulsum, got 'xor'", str(e.exception))
        with self.assertRaises(dtcalc.InputError) as e:
            dtcalc.collective(kind="all-reduce", size="8", preset="hgx-h100", algo="fast")
        self.assertIn("algo='fast': expected Tree, Ring", str(e.exception))

    def test_channel_limits_as_nccl_applies_them(self):
        # 4 GiB all-gather on one HGX H100 node: NCCL's rules run 24 ring
        # channels; NCCL_MAX_NCHANNELS=8 runs 8, each driving 20.6 GB/s (one
        # point-to-point channel's NVLink figure): 8 x 20.6 = 164.8 GB/s of
        # bus bandwidth at most.
        rows = dtcalc.collective(kind="all-gather", size="4GiB", preset="hgx-h100", max_nchannels=8)
        self.assertEqual(rows[0]["channels"], 8)
        self.assertLess(rows[0]["busbw_GBps"], 164.8)
        self.assertGreater(rows[0]["busbw_GBps"], 0.99 * 164.8)
        free = dtcalc.collective(kind="all-gather", size="4GiB", preset="hgx-h100")
        self.assertEqual(free[0]["channels"], 24)
        with self.assertRaises(dtcalc.InputError) as e:
            dtcalc.collective(kind="all-gather", size="4GiB", preset="hgx-h100", max_nchannels=0)
        self.assertIn("expected 1 to 64 channels (NCCL's MAXCHANNELS), got 0", str(e.exception))
        # env: any setting dtcalc models, as --env. NCCL_MAX_CTAS=8 bounds the
        # ring's channels as NCCL_MAX_NCHANNELS=8 does (connect.cc, ncclTopoPostset).
        ctas = dtcalc.collective(kind="all-gather", size="4GiB", preset="hgx-h100", env=["NCCL_MAX_CTAS=8"])
        self.assertEqual(ctas[0]["channels"], 8)
        self.assertEqual(ctas[0]["time_us"], rows[0]["time_us"])
        with self.assertRaises(dtcalc.InputError) as e:
            dtcalc.collective(kind="all-gather", size="4GiB", preset="hgx-h100", env="NCCL_BUFFSIZE=1")
        self.assertIn("NCCL_BUFFSIZE is not a setting dtcalc models", str(e.exception))


class SweepTest(unittest.TestCase):
    def test_the_lab_space_is_56_flat_rows(self):
        rows = dtcalc.sweep(model="llama2-70b", preset="lab-system1", gbs=512, seq=1024,
                            dp="1..64", tp="1..64", cp="1..64", recompute=["none", "full"], npus=64, threads=2)
        self.assertEqual(len(rows), 56)  # C(8, 2) = 28 plans with dp x tp x cp = 64, x 2
        first = rows[0]
        self.assertIsInstance(first["point"], int)
        self.assertIsInstance(first["iteration_time_us"], float)
        self.assertIsInstance(first["feasible"], bool)
        self.assertTrue(all(r["dp"] * r["tp"] * r["cp"] == 64 for r in rows))
        self.assertTrue(all(not isinstance(v, (dict, list)) for r in rows for v in r.values()))  # flat

    def test_a_spec_file_with_overrides(self):
        if not SOURCE:
            self.skipTest("DTCALC_SOURCE_DIR not set")
        spec = os.path.join(SOURCE, "examples", "lab-dse", "lab-dse.toml")
        rows = dtcalc.sweep(spec, recompute="none", feasible_only=True)
        self.assertTrue(rows)
        self.assertTrue(all(r["recompute"] == "none" and r["feasible"] for r in rows))
        self.assertEqual({r["case"] for r in rows}, {"llama70b on system 1"})  # nothing of GPT-175B fits 80 GiB

    def test_threads_do_not_change_the_rows(self):
        args = dict(model="llama2-70b", preset="lab-system1", tp="1..64", mbs=[1, 2], gbs=64)
        self.assertEqual(dtcalc.sweep(threads=1, **args), dtcalc.sweep(threads=4, **args))

    def test_malformed_values_raise(self):
        with self.assertRaises(dtcalc.InputError) as caught:
            dtcalc.sweep(model="llama2-70b", preset="lab-system1", tp="16..4")
        self.assertIn("dtcalc.sweep(): tp='16..4': the range '16..4' is empty", str(caught.exception))
        with self.assertRaises(dtcalc.InputError) as caught:
            dtcalc.sweep(model="llama2-70b", dpp=4)
        self.assertIn("unknown parameter (did you mean 'dp'?)", str(caught.exception))

    def test_a_point_that_breaks_a_rule_is_a_row(self):
        rows = dtcalc.sweep(model="llama2-7b", preset="hgx-h100", vpp=2)
        self.assertEqual(len(rows), 1)
        self.assertFalse(rows[0]["feasible"])
        self.assertIn("vpp > 1 needs pp > 1", rows[0]["reason"])
        rows = dtcalc.sweep(model="gpt2", preset="hgx-h100", pp=[1, 2], vpp="1..4", tp="1..8", gbs=8,
                            schedule=["1f1b", "interleaved"])
        self.assertEqual(len(rows), 2 * 3 * 4 * 2)
        reasons = {r["reason"] for r in rows}
        self.assertIn("tp (2) must divide heads (25); tp (2) and kv_heads (25) must divide one another", reasons)
        self.assertTrue(any(r["reason"] is None and r["feasible"] for r in rows))

    def test_random_plan_options_answer_or_raise_and_agree(self):
        # Random combinations of the plan options (a fixed seed): predict answers
        # or raises ValueError, never anything else, and a one-point sweep of the
        # same keywords gives the same iteration time, or an infeasible row with
        # the reason predict raised.
        import random
        rng = random.Random(1124)
        palette = dict(tp=[1, 2, 4, 8, 3, 0], pp=[1, 2, 4, 3], cp=[1, 2], ep=[1, 2], vpp=[1, 2], mbs=[1, 2, 4],
                       gbs=[8, 16, 64, 6], zero=[0, 1, 3], recompute=["none", "selective", "full", "x"],
                       schedule=["1f1b", "gpipe", "interleaved"], precision=["bf16", "fp8"],
                       attention=["flash", "unfused"], sequence_parallel=[True, False], tp_comm_overlap=[True, False])
        answered = refused = 0
        for _ in range(150):
            kwargs = dict(model=rng.choice(["llama2-7b", "gpt2", "mixtral-8x7b", "llama3-8b"]),
                          preset=rng.choice(["hgx-h100", "lab-system1"]))
            for key, values in palette.items():
                if rng.random() < 0.4:
                    kwargs[key] = rng.choice(values)
            try:
                got = dtcalc.predict(**kwargs)
            except ValueError as e:
                refused += 1
                message = str(e)
                if "plan: " in message:
                    rows = dtcalc.sweep(threads=1, **kwargs)
                    self.assertEqual(len(rows), 1, kwargs)
                    self.assertFalse(rows[0]["feasible"], kwargs)
                    self.assertTrue(rows[0]["reason"], kwargs)
                continue
            answered += 1
            self.assertGreater(got["iteration_time_us"], 0, kwargs)
            self.assertLessEqual(got["exposed_comm_us"], got["comm_time_us"] + 1e-9, kwargs)
            rows = dtcalc.sweep(threads=1, **kwargs)
            self.assertEqual(len(rows), 1, kwargs)
            self.assertEqual(rows[0]["iteration_time_us"], got["iteration_time_us"], kwargs)
        self.assertGreater(answered, 20)
        self.assertGreater(refused, 20)

    def test_pandas_takes_the_rows(self):
        try:
            import pandas
        except ImportError:
            self.skipTest("pandas is not installed")
        frame = pandas.DataFrame(dtcalc.sweep(model="llama2-70b", preset="lab-system1", tp="1..8"))
        self.assertEqual(len(frame), 4)
        self.assertIn("tokens_per_s", frame.columns)


if __name__ == "__main__":
    unittest.main()
