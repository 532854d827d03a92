"""dtcalc's predictions for one validation dataset with constants of a device catalogue
file set to given values: the helper scripts/gemm_fit.py and scripts/framework_gap_fit.py
share. It writes a copy of the device file with each `key = value` line replaced, a copy of
the preset whose `gpu` names that copy, and a gates file of one dataset, runs
`dtcalc validate --format csv -v` on it and returns the rows."""
import csv
import io
import os
import re
import subprocess
import sys
import tempfile


def fail(message):
    """Bad input: the message on stderr, exit code 2."""
    print(message, file=sys.stderr)
    sys.exit(2)


def predictions(dtcalc, preset_text, device_text, values, kind, data, who):
    """The case rows (dicts of validate's CSV columns) of dataset `data` of `kind`, predicted on
    the preset with the device's constants set to `values` ({key: value}); `who` names the
    calling script in errors."""
    for key in values:
        if not re.search(rf"^{key}\s*=", device_text, re.M):
            fail(f"{who}: the device file has no '{key} = ...' line to vary")
    if not re.search(r"^gpu\s*=", preset_text, re.M):
        fail(f"{who}: the preset has no 'gpu = ...' line naming its device")
    with tempfile.TemporaryDirectory() as tmp:
        device = os.path.join(tmp, "device.toml")
        preset = os.path.join(tmp, "preset.toml")
        gates = os.path.join(tmp, "gates.toml")
        text = device_text
        for key, value in values.items():
            text = re.sub(rf"^{key}\s*=.*$", f"{key} = {value!r}", text, flags=re.M)
        with open(device, "w") as f:
            f.write(text)
        with open(preset, "w") as f:
            f.write(re.sub(r"^gpu\s*=.*$", f'gpu = "{device}"', preset_text, flags=re.M))
        with open(gates, "w") as f:
            f.write(f'[[dataset]]\nname = "fit"\nkind = "{kind}"\nfile = "{data}"\npreset = "{preset}"\n'
                    f'description = "fit"\n\n[[gate]]\ndataset = "fit"\ngroup = "*"\nmetric = "max"\nbound = 1\n')
        out = subprocess.run([dtcalc, "validate", "--gates", gates, "--format", "csv", "-v"], capture_output=True,
                             text=True)
        if out.returncode not in (0, 1):  # 1: the placeholder gate exceeded, which does not matter here
            fail(f"{who}: dtcalc validate failed:\n{out.stderr}")
    return [r for r in csv.DictReader(io.StringIO(out.stdout)) if r.get("case")]
