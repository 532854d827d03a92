#!/usr/bin/env python3
"""Checks that every include under src/ points down the layers.

The layer order is the list of `src/FOLDER` lines in the first code block of
README.md's "## Layout" section, lowest layer first (a line `src/a/b` names a
subfolder, which belongs to its folder's layer). A file may include headers of
its own folder and of folders listed before it; an include of a folder listed
after it points up. Also reported: a folder under src/ that the order does not
list, a listed folder that does not exist, and a source file directly in src/.

Usage: scripts/check-layers.py [--root DIR]   (DIR holds README.md and src/;
default: this repository). Exits 1 when anything is reported, else prints one
line and exits 0."""
import argparse, os, re, sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
LAYOUT_LINE = re.compile(r'^src/([A-Za-z0-9_.-]+)(/\S*)?(\s|$)')
SOURCE_SUFFIXES = (".h", ".hpp", ".hh", ".inc", ".c", ".cc", ".cpp", ".cxx")


def read_order(readme):
    """The top-level src folders of the Layout section's first code block, in order."""
    try:
        lines = open(readme, encoding="utf-8").read().split("\n")
    except OSError as e:
        return None, [f"{readme}: cannot read the layer order ({e.strerror})"]
    problems, order, in_section, in_block, seen_block = [], [], False, False, False
    for number, line in enumerate(lines, 1):
        if line.startswith("## "):
            if in_section:
                break
            in_section = line.strip() == "## Layout"
            continue
        if not in_section:
            continue
        if line.startswith("```"):
            if in_block:
                break  # the first code block only
            in_block = seen_block = True
            continue
        if not in_block:
            continue
        m = LAYOUT_LINE.match(line)
        if not m:
            continue
        folder, subfolder = m.group(1), m.group(2)
        if subfolder:
            if folder not in order:
                problems.append(f"{readme}:{number}: src/{folder}{subfolder} is listed before src/{folder}")
            continue
        if folder in order:
            problems.append(f"{readme}:{number}: src/{folder} is listed twice")
            continue
        order.append(folder)
    if not order:
        where = "its first code block" if seen_block else "a code block"
        return None, [f"{readme}: no layer order: the '## Layout' section needs src/FOLDER lines in {where}"]
    return order, problems


def target_folder(include, including_dir, src, folders):
    """The src folder an include names, or None for a header from outside src/."""
    if include.startswith("."):
        resolved = os.path.normpath(os.path.join(including_dir, include))
        rel = os.path.relpath(resolved, src)
        if rel.startswith(".."):
            return None, include
        return rel.split(os.sep)[0], rel.replace(os.sep, "/")
    first = include.split("/")[0]
    if "/" in include and first in folders:
        return first, include
    return None, include


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--root", default=default_root, help="folder with README.md and src/ (default: %(default)s)")
    args = parser.parse_args()
    root = args.root
    src = os.path.join(root, "src")
    readme = os.path.join(root, "README.md")

    order, problems = read_order(readme)
    if order is None:
        for p in problems:
            print(p)
        return 1
    layer = {folder: i + 1 for i, folder in enumerate(order)}
    if not os.path.isdir(src):
        print(f"{src}: no such folder")
        return 1
    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    for folder in folders:
        if folder not in layer:
            problems.append(f"src/{folder}: not in the layer order ({os.path.relpath(readme, root)}, '## Layout')")
    for folder in order:
        if folder not in folders:
            problems.append(f"src/{folder}: in the layer order but not a folder under src/")

    files = checked = 0
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            shown = "src/" + rel
            files += 1
            if "/" not in rel:
                if name.endswith(SOURCE_SUFFIXES):
                    problems.append(f"{shown}: a source file directly in src/, outside every layer")
                continue
            folder = rel.split("/")[0]
            try:
                text = open(path, encoding="utf-8", errors="replace").read()
            except OSError as e:
                problems.append(f"{shown}: cannot read ({e.strerror})")
                continue
            for number, line in enumerate(text.split("\n"), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target, named = target_folder(m.group(1), dirpath, src, folders)
                if target is None:
                    continue
                checked += 1
                if target == folder or folder not in layer or target not in layer:
                    continue  # own folder; an unlisted folder is reported once above
                if layer[target] > layer[folder]:
                    problems.append(f"{shown}:{number}: '{rel}' (layer {layer[folder]}) includes "
                                    f"'{named}' (layer {layer[target]})")

    if problems:
        for p in problems:
            print(p)
        print(f"check-layers: {len(problems)} problem{'s' if len(problems) != 1 else ''} "
              f"({files} files, {checked} includes checked, {len(order)} layers)")
        return 1
    print(f"check-layers: {files} files, {checked} includes checked, {len(order)} layers "
          f"({' < '.join(order)}): every include points down or within its folder")
    return 0


if __name__ == "__main__":
    sys.exit(main())
