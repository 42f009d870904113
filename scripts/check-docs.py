#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the documentation says what the code does (make check).

- The version: every "Driver Version:" and driver_version example in the
  docs is DRIVER_MAJOR.DRIVER_MINOR.0 of ppu_drv/ppu_drv.h, dkms.conf's
  PACKAGE_VERSION and the README's ppu/X.Y and ppu-X.Y are X.Y.
- The exit codes: the EXIT STATUS table of ppu-smi(1), the usage text and
  the exit enum of tools/ppu_smi.c name the same codes (a code documented
  but never returned, or returned but not documented, fails).
- Claims issue 33 found false and removed: none may come back, in any
  file the operator reads (README, Documentation/, the man pages, the
  headers and strings of the tools, the demo's narration). Each is a
  regular expression over the file with its whitespace squeezed, so a
  claim wrapped over two lines (or two table rows) is found too.

Prints "check-docs: ..." lines; exit status 1 on any finding.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# what an operator reads
DOCS = (["README.md", "dkms.conf", "tools/libppu/libppu.h", "tools/ppu_smi.c",
         "scripts/demo.sh", "scripts/demo-ecc.sh"] +
        sorted(glob.glob("Documentation/**/*.rst", root_dir=ROOT, recursive=True)) +
        sorted(glob.glob("Documentation/ABI/*", root_dir=ROOT)) +
        sorted(glob.glob("tools/man/*.rst", root_dir=ROOT)))

# (regular expression, why it is false). Matched case-insensitively over
# the text with runs of whitespace (and reST table bars) made one space.
REMOVED = [
    (r"gputop,? (and )?nvtop|nvtop (and|or) gputop|\(nvtop\)",
     "nvtop does not read ppu's fdinfo (igt's gputop does)"),
    (r"device_reset[^.]{0,60}zeroes the volatile counts|"
     r"also zeroes the volatile counts|"
     r"the volatile counts and reset_recommended start from zero",
     "device_reset zeroes ue_count_volatile only, not every volatile count"),
    (r"(since the driver loaded|events since the driver loaded)[^.]{0,12}"
     r"(,|\(or) (the last )?``?device_reset",
     "device_reset does not zero the CECC and parity volatile counts"),
    (r"aggregate includes the volatile|includes the volatile ones",
     "a UECC repeated on a retired page counts in the volatile count only"),
    (r"rates it at every load \(and ``device_reset``\)|"
     r"evaluated at load and at device_reset\. ",
     "the RMA verdict is rated again at run time, not only at load"),
    (r"get_recovery\**\\?\s?\(\)\s?unless root|"
     r"recovery[^.]{0,40}(from|parses) (root-only )?debugfs",
     "libppu reads recovery/ from world-readable sysfs, not debugfs"),
    (r"two from section 7",
     "the demo's two earlier UECC addresses come from sections 8 and 8b"),
    (r"fuser -v /dev/dri/card0 /dev/dri/renderD\*`*,? (finds the process|if)",
     "fuser lists every process that has the device open, not the holder"),
    (r"as dcgm-exporter labels a gpu: ``device``|(?<!pci_)bus_id=\\?\"",
     "the identity labels are gpu, serial and pci_bus_id"),
    (r"\(0 healthy, 1 warning, 2 rma\)",
     "ppu-smi exits 0 whatever the health; ppu-smi health 0, 1 or 7"),
    (r"on a fresh debian 12 machine \(root, or sudo\)",
     "make is not on a fresh Debian 12, and both commands need root"),
    (r"pci bus id \(empty for a platform device\)",
     "the bus id of a platform device is its name (ppu-sim.1.auto)"),
]


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def squeeze(text):
    text = re.sub(r"(?m)^\s*\|", " ", text)     # reST table bars
    return re.sub(r"\s+", " ", text)


def main():
    bad = 0

    def finding(msg):
        nonlocal bad
        bad += 1
        print("check-docs: " + msg)

    drv = read("ppu_drv/ppu_drv.h")
    major = re.search(r"#define DRIVER_MAJOR\s+(\d+)", drv).group(1)
    minor = re.search(r"#define DRIVER_MINOR\s+(\d+)", drv).group(1)
    mm = "%s.%s" % (major, minor)
    ver = mm + ".0"
    nver = 0
    for path in DOCS:
        text = read(path)
        for m in re.finditer(r"Driver Version:\s+(\S+)|driver_version[^\n]*?\"(\d+\.\d+\.\d+)\"|"
                             r"\((\*\*)(\d+\.\d+\.\d+)(\*\*)\)", text):
            v = m.group(1) or m.group(2) or m.group(4)
            if path == "tools/ppu_smi.c" and m.group(1):
                continue        # the format string itself
            nver += 1
            if v != ver:
                line = text.count("\n", 0, m.start()) + 1
                finding("%s:%d: version %s, the driver is %s" % (path, line, v, ver))
        for m in re.finditer(r"\bppu[/-](\d+\.\d+)\b|PACKAGE_VERSION=\"([^\"]*)\"", text):
            v = m.group(1) or m.group(2)
            nver += 1
            if v != mm:
                line = text.count("\n", 0, m.start()) + 1
                finding("%s:%d: package version %s, the driver is %s" % (path, line, v, mm))
    print("check-docs: %d version strings, each %s or %s" % (nver, ver, mm))

    # exit codes: the man page's table, the usage text, the enum
    smi = read("tools/ppu_smi.c")
    enum = set(int(v) for v in re.findall(r"\n\tEXIT_[A-Z_]+ = (\d+),", smi))
    man = read("tools/man/ppu-smi.1.rst")
    table = man.split("EXIT STATUS", 1)[1].split("SEE ALSO", 1)[0]
    documented = set(int(v) for v in re.findall(r"(?m)^(\d+)\s{2,}", table))
    usage = smi.split("static void usage(", 1)[1].split("\n}\n", 1)[0]
    usage = squeeze(re.sub(r"\"\s*\n\s*\"", "", usage))
    in_usage = set(int(v) for v in re.findall(r"(?<![\w-])(\d+) (?:success|healthy|warning|failure|invalid|not supported|no permission|no such|ppu\.ko|other)", usage))
    if not enum:
        finding("tools/ppu_smi.c: no EXIT_* enum found")
    for name, codes in (("ppu-smi(1) EXIT STATUS", documented),
                        ("ppu-smi -h", in_usage)):
        for c in sorted(codes - enum):
            finding("%s documents exit code %d, which ppu-smi never returns" % (name, c))
        for c in sorted(enum - codes):
            finding("ppu-smi returns exit code %d, which %s does not document" % (c, name))
    print("check-docs: exit codes %s in the code, the man page and -h" %
          " ".join(str(c) for c in sorted(enum)))

    # removed claims
    texts = {p: squeeze(read(p)) for p in DOCS}
    for rx, why in REMOVED:
        r = re.compile(rx, re.I)
        for path, text in texts.items():
            for m in r.finditer(text):
                finding("%s: \"%s\": %s" % (path, m.group(0), why))
    print("check-docs: %d removed claims searched in %d files" % (len(REMOVED), len(DOCS)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
