#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read the kmemleak reports of a VM serial log and fail on ours.

    scripts/vm/kmemleak-check.py <serial log>
    scripts/vm/kmemleak-check.py --self-test

guest-init.sh prints, with PPU_KMEMLEAK=1 (the debug kernel):

    PPU-VM: MODULE ppu 352256 0 - Live 0xffffffffc0200000 (O)
    PPU-VM: KMEMLEAK-BEGIN before-unload (41 s)
    unreferenced object 0xffff888012345600 (size 64):
      comm "ppu_basic", pid 123, jiffies 4294937296 (age 30.112s)
      hex dump (first 32 bytes):
        ...
      backtrace:
        [<00000000b5a1c2d3>] __kmem_cache_alloc_node+0x1a4/0x2f0
        [<0000000012345678>] ppu_ctx_create+0x45/0x300 [ppu]
    PPU-VM: KMEMLEAK-END before-unload

A report is ours when a frame of its backtrace is in one of our modules:
tagged [ppu], [ppu_sim] or [drm_sched_serial], or (the module unloaded,
so the frame prints as a bare address) an address inside a range where
one of them was loaded (the PPU-VM: MODULE lines), or any bare address in
the module area (a module unloaded since, as the reload flows do).
PPU_KMEMLEAK_MODULES overrides the module names (space separated).
Caveat: kmemleak symbolises a backtrace when it prints it, so the address
of code freed since (a module's init code, an unloaded module) shows as
whatever module now sits there: a leak made by another module's init can
be blamed on ours. Each report of ours is printed whole; judge it by its
other frames and its comm.

Prints one line per phase, each report of ours whole, and the first lines
of the others; exit status 1 if any report is ours, 0 otherwise (also
when the log has no kmemleak section).
"""
import os
import re
import sys

MODULES = os.environ.get('PPU_KMEMLEAK_MODULES',
                         'ppu ppu_sim drm_sched_serial').split()
# x86_64 module mapping space (MODULES_VADDR .. MODULES_END)
MOD_LO, MOD_HI = 0xffffffffa0000000, 0xffffffffff000000

KLINE = re.compile(r'^\[ *\d+\.\d+\] ')
BEGIN = re.compile(r'^PPU-VM: KMEMLEAK-BEGIN (\S+)')
END = re.compile(r'^PPU-VM: KMEMLEAK-END (\S+)')
# /proc/modules: name size refcount deps state address [taints]
MODLINE = re.compile(r'^PPU-VM: MODULE (\S+) (\d+) \S+ \S+ \S+ (0x[0-9a-f]+)')
OBJ = re.compile(r'^unreferenced object (0x[0-9a-f]+) \(size (\d+)\):')
# the address is hashed, or (____ptrval____) before the RNG is ready
FRAME = re.compile(r'^\s*\[<[^>]*>\] (.*)$')
TAG = re.compile(r'\[(\w+)\]\s*$')
BARE = re.compile(r'^(0x[0-9a-f]+)\s*$')


def parse(lines):
    """Return ({name: [(lo, hi)]}, [(phase, [report lines...]), ...])."""
    ranges = {}
    phases = []
    cur = None
    for raw in lines:
        line = raw.rstrip('\r\n')
        m = MODLINE.match(line)
        if m:
            lo = int(m.group(3), 16)
            if lo:
                ranges.setdefault(m.group(1), set()).add((lo, lo + int(m.group(2))))
            continue
        m = BEGIN.match(line)
        if m:
            cur = (m.group(1), [])
            phases.append(cur)
            continue
        if END.match(line):
            cur = None
            continue
        if cur is None or KLINE.match(line):
            continue
        if OBJ.match(line):
            cur[1].append([line])
        elif cur[1]:
            cur[1][-1].append(line)
    return ranges, phases


def ours(report, ranges):
    """Why the report names one of our modules, or None."""
    for line in report:
        m = FRAME.match(line)
        if not m:
            continue
        frame = m.group(1).strip()
        t = TAG.search(frame)
        if t and t.group(1) in MODULES:
            return frame
        b = BARE.match(frame)
        if b:
            addr = int(b.group(1), 16)
            for name, rs in ranges.items():
                if name in MODULES and any(lo <= addr < hi for lo, hi in rs):
                    return '%s (in %s, unloaded since)' % (frame, name)
            if MOD_LO <= addr < MOD_HI:
                return '%s (in a module unloaded since)' % frame
    return None


def check(lines, out=sys.stdout):
    ranges, phases = parse(lines)
    bad = 0
    for phase, reports in phases:
        mine = [(r, ours(r, ranges)) for r in reports]
        mine = [(r, why) for r, why in mine if why]
        print('kmemleak: %s: %d suspected leaks, %d in our modules'
              % (phase, len(reports), len(mine)), file=out)
        for r, why in mine:
            print('kmemleak:   OURS (%s):' % why, file=out)
            for line in r:
                print('kmemleak:     ' + line, file=out)
        others = [r for r in reports if not ours(r, ranges)]
        for r in others[:5]:
            frames = [FRAME.match(x).group(1) for x in r if FRAME.match(x)]
            print('kmemleak:   not ours: %s %s' % (r[0].split(' (')[0].split()[-1],
                                                    ' < '.join(frames[1:4])), file=out)
        if len(others) > 5:
            print('kmemleak:   ... %d more not ours' % (len(others) - 5), file=out)
        bad += len(mine)
    return bad


CANNED = r"""PPU-VM: MODULE drm_sched_serial 49152 1 ppu, Live 0xffffffffc0000000 (O)
PPU-VM: MODULE ppu_sim 122880 1 ppu, Live 0xffffffffc0010000 (O)
PPU-VM: MODULE ppu 352256 0 - Live 0xffffffffc0100000 (O)
PPU-VM: KMEMLEAK-BEGIN before-unload (40 s)
unreferenced object 0xffff888003a1c000 (size 2048):
  comm "swapper/0", pid 1, jiffies 4294892345 (age 120.000s)
  hex dump (first 32 bytes):
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................
  backtrace:
    [<000000007e2b8f5a>] __kmem_cache_alloc_node+0x1a4/0x2f0
    [<00000000d3c4b5a6>] acpi_os_allocate_zeroed+0x2c/0x40
[   98.123456] some kernel line in between
unreferenced object 0xffff888012345600 (size 64):
  comm "ppu_basic", pid 123, jiffies 4294937296 (age 30.112s)
  hex dump (first 32 bytes):
    6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b  kkkkkkkkkkkkkkkk
  backtrace:
    [<(____ptrval____)>] __kmem_cache_alloc_node+0x1a4/0x2f0
    [<(____ptrval____)>] kmalloc_trace+0x26/0x60
    [<(____ptrval____)>] ppu_ctx_create+0x45/0x300 [ppu]
    [<(____ptrval____)>] drm_ioctl_kernel+0x150/0x230
PPU-VM: KMEMLEAK-END before-unload
PPU-VM: RMMOD OK
PPU-VM: KMEMLEAK-BEGIN after-unload (38 s)
unreferenced object 0xffff888012349900 (size 128):
  comm "insmod", pid 90, jiffies 4294900000 (age 80.000s)
  backtrace:
    [<00000000b5a1c2d3>] __kmem_cache_alloc_node+0x1a4/0x2f0
    [<0000000012345678>] 0xffffffffc0012345
PPU-VM: KMEMLEAK-END after-unload
"""


def self_test():
    import io
    out = io.StringIO()
    n = check(CANNED.splitlines(), out)
    text = out.getvalue()
    expect = [
        'kmemleak: before-unload: 2 suspected leaks, 1 in our modules',
        'kmemleak:   OURS (ppu_ctx_create+0x45/0x300 [ppu]):',
        'kmemleak: after-unload: 1 suspected leaks, 1 in our modules',
        'kmemleak:   OURS (0xffffffffc0012345 (in ppu_sim, unloaded since)):',
    ]
    ok = n == 2 and all(e in text.splitlines() for e in expect)
    clean = io.StringIO()
    ok = ok and check([x for x in CANNED.splitlines() if '[ppu]' not in x and
                       '0xffffffffc0012345' not in x], clean) == 0
    sys.stdout.write(text)
    print('kmemleak-check: self-test %s' % ('PASS' if ok else 'FAIL'))
    return 0 if ok else 1


def main(argv):
    if len(argv) == 2 and argv[1] == '--self-test':
        return self_test()
    if len(argv) != 2:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    with open(argv[1], errors='replace') as f:
        bad = check(f)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
