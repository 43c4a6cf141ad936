#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Renders the HTML reports of `npu-pipeline run -o` and `npu-pipeline compare -o` in headless Chromium and
checks them: the pages load without console errors, the DOM has the chart titles, axis ticks and tables,
and the screenshots show the charts drawn. Exits 77 (skipped) when no Chromium is installed, unless
NPU_REQUIRE_BROWSER=1 (CI's browser stage), where a missing browser is a failure.

  html_in_browser.py BUILD_DIR WORK_DIR [--screenshots DIR]

With --screenshots, the screenshots are also copied to DIR as report-run.png and report-compare.png
(docs/ holds the ones made this way)."""

import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

SKIP = 77
SOURCE = Path(__file__).resolve().parents[2]
CHART_BLUE = (0x2F, 0x6D, 0xB5)  # html::kColourA and the compute colour of the cycle stack
CHART_ORANGE = (0xE0, 0x81, 0x2C)  # html::kColourB


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def find_browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)
    if result.returncode != 0:
        fail("%s exited %d\n%s%s" % (" ".join(map(str, command)), result.returncode, result.stdout, result.stderr))
    return result


def browse(browser, page, *arguments):
    """Runs headless Chromium on a page; returns (stdout, console lines of stderr)."""
    command = [browser, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
               "--enable-logging=stderr", "--v=0", "--user-data-dir=" + str(page.parent / "chromium-profile"),
               *arguments, page.as_uri()]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        fail("chromium exited %d on %s\n%s" % (result.returncode, page, result.stderr[-3000:]))
    console = [line for line in result.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    return result.stdout, console


def png_colours(path):
    """The set of RGB colours of a PNG (8-bit RGB or RGBA, non-interlaced, as Chromium writes them)."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s is not a PNG" % path)
    offset, idat, header = 8, b"", None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    width, height, depth, colour_type = header[0], header[1], header[2], header[3]
    if depth != 8 or colour_type not in (2, 6):
        fail("%s: unexpected PNG format (depth %d, colour type %d)" % (path, depth, colour_type))
    channels = 3 if colour_type == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    colours = set()
    position = 0
    for _ in range(height):
        kind = raw[position]
        line = bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - up_left
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - up_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
                line[i] = (line[i] + predictor) & 0xFF
        for i in range(0, stride, channels * 2):  # every other pixel is enough to find bar colours
            colours.add(bytes(line[i:i + 3]))
        previous = line
    return {tuple(colour) for colour in colours}


def check_page(browser, page, expected, colours, screenshot, height):
    dom, console = browse(browser, page, "--dump-dom")
    if console:
        fail("%s: console messages:\n%s" % (page.name, "\n".join(console)))
    for description, pattern, minimum in expected:
        found = len(re.findall(pattern, dom))
        if found < minimum:
            fail("%s: expected at least %d of %s (/%s/), found %d" % (page.name, minimum, description, pattern, found))
    _, console = browse(browser, page, "--screenshot=" + str(screenshot), "--window-size=1400,%d" % height)
    if console:
        fail("%s: console messages while rendering:\n%s" % (page.name, "\n".join(console)))
    if not screenshot.is_file():
        fail("no screenshot of " + page.name)
    seen = png_colours(screenshot)
    for colour in colours:
        if colour not in seen:
            fail("%s: the screenshot shows no pixel of colour #%02x%02x%02x: a chart was not drawn" %
                 ((page.name,) + colour))
    print("ok: %s rendered (%d chart titles, %d colours), screenshot %s" %
          (page.name, len(re.findall(r"<figcaption>", dom)), len(seen), screenshot))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir", type=Path)
    parser.add_argument("work_dir", type=Path)
    parser.add_argument("--screenshots", type=Path)
    options = parser.parse_args()
    browser = find_browser()
    if browser is None:
        if os.environ.get("NPU_REQUIRE_BROWSER") == "1":
            fail("no chromium installed (apt-get install chromium)")
        print("skipped: no chromium installed")
        return SKIP
    binaries = options.build_dir.resolve() / "bin"
    work = options.work_dir.resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    model = work / "mobilenet_v2.tflite"
    run([binaries / "npu-model-gen", "mobilenet-v2", "--alpha", "0.5", "--resolution", "128", "--blocks", "10",
         "--classes", "10", "-o", model])
    reference = SOURCE / "configs" / "reference"
    # run -o with a reference pipeline writes the HTML report without being asked.
    run([binaries / "npu-pipeline", "run", reference / "C1-cascade.yaml", model, "-o", work / "run"])
    run_page = work / "run" / "mobilenet_v2.html"
    if not run_page.is_file():
        fail("run -o with C1-cascade.yaml wrote no %s" % run_page.name)
    compare = subprocess.run([binaries / "npu-pipeline", "compare", reference / "C1-cascade.yaml",
                              reference / "C1-dp.yaml", model, "-o", work / "compare"],
                             capture_output=True, text=True, timeout=600)
    compare_page = work / "compare" / "compare.html"
    if compare.returncode != 0 or not compare_page.is_file():
        fail("compare exited %d\n%s%s" % (compare.returncode, compare.stdout, compare.stderr))
    layers = len(re.findall(r"<tr><td>\d+</td>", run_page.read_text()))
    check_page(browser, run_page, [
        ("chart titles", r"<figcaption>mobilenet_v2: cycles per layer, by what bounds them</figcaption>", 1),
        ("chart titles", r"<figcaption>mobilenet_v2: SRAM in use over the schedule</figcaption>", 1),
        ("y axis ticks", r'<text class="tick"[^>]*text-anchor="end">[0-9.]+[kM]?</text>', 8),
        ("x axis ticks", r'<text class="tick"[^>]*text-anchor="middle">\d+</text>', 6),
        ("axis titles", r'<text class="axis-label"', 4),
        ("SRAM limit or peak lines", r'<line class="level"', 1),
        ("Vela's summary", r"Total cycles</td>", 1),
        ("layer rows", r"<tr><td>\d+</td>", max(layers, 10)),
    ], [CHART_BLUE], work / "report-run.png", 2600)
    check_page(browser, compare_page, [
        ("chart titles", r"<figcaption>mobilenet_v2: cycles per layer, A and B side by side</figcaption>", 1),
        ("chart titles", r"<figcaption>mobilenet_v2: cycles of B minus cycles of A, per layer</figcaption>", 1),
        ("chart titles", r"<figcaption>mobilenet_v2: SRAM in use over the schedule, A and B</figcaption>", 1),
        ("x axis ticks", r'<text class="tick"[^>]*text-anchor="middle">\d+</text>', 9),
        ("figures of the text comparison", r'<tr data-figure="', 6),
        ("aligned layer rows", r'<tr data-a="\d*" data-b="\d*">', 10),
    ], [CHART_BLUE, CHART_ORANGE], work / "report-compare.png", 2400)
    if options.screenshots:
        options.screenshots.mkdir(parents=True, exist_ok=True)
        for name in ("report-run.png", "report-compare.png"):
            shutil.copyfile(work / name, options.screenshots / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
