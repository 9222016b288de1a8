/* peer_missing.h - the main() of a test built without the peer library it checks against: skipped (77), or failed under SATBOX_REQUIRE_PEERS=1. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_PEER_MISSING_H
#define SATBOX_TEST_PEER_MISSING_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tests/run installs the peers and sets SATBOX_REQUIRE_PEERS=1: a test built without its peer then
 * fails instead of counting as skipped. `test`: the program's name; `packages`: what to install. */
static inline int peer_missing(const char *test, const char *packages)
{
    const char *require = getenv("SATBOX_REQUIRE_PEERS");
    if (require && !strcmp(require, "1")) {
        printf("%s: built without %s (not found when the build was configured), and SATBOX_REQUIRE_PEERS=1 asks for "
               "every peer: failed (install it, then reconfigure or delete the build dir)\n",
               test, packages);
        return 1;
    }
    printf("%s: built without %s: skipped\n", test, packages);
    return 77;
}

#endif
