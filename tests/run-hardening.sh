# tests/run-hardening.sh - the hardening stages of tests/run (asan, valgrind, fuzz, tsan); sourced by it, bash.
# SPDX-License-Identifier: MIT
# Defines stage_asan, stage_valgrind, stage_fuzz, stage_tsan, which tests/run calls.
# Uses what tests/run defines: ROOT, QUICK, hard_stage, run_meson, LOGS, STAGE_FAIL.
#   asan      whole meson suite, gcc, -fsanitize=address,undefined (own build dir build-asan)
#   valgrind  the whole suite under memcheck, on the native build dir `build` (the dispatcher
#             leaves AVX-512 out under valgrind, which cannot execute it)
#   fuzz      tests/fuzz_diff.c for 45 s, clang-14 + libFuzzer + ASan/UBSan (build-fuzz)
#   tsan      tests/test_threads.c under ThreadSanitizer, clang-14 (build-tsan)
# The sanitizer build dirs leave out the portable (SIMDE_NO_NATIVE) kernels, which take most of
# a build's time and are cross-checked by the native stage; they build only what they run.

stage_asan() {
    # Every test, every array access checked; leaks too. Sizes shrunk: checkasm ~0.5M pairs a
    # path, SATBOX_QUICK for the others (as under qemu). -O1 -g1 (line tables only): the
    # kernels build 4x faster than at -O2 -g (variable tracking of the inlined SIMDe code), and
    # -O1 is what ASan's authors advise; asserts stay on.
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    export SATBOX_CHECK_PAIRS=${SATBOX_CHECK_PAIRS_ASAN:-500000} SATBOX_QUICK=1
    TEST_ARGS="--timeout-multiplier 3" run_meson asan build-asan -Db_sanitize=address,undefined -Db_lundef=false \
        -Doptimization=1 -Ddebug=false -Dc_args=-g1 -Dcpp_args=-g1 -Dportable_kernels=disabled -Dbench=disabled
    unset ASAN_OPTIONS UBSAN_OPTIONS SATBOX_CHECK_PAIRS SATBOX_QUICK
}

stage_valgrind() {
    if ! command -v valgrind >/dev/null; then
        echo "== [valgrind] valgrind not installed: stage FAILED"; STAGE_FAIL=$((STAGE_FAIL+1)); return
    fi
    # The whole suite under memcheck, on the native release build dir (same configuration as
    # the native stage, which has built it already). Sizes shrunk, the native stage runs them
    # in full: checkasm 30K pairs a path, checkasm2d 20K, check_contacts 10K, the stacking test
    # 120 steps, SATBOX_QUICK for the others. The dispatcher leaves AVX-512 out under valgrind
    # (test_tails checks that), so the -avx512 per-path tests report SKIP here.
    SATBOX_CHECK_PAIRS=${SATBOX_CHECK_PAIRS_VALGRIND:-30000} SATBOX_CHECK2D_PAIRS=20000 \
    SATBOX_CONTACT_PAIRS=10000 SATBOX_STACK_STEPS=120 SATBOX_QUICK=1 \
    hard_stage valgrind build testlog-valgrind "" -Dbuildtype=release \
        -- --no-suite fuzz --no-suite doc --timeout-multiplier 4 \
        --wrapper "valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect -q"
}

stage_fuzz() {
    # Coverage (minus comparison tracing, which would triple the time per input) and ASan/UBSan
    # in the library too; only the fuzz targets are built. 45 s of fuzzing (20 s with --quick).
    # UBSan's pointer-overflow check is left out here: on the unrolled kernels it made clang
    # take 147 s instead of 37 s for kernel_avx2.c alone (the stage's critical path); the asan
    # stage keeps it (gcc, -fsanitize=address,undefined) over the whole suite.
    local FUZZ_ARGS=()
    if [ "$QUICK" = 1 ]; then FUZZ_ARGS=(--test-args=-max_total_time=20); fi
    CC=clang-14 CXX=clang++-14 hard_stage fuzz build-fuzz testlog "tests/fuzz_diff tests/fuzz2d" \
        -Dfuzz=enabled -Db_sanitize=address,undefined -Db_lundef=false -Dportable_kernels=disabled \
        -Dbench=disabled -Doptimization=2 -Ddebug=false \
        "-Dc_args=-fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp -fno-sanitize=pointer-overflow" \
        -- --suite fuzz "${FUZZ_ARGS[@]}"
    grep -hE '^Done [0-9]+ runs|stat::average_exec_per_sec' build-fuzz/meson-logs/testlog.txt 2>/dev/null | sed 's/^/   /'
}

stage_tsan() {
    # Only the thread tests (and the library they link) are built with ThreadSanitizer.
    TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 CC=clang-14 CXX=clang++-14 \
    hard_stage tsan build-tsan testlog "tests/test_threads tests/test_threads2d tests/test_contacts_threads" \
        -Db_sanitize=thread -Db_lundef=false -Dportable_kernels=disabled -Dbench=disabled \
        -Doptimization=1 -Ddebug=true \
        -- --suite threads --timeout-multiplier 3
}
