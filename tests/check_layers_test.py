#!/usr/bin/env python3
"""scripts/check-layers.py on tests/fixtures/layers_bad, a tree that breaks its own
layer order: it must exit 1 and report exactly these problems."""
import os, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
fixture = os.path.join(root, "tests", "fixtures", "layers_bad")
expected = """\
src/stray: not in the layer order (README.md, '## Layout')
src/gone: in the layer order but not a folder under src/
src/low/low.h:4: 'low/low.h' (layer 1) includes 'high/high.h' (layer 2)
src/low/relative.h:3: 'low/relative.h' (layer 1) includes 'high/high.h' (layer 2)
check-layers: 4 problems (5 files, 4 includes checked, 3 layers)
"""
result = subprocess.run([sys.executable, os.path.join(root, "scripts", "check-layers.py"), "--root", fixture],
                        capture_output=True, text=True)
failures = []
if result.returncode != 1:
    failures.append(f"exit code {result.returncode}, expected 1")
if result.stdout != expected:
    failures.append(f"output differs\n--- expected\n{expected}--- actual\n{result.stdout}")
if result.stderr:
    failures.append(f"unexpected stderr\n{result.stderr}")
for f in failures:
    print(f)
print("check-layers rejects the bad tree as expected" if not failures else f"{len(failures)} failures")
sys.exit(1 if failures else 0)
