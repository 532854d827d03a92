#!/usr/bin/env python3
"""Every kind of SVG dtcalc draws, checked as a reader would get it.

Runs `predict --plot`, `sweep --plot` (a spec with two cases, and a batch
file), `collective --plot` and `validate --plot`, adds the pictures committed
under docs/img, and checks each SVG:
  - it parses as XML (xml.etree), its root is an SVG <svg> whose width and
    height match its viewBox, and no attribute holds nan or inf;
  - every horizontal <text> fits inside the picture, its width estimated as
    characters x font size x 0.6 (report/svg_chart.h's rule) and placed by its
    text-anchor;
  - Debian's rsvg-convert (librsvg2-bin) renders it to a PNG without a word
    on stderr, and the PNG has the SVG's size.

Usage: svg_render_test.py DTCALC_BINARY SOURCE_DIR. Exits 1 listing every
problem; rsvg-convert missing is a problem (scripts/install-deps.sh installs it)."""
import glob, os, re, shutil, struct, subprocess, sys, tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def text_of(element):
    return "".join(element.itertext())


def check_svg(path, png_dir, problems):
    where = os.path.relpath(path)
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        problems.append(f"{where}: not well-formed XML: {e}")
        return
    if root.tag != SVG + "svg":
        problems.append(f"{where}: the root is <{root.tag}>, not an SVG <svg>")
        return
    try:
        width, height = float(root.get("width")), float(root.get("height"))
        view = [float(v) for v in root.get("viewBox").split()]
    except (TypeError, ValueError):
        problems.append(f"{where}: width, height or viewBox missing or not numbers")
        return
    if view != [0, 0, width, height]:
        problems.append(f"{where}: viewBox {view} does not match {width} x {height}")
    default_size = float(root.get("font-size", "12"))
    for element in root.iter():
        for name, value in element.attrib.items():
            if re.search(r"\b(nan|inf)\b", value, re.IGNORECASE):
                problems.append(f"{where}: <{element.tag[len(SVG):]} {name}=\"{value}\">")
        if element.tag != SVG + "text" or element.get("transform"):
            continue
        text = text_of(element)
        size = float(element.get("font-size", default_size))
        x, y = float(element.get("x", "0")), float(element.get("y", "0"))
        w = len(text) * size * 0.6
        anchor = element.get("text-anchor", "start")
        left = x - (w if anchor == "end" else w / 2 if anchor == "middle" else 0)
        if left < -0.5 or left + w > width + 0.5 or y < size * 0.7 or y > height + 0.5:
            problems.append(f"{where}: text '{text}' ({left:.0f}..{left + w:.0f}, y {y:.0f}) leaves the "
                            f"{width:.0f} x {height:.0f} picture")
    png = os.path.join(png_dir, f"{len(os.listdir(png_dir))}.png")
    r = subprocess.run(["rsvg-convert", path, "-o", png], capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        problems.append(f"{where}: rsvg-convert exited {r.returncode}: {r.stderr.strip()}")
        return
    with open(png, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        problems.append(f"{where}: rsvg-convert wrote no PNG")
        return
    png_w, png_h = struct.unpack(">II", head[16:24])
    if (png_w, png_h) != (round(width), round(height)):
        problems.append(f"{where}: the PNG is {png_w} x {png_h}, the SVG {width} x {height}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, source = sys.argv[1], sys.argv[2]
    if shutil.which("rsvg-convert") is None:
        sys.exit("rsvg-convert not found: install librsvg2-bin (scripts/install-deps.sh does)")
    out = tempfile.mkdtemp(prefix="dtcalc-svg-")
    runs = [
        ["predict", "--scenario", "validation/scenarios/t3.2-gpt3-175b-pp8-tp8-64xh100.toml", "--plot", f"{out}/predict.svg"],
        ["predict", "--model", "llama2-70b", "--preset", "hgx-h100", "--tp", "8", "--pp", "1", "--gbs", "64",
         "--seq", "4096", "--plot", f"{out}/predict-does-not-fit.svg"],
        ["predict", "--model", "llama2-70b", "--preset", "lab-system1", "--tp", "8", "--gbs", "64", "--seq", "1024",
         "--plot", f"{out}/predict-no-capacity.svg"],
        ["sweep", "--model", "llama2-70b", "--preset", "lab-system1", "--gbs", "64", "--seq", "1024", "--tp", "1..8",
         "--pp", "1,2", "--quiet", "-o", os.devnull, "--plot", f"{out}/sweep-no-capacity.svg"],
        ["sweep", "examples/lab-dse/lab-dse.toml", "--quiet", "-o", os.devnull, "--plot", f"{out}/sweep-cases.svg"],
        ["sweep", "--model", "llama2-70b", "--preset", "h100-ib-ndr400", "--nodes", "8", "--gbs", "512", "--seq", "4096",
         "--tp", "1..8", "--pp", "1..8", "--mbs", "1,2", "--quiet", "-o", os.devnull, "--plot", f"{out}/sweep.svg"],
        ["sweep", "--input", "examples/batch/plans.csv", "--keep-going", "--quiet", "-o", os.devnull, "--plot",
         f"{out}/sweep-batch.svg"],
        ["collective", "all-reduce", "--size", "1KiB:1GiB:x8", "--preset", "lab-system1", "--plot", f"{out}/collective.svg"],
        ["collective", "all-gather", "--size", "1MiB", "--preset", "hgx-h100", "--plot", f"{out}/collective-one.svg"],
        ["validate", "--plot", f"{out}/validate"],
    ]
    problems = []
    for args in runs:
        r = subprocess.run([binary] + args, cwd=source, capture_output=True, text=True)
        if r.returncode not in (0, 2) or not glob.glob(args[-1] + ("/*.svg" if args[0] == "validate" else "")):
            problems.append(f"dtcalc {' '.join(args)}: exit {r.returncode}, no SVG written: {r.stderr.strip()[:300]}")
    files = sorted(glob.glob(f"{out}/*.svg") + glob.glob(f"{out}/validate/*.svg") +
                   glob.glob(os.path.join(source, "docs", "img", "**", "*.svg"), recursive=True))
    os.makedirs(f"{out}/png")
    for path in files:
        check_svg(path, f"{out}/png", problems)
    for p in problems:
        print(p)
    print(f"svg_render: {len(files)} SVGs checked, {len(problems)} problems")
    shutil.rmtree(out, ignore_errors=True)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
