# SPDX-License-Identifier: MIT
"""isa_order.py - satbox's paths as its registry lists them (src/isa.h's SBX_ISAS), for the summaries, the plot and the engines."""
import os
import re

_ISA_H = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "isa.h")

with open(_ISA_H) as _f:
    # Rows X(name, ENUM, width, rank, arch, detect, flags), one per path, in the order of satbox_isa.
    ISA_ROWS = [{"name": m[0], "width": int(m[1]), "rank": int(m[2]), "arch": m[3]}
                for m in re.findall(r"^\s*X\((\w+), \w+, (\d+), (\d+), (\w+), \w+, \"[^\"]*\"\)", _f.read(), re.M)]

ISA_ORDER = [r["name"] for r in ISA_ROWS]
