# SPDX-License-Identifier: GPL-2.0
# Sphinx configuration of the PPU driver documentation (`make htmldocs`).
# Plain reStructuredText: no kernel-doc extension, no third-party theme.
project = "PPU driver"
copyright = "2026, The PPU driver authors"
author = "The PPU driver authors"

extensions = []
master_doc = "index"
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["ABI", "_build"]
html_theme = "alabaster"
html_static_path = []
highlight_language = "none"
