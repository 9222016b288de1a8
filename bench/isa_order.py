# SPDX-License-Identifier: MIT
"""isa_order.py - satbox's paths as its registry lists them (src/core/isa.h's SBX_ISAS), for the summaries, the plot and the engines."""
import os
import re

_ISA_H = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "core", "isa.h")

with open(_ISA_H) as _f:
    # Rows X(name, ENUM, width, rank, arch, detect, flags), one per path, in the order of satbox_isa.
    ISA_ROWS = [{"name": m[0], "width": int(m[1]), "rank": int(m[2]), "arch": m[3]}
                for m in re.findall(r"^\s*X\((\w+), \w+, (\d+), (\d+), (\w+), \w+, \"[^\"]*\"\)", _f.read(), re.M)]

ISA_ORDER = [r["name"] for r in ISA_ROWS]
# Narrowest first, by rank (a path appended to the registry need not be the widest): the last
# present is the one ratios refer to. Equal ranks (SSE4.1, NEON) never meet on one CPU.
ISA_BY_RANK = [r["name"] for r in sorted(ISA_ROWS, key=lambda r: r["rank"])]
