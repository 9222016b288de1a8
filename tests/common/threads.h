/* threads.h - a test's worker on several threads at once, their first calls released together. */
/* SPDX-License-Identifier: MIT */
/* For the thread tests (test_threads, test_threads2d): header-only, so that only the programs
 * that link the threads library include it. */
#ifndef SATBOX_TEST_THREADS_H
#define SATBOX_TEST_THREADS_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define TB_MAX_THREADS 16

/* Every worker waits here before its first satbox call, so that the calls of all threads race
 * (the lazy choice of the ISA above all); tb_together() sets it up for its threads. */
static pthread_barrier_t tb_start;

/* Runs fn on n threads (n <= TB_MAX_THREADS), thread k with the argument (char *)args + k * stride
 * (its element of an array of worker structs), and returns when all of them have ended.
 * Exits 2 (a failure of the test, not of satbox) when the barrier or a thread cannot be made. */
static inline void tb_together(int n, void *(*fn)(void *), void *args, size_t stride)
{
    pthread_t tid[TB_MAX_THREADS];
    if (n > TB_MAX_THREADS || pthread_barrier_init(&tb_start, NULL, (unsigned)n) != 0) {
        fprintf(stderr, "pthread_barrier_init failed\n");
        exit(2);
    }
    for (int k = 0; k < n; k++)
        if (pthread_create(&tid[k], NULL, fn, (char *)args + (size_t)k * stride) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            exit(2);
        }
    for (int k = 0; k < n; k++)
        pthread_join(tid[k], NULL);
    pthread_barrier_destroy(&tb_start);
}

#endif
