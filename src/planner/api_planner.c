/* api_planner.c - the planner entry points: the world in the caller's memory, the configuration and motion queries (argument checks, then the active path). */
/* SPDX-License-Identifier: MIT */
#include "planner/planner.h"
#include "box3d/box3d.h"

/* Floats from one world row to the next: m rounded up to 16 (the widest step), so that a step
 * reads whole vectors of obstacles. */
static size_t world_stride(size_t m) { return (m + 15u) & ~(size_t)15u; }

size_t satbox_world_bytes(size_t m)
{
    if (m > SATBOX_PLAN_MAX_OBSTACLES)
        return 0;
    return world_stride(m) * SBX_WR_ROWS * sizeof(float) + 64u; /* + 64: the rows start 64-byte aligned */
}

ptrdiff_t satbox_world_init(satbox_world *world, void *mem, size_t bytes, const satbox_boxes *obstacles, size_t m)
{
    if (!world || !mem)
        return SATBOX_ERR_NULL;
    if (m > SATBOX_PLAN_MAX_OBSTACLES)
        return SATBOX_ERR_COUNT;
    sbx_spans s = {.nin = 0};
    int e = m ? sbx_check_boxes(obstacles, m, &s) : SATBOX_OK;
    if (e)
        return e;
    if (bytes < satbox_world_bytes(m))
        return SATBOX_ERR_ARG;
    sbx_add_out(&s, mem, bytes);
    sbx_add_out(&s, world, sizeof *world);
    if (sbx_aliased(&s))
        return SATBOX_ERR_ALIAS;
    for (size_t i = 0; i < m; i++)
        if (!sbx_box_ok(obstacles, i))
            return SATBOX_ERR_ARG;
    float *rows = (float *)(((uintptr_t)mem + 63u) & ~(uintptr_t)63u);
    size_t stride = world_stride(m);
    sbx_world_rows(rows, stride, obstacles, m);
    *world = (satbox_world){.n = m, .rows = rows, .stride = stride};
    return (ptrdiff_t)m;
}

/* 1 when [lo, hi) meets the `bytes` bytes at p. */
static int meets(uintptr_t lo, uintptr_t hi, const void *p, size_t bytes)
{
    return p && bytes && lo < (uintptr_t)p + bytes && (uintptr_t)p < hi;
}

/* The checks of both queries: 1 nothing to do (k = 0), 0 run, else the error. The link arrays are
 * checked one by one (a robot may have more than the span table holds), `out` against each. */
static SBX_NOINLINE int plan_check(const sbx_pjob *job, unsigned allowed)
{
    if (job->k == 0)
        return 1;
    if (job->k > SATBOX_MAX_COUNT || job->nlinks > SATBOX_PLAN_MAX_LINKS)
        return SATBOX_ERR_COUNT;
    if (job->flags & ~allowed)
        return SATBOX_ERR_ARG;
    if ((job->nlinks && !job->links) || (job->nself && !job->self))
        return SATBOX_ERR_NULL;
    if (job->world && job->world->n && !job->world->rows)
        return SATBOX_ERR_NULL;
    for (size_t p = 0; p < job->nself; p++)
        if (job->self[p].a >= job->nlinks || job->self[p].b >= job->nlinks)
            return SATBOX_ERR_INDEX;
    /* each link's 15 arrays: present, and apart from `out` (without a span table per link: a
     * one-configuration call must not pay more for its checks than for its answer) */
    uintptr_t olo = (uintptr_t)job->out, ohi = olo + job->k;
    size_t bytes = job->k * sizeof(float);
    for (size_t l = 0; l < job->nlinks; l++) {
        const satbox_boxes *b = &job->links[l];
        const float *a[15] = {b->center[0], b->center[1], b->center[2], b->half[0], b->half[1], b->half[2]};
        for (int q = 0; q < 9; q++)
            a[6 + q] = b->axis[q / 3][q % 3];
        for (int q = 0; q < 15; q++) {
            if (!a[q])
                return SATBOX_ERR_NULL;
            if (job->out && meets(olo, ohi, a[q], bytes))
                return SATBOX_ERR_ALIAS;
        }
    }
    if (job->out && (meets(olo, ohi, job->links, job->nlinks * sizeof *job->links) ||
                     meets(olo, ohi, job->self, job->nself * sizeof *job->self) ||
                     (job->world && meets(olo, ohi, job->world->rows, job->world->stride * SBX_WR_ROWS * sizeof(float)))))
        return SATBOX_ERR_ALIAS;
    return SATBOX_OK;
}

ptrdiff_t satbox_configs(const satbox_world *world, const satbox_boxes *links, size_t nlinks, const satbox_pair *self,
                         size_t nself, size_t k, unsigned flags, uint8_t *out)
{
    sbx_pjob job = {world, links, nlinks, self, nself, k, flags, out};
    if (k && !out)
        return SATBOX_ERR_NULL;
    int e = plan_check(&job, SATBOX_PLAN_CONSERVATIVE);
    if (e)
        return e > 0 ? 0 : e;
    return sbx_active()->configs(&job);
}

ptrdiff_t satbox_motion(const satbox_world *world, const satbox_boxes *links, size_t nlinks, const satbox_pair *self,
                        size_t nself, size_t k, unsigned flags)
{
    sbx_pjob job = {world, links, nlinks, self, nself, k, flags, NULL};
    int e = plan_check(&job, SATBOX_PLAN_CONSERVATIVE | SATBOX_PLAN_ANY);
    if (e)
        return e > 0 ? 0 : e;
    return sbx_active()->configs(&job);
}
