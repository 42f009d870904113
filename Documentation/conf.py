# SPDX-License-Identifier: GPL-2.0
# Sphinx configuration of the PPU driver documentation (`make htmldocs`).
# reStructuredText plus the kernel's own kernel-doc extension, which turns
# `.. kernel-doc:: include/uapi/drm/ppu_drm.h` into the uAPI reference.
# The extension and scripts/kernel-doc are not copied here: they are used
# from a linux-source-6.1 tree, the one scripts/htmldocs.sh finds or
# extracts and passes in PPU_KDOC_SRC (wired as in the kernel's own
# Documentation/conf.py: kerneldoc_bin, kerneldoc_srctree).
import os
import sys

_kdoc_src = os.environ.get("PPU_KDOC_SRC",
                           os.path.join(os.environ.get("PPU_CACHE",
                                                       "/var/cache/ppu"),
                                        "linux-source-6.1"))
if not os.path.isfile(os.path.join(_kdoc_src, "Documentation", "sphinx",
                                   "kerneldoc.py")):
    raise RuntimeError("no kernel-doc extension under %s: build the "
                       "documentation with `make htmldocs` "
                       "(scripts/htmldocs.sh)" % _kdoc_src)
sys.path.insert(0, os.path.join(_kdoc_src, "Documentation", "sphinx"))

project = "PPU driver"
copyright = "2026, The PPU driver authors"
author = "The PPU driver authors"

extensions = ["kerneldoc"]
kerneldoc_bin = os.path.join(_kdoc_src, "scripts", "kernel-doc")
# the tree the paths of `.. kernel-doc::` are relative to: ours
kerneldoc_srctree = os.path.abspath(os.path.join(os.path.dirname(__file__),
                                                 ".."))
master_doc = "index"
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["ABI", "_build"]
html_theme = "alabaster"
html_static_path = []
highlight_language = "none"
# kernel-doc emits C declarations (structs, enums, macros)
primary_domain = "c"
