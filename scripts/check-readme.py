#!/usr/bin/env python3
"""Runs every `$ dtcalc ...` example in README.md and compares its output with the
text pasted below it. Examples whose input files do not exist are skipped.
An example's `--plot PATH` (a file, or validate's folder) is a picture the README
shows: what the example writes there must equal what is committed (a differing
picture is reported and put back; --fix keeps the new one).
Usage: scripts/check-readme.py [--fix]   (--fix rewrites README.md with the real output)"""
import os, re, shlex, subprocess, sys


def snapshot(path):
    """{relative name: bytes} of a file, or of the files in a folder."""
    if os.path.isfile(path):
        return {"": open(path, "rb").read()}
    files = {}
    if os.path.isdir(path):
        for name in sorted(os.listdir(path)):
            if os.path.isfile(os.path.join(path, name)):
                files[name] = open(os.path.join(path, name), "rb").read()
    return files


def restore(path, files):
    if "" in files:
        open(path, "wb").write(files[""])
        return
    for name, data in files.items():
        open(os.path.join(path, name), "wb").write(data)

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.join(root, "build", "src", "dtcalc")
readme = os.path.join(root, "README.md")
lines = open(readme).read().split("\n")
out, i, failures, checked = [], 0, 0, 0
while i < len(lines):
    line = lines[i]
    out.append(line)
    i += 1
    if not line.startswith("$ dtcalc"):
        continue
    command = line[2:]
    while command.endswith("\\"):
        out.append(lines[i]); command = command[:-1] + " " + lines[i].strip(); i += 1
    expected = []
    while i < len(lines) and not lines[i].startswith("$ ") and not lines[i].startswith("```"):
        expected.append(lines[i]); i += 1
    args = shlex.split(command)[1:]
    missing = [a for a in args if re.search(r"\.(yml|json|toml|txt)$", a) and not os.path.exists(os.path.join(root, a))]
    if missing:
        out.extend(expected); continue
    pictures = [os.path.join(root, args[k + 1]) for k, a in enumerate(args[:-1]) if a == "--plot"]
    before = {p: snapshot(p) for p in pictures}
    result = subprocess.run([binary] + args, cwd=root, capture_output=True, text=True)
    actual = (result.stdout + result.stderr).rstrip("\n").split("\n")
    checked += 1
    for p in pictures:
        if snapshot(p) != before[p]:
            failures += "--fix" not in sys.argv
            print(f"README picture {'updated' if '--fix' in sys.argv else 'differs'}: {os.path.relpath(p, root)} ({command})")
            if "--fix" not in sys.argv and before[p]:
                restore(p, before[p])
    if actual != expected:
        failures += 1
        print(f"README example differs: {command}")
        for a, e in zip(actual, expected):
            if a != e: print(f"  expected: {e}\n  actual:   {a}"); break
    out.extend(actual if "--fix" in sys.argv else expected)
if "--fix" in sys.argv:
    open(readme, "w").write("\n".join(out))
print(f"{checked} examples checked, {failures} differ")
sys.exit(1 if failures and "--fix" not in sys.argv else 0)
