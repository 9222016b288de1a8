/* world_ode.c - an ODE world (sweep-and-prune, QuickStep) whose box-box narrow phase is ODE's dCollide or one satbox call per step. */
/* SPDX-License-Identifier: MIT */
/* Usage:
 *   world_ode --scene pile|pyramid --n N --steps S --seed K --narrow ode|satbox [--isa NAME]
 *             [--damping] [--cpu-time] [--json]
 *   world_ode --check     the meson test (see check_main below)
 *   world_ode --diag --scene ... --narrow ...   a tool: over the drift window of that run, dCollide's
 *             contacts against satbox's manifold of the same states, pair by pair (diag_main)
 * Prints one line `WORLD {json}` (tests/worlds/world_scene.h, ws_print_report), preceded by a
 * readable summary unless --json. --isa forces a satbox path (exit 77 when this CPU lacks it).
 * --cpu-time times the phases with the thread's CPU clock instead of the monotonic one (a loaded
 * machine).
 *
 * Both narrow phases see the same world: the same bodies (tests/worlds/world_scene.c), ODE's sweep
 * and prune space as broad phase (dHashSpace was measured 2x slower than the whole narrow phase), a
 * near callback that only collects the candidate pairs, the same contact surface (friction,
 * softness) and dWorldQuickStep. They differ only in how the pairs become contacts:
 *  - ode:    dCollide(o1, o2) on every pair, up to 4 dContactGeom each;
 *  - satbox: the quaternion record pool refreshed from the bodies, then one
 *            satbox_contacts_stream_pairs_qrec() call on every candidate pair: the stream drops
 *            the pairs that do not touch at the overlap test's cost and writes the manifolds of
 *            the others. (A satbox_overlap_pairs_qrec() prefilter before it, kept here until
 *            issue 35, did the same work twice: measured without it, 4K piles, AVX2, narrow
 *            phase 0.414 against 0.447 ms damped and 0.505 against 0.550 ms undamped.)
 * Phases timed per step (monotonic clock, or --cpu-time): broad = dSpaceCollide (pair collection); narrow = from
 * the pair list to the filled contact array (for satbox the pool refresh and the stream; for ode
 * the dCollide calls); joints = emptying last step's joints and creating this step's contact joints
 * from the array; solver = dWorldQuickStep; step = all of them.
 *
 * Sign convention at the border: for dCollide(o1, o2) ODE's normal points into o1 (moving o1 by
 * depth along it separates the pair), satbox's normal points from A to B; with A = o1 the ODE
 * normal is the negation of satbox's, and the depths have the same sign (> 0 penetrating).
 * Feature ids: each satbox contact's 32-bit id is kept in a side table that the contact joint's
 * user data points to (dJointSetData), where a warm-starting solver would match them from frame
 * to frame. ODE does not warm start contacts: its contact joints are destroyed and created anew
 * every step, so no impulse survives to be matched; here the ids are recorded, not used. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ode/ode.h>

#include "satbox/satbox.h"
#include "world_scene.h"
#include "scale.h"

/* The contact surface, the same for both narrow phases. */
#define SURFACE_MU 0.6
#define SURFACE_SOFT_ERP 0.2
#define SURFACE_SOFT_CFM 1e-5
#define QUICKSTEP_ITERATIONS 20
/* Speculative distance of satbox's contacts. 0: an ODE contact joint clamps a negative depth to 0
 * and would then hold the bodies apart at the gap (it has no notion of a speculative point). */
#define SATBOX_MARGIN 0.0f
/* The clock of the phase times: ws_now (monotonic, the default) or ws_thread_cpu_now (--cpu-time). */
static double (*clock_now)(void) = ws_now;

/* Steps over which the drift of resting boxes is measured (the last ones of the run). */
#define DRIFT_WINDOW 100

typedef struct world_params {
    const char *scene;
    size_t n;
    int steps;
    uint64_t seed;
    int use_satbox; /* 0: dCollide; 1: satbox stream */
    int damping;    /* linear and angular damping (lets a pile come to rest sooner) */
} world_params;

typedef struct world {
    ws_scene scene;
    dWorldID world;
    dSpaceID space;
    dJointGroupID contact_group;
    dBodyID *body; /* per scene body; 0 for a static one */
    dGeomID *geom; /* per scene body; geom data = the body's index */
    /* dBodyGetPosition / dBodyGetQuaternion of each dynamic body: pointers into the body, valid for
     * its lifetime, kept so that the pool refresh reads them without two library calls a body. */
    const dReal **body_position, **body_quat;
    dSurfaceParameters surface;
    int use_satbox;

    satbox_pair *pairs; /* candidate pairs of this step (broad phase output) */
    size_t n_pairs, cap_pairs;
    /* ode narrow phase output */
    dContactGeom *ode_contacts;
    size_t n_ode_contacts, cap_ode_contacts;
    /* satbox narrow phase: pool, stream, feature side table */
    satbox_qrec *pool;
    satbox_manifold *stream;
    size_t n_stream, cap_stream;
    uint32_t *feature; /* feature id of each contact joint of this step (joint user data) */
    size_t cap_feature;

    double t_broad, t_narrow, t_joints, t_solver, t_step; /* seconds, summed over the steps */
    double t_refresh;                                      /* satbox: the pool refresh, a part of t_narrow */
    size_t points;                                         /* contact joints, summed */
    size_t pairs_total;                                    /* candidate pairs, summed */
} world;

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t cap2 = *cap ? *cap : 1024;
    while (cap2 < need)
        cap2 *= 2;
    void *q = realloc(p, cap2 * elem);
    if (!q) {
        fprintf(stderr, "world_ode: out of memory\n");
        exit(1);
    }
    *cap = cap2;
    return q;
}

/* Near callback: collect the pair, nothing else (static-static pairs are nobody's business). */
static void collect_pair(void *data, dGeomID o1, dGeomID o2)
{
    world *w = (world *)data;
    if (!dGeomGetBody(o1) && !dGeomGetBody(o2))
        return;
    w->pairs = (satbox_pair *)grow(w->pairs, &w->cap_pairs, w->n_pairs + 1, sizeof *w->pairs);
    w->pairs[w->n_pairs].a = (uint32_t)(uintptr_t)dGeomGetData(o1);
    w->pairs[w->n_pairs].b = (uint32_t)(uintptr_t)dGeomGetData(o2);
    w->n_pairs++;
}

static void world_create(world *w, const world_params *p)
{
    memset(w, 0, sizeof *w);
    if (ws_scene_make(&w->scene, p->scene, p->n, p->seed) != 0) {
        fprintf(stderr, "world_ode: unknown scene '%s' or out of memory\n", p->scene);
        exit(2);
    }
    const ws_scene *s = &w->scene;
    /* QuickStep shuffles its constraints with ODE's global generator: reseed it so that every run
     * (and every satbox path) starts from the same sequence. */
    dRandSetSeed(1);
    w->world = dWorldCreate();
    dWorldSetGravity(w->world, s->gravity[0], s->gravity[1], s->gravity[2]);
    dWorldSetQuickStepNumIterations(w->world, QUICKSTEP_ITERATIONS);
    dWorldSetERP(w->world, 0.2);
    dWorldSetCFM(w->world, 1e-5);
    dWorldSetContactSurfaceLayer(w->world, 0.001);
    dWorldSetContactMaxCorrectingVel(w->world, 1.0);
    if (p->damping) {
        dWorldSetLinearDamping(w->world, 0.01);
        dWorldSetAngularDamping(w->world, 0.05);
    }
    w->space = dSweepAndPruneSpaceCreate(0, dSAP_AXES_XYZ);
    w->contact_group = dJointGroupCreate(0);
    w->body = (dBodyID *)calloc(s->n_bodies, sizeof *w->body);
    w->geom = (dGeomID *)calloc(s->n_bodies, sizeof *w->geom);
    w->pool = (satbox_qrec *)calloc(s->n_bodies, sizeof *w->pool);
    w->body_position = (const dReal **)calloc(s->n_bodies, sizeof *w->body_position);
    w->body_quat = (const dReal **)calloc(s->n_bodies, sizeof *w->body_quat);
    if (!w->body || !w->geom || !w->pool || !w->body_position || !w->body_quat) {
        fprintf(stderr, "world_ode: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < s->n_bodies; i++) {
        const ws_body *b = &s->bodies[i];
        const double *q = b->quat;
        dQuaternion ode_q = {q[3], q[0], q[1], q[2]}; /* ODE: (w, x, y, z) */
        w->geom[i] = dCreateBox(w->space, 2 * b->half[0], 2 * b->half[1], 2 * b->half[2]);
        dGeomSetData(w->geom[i], (void *)(uintptr_t)i);
        if (b->is_static) {
            dGeomSetPosition(w->geom[i], b->position[0], b->position[1], b->position[2]);
            dGeomSetQuaternion(w->geom[i], ode_q);
        } else {
            dMass m;
            dMassSetBox(&m, 1.0, 2 * b->half[0], 2 * b->half[1], 2 * b->half[2]);
            w->body[i] = dBodyCreate(w->world);
            dBodySetMass(w->body[i], &m);
            dBodySetPosition(w->body[i], b->position[0], b->position[1], b->position[2]);
            dBodySetQuaternion(w->body[i], ode_q);
            dGeomSetBody(w->geom[i], w->body[i]);
            w->body_position[i] = dBodyGetPosition(w->body[i]);
            w->body_quat[i] = dBodyGetQuaternion(w->body[i]);
        }
        /* Pool record: static ones never change; dynamic ones are refreshed every step. */
        for (int c = 0; c < 3; c++) {
            w->pool[i].center[c] = (float)b->position[c];
            w->pool[i].half[c] = (float)b->half[c];
        }
        for (int c = 0; c < 4; c++)
            w->pool[i].quat[c] = (float)q[c];
    }
    w->surface.mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM;
    w->surface.mu = SURFACE_MU;
    w->surface.soft_erp = SURFACE_SOFT_ERP;
    w->surface.soft_cfm = SURFACE_SOFT_CFM;
    w->use_satbox = p->use_satbox;
}

static void world_destroy(world *w)
{
    dJointGroupDestroy(w->contact_group);
    dSpaceDestroy(w->space); /* destroys the geoms too (cleanup mode on by default) */
    dWorldDestroy(w->world);
    free(w->body), free(w->geom), free(w->pool), free(w->pairs), free(w->ode_contacts);
    free(w->body_position), free(w->body_quat);
    free(w->stream), free(w->feature);
    ws_scene_free(&w->scene);
}

/* ---- narrow phases: candidate pairs -> contact array ---- */

static void narrow_ode(world *w)
{
    w->ode_contacts = (dContactGeom *)grow(w->ode_contacts, &w->cap_ode_contacts, 4 * w->n_pairs,
                                           sizeof *w->ode_contacts);
    size_t at = 0;
    for (size_t k = 0; k < w->n_pairs; k++)
        at += (size_t)dCollide(w->geom[w->pairs[k].a], w->geom[w->pairs[k].b], 4, &w->ode_contacts[at],
                               sizeof w->ode_contacts[0]);
    w->n_ode_contacts = at;
}

static void refresh_pool(world *w)
{
    const ws_scene *s = &w->scene;
    for (size_t i = s->n_static; i < s->n_bodies; i++) {
        const dReal *pos = w->body_position[i], *q = w->body_quat[i]; /* q: (w, x, y, z) */
        satbox_qrec *r = &w->pool[i];
        r->center[0] = (float)pos[0], r->center[1] = (float)pos[1], r->center[2] = (float)pos[2];
        r->quat[0] = (float)q[1], r->quat[1] = (float)q[2], r->quat[2] = (float)q[3], r->quat[3] = (float)q[0];
    }
}

/* Leaves the manifolds in w->stream; record.pair indexes w->pairs. */
static void narrow_satbox(world *w)
{
    double t0 = clock_now();
    refresh_pool(w);
    w->t_refresh += clock_now() - t0;
    w->stream = (satbox_manifold *)grow(w->stream, &w->cap_stream, w->n_pairs, sizeof *w->stream);
    ptrdiff_t records = satbox_contacts_stream_pairs_qrec(w->pool, w->scene.n_bodies, w->pairs, w->n_pairs,
                                                          SATBOX_MARGIN, w->stream, NULL);
    if (records < 0) {
        fprintf(stderr, "world_ode: satbox_contacts_stream_pairs_qrec: %s\n", satbox_strerror((int)records));
        exit(1);
    }
    w->n_stream = (size_t)records;
}

/* ---- joints: contact array -> contact joints ---- */

static void joints_ode(world *w)
{
    dContact contact;
    memset(&contact, 0, sizeof contact);
    contact.surface = w->surface;
    for (size_t k = 0; k < w->n_ode_contacts; k++) {
        contact.geom = w->ode_contacts[k];
        dJointID j = dJointCreateContact(w->world, w->contact_group, &contact);
        dJointAttach(j, dGeomGetBody(contact.geom.g1), dGeomGetBody(contact.geom.g2));
    }
    w->points += w->n_ode_contacts;
}

/* A manifold's points become joints in the order satbox writes them: around the contact polygon
 * (rule 4 in satbox.h). QuickStep is a Gauss-Seidel solver, so that order matters: fed corner,
 * opposite corner, corner, corner (the order before), the pyramids crept 1.38x as much as with
 * dCollide (40 seeds); around the polygon, 0.94x. `--diag` shows the points themselves agree.
 * dJointAttach links each joint into its two bodies' joint lists (the list head is near the start
 * of ODE's body object), which the solver and the narrow phase have evicted: the bodies are
 * fetched JOINTS_AHEAD records ahead. Measured on the undamped 4K pile (200 steps), AVX2, the
 * two ways alternating step by step in one run (so that the machine's load hits both alike):
 * joints 1.21 against 1.43 ms a step with the fetch (4 ahead; 2 and 8 were no better, 16 worse). Tried and not kept, in the same way: the stream
 * and the joints in chunks of 512 or 2048 pairs, each chunk's joints made while its records are
 * hot (no gain: 1.82 against 1.80 ms narrow + joints); a fetch of the bodies 8 ahead in the pool
 * refresh (no gain: 0.747 against 0.737 ms narrow). */
#define JOINTS_AHEAD 4
static void joints_satbox(world *w)
{
    const satbox_pair *pairs = w->pairs;
    w->feature = (uint32_t *)grow(w->feature, &w->cap_feature, SATBOX_MAX_CONTACTS * w->n_stream, sizeof *w->feature);
    dContact contact;
    memset(&contact, 0, sizeof contact);
    contact.surface = w->surface;
    contact.geom.side1 = contact.geom.side2 = -1;
    size_t made = 0;
    for (size_t r = 0; r < w->n_stream; r++) {
        if (r + JOINTS_AHEAD < w->n_stream) {
            satbox_pair ahead = pairs[w->stream[r + JOINTS_AHEAD].pair];
            if (w->body[ahead.a])
                __builtin_prefetch(w->body[ahead.a], 1);
            if (w->body[ahead.b])
                __builtin_prefetch(w->body[ahead.b], 1);
        }
        const satbox_manifold *m = &w->stream[r];
        satbox_pair pair = pairs[m->pair];
        contact.geom.g1 = w->geom[pair.a];
        contact.geom.g2 = w->geom[pair.b];
        /* ODE's normal points into o1 = A: the negation of satbox's A-to-B normal. */
        for (int c = 0; c < 3; c++)
            contact.geom.normal[c] = -(dReal)m->normal[c];
        contact.geom.normal[3] = 0;
        dBodyID body_a = w->body[pair.a], body_b = w->body[pair.b];
        for (int k = 0; k < m->count; k++) {
            for (int c = 0; c < 3; c++)
                contact.geom.pos[c] = m->point[k].position[c];
            contact.geom.depth = m->point[k].depth;
            dJointID j = dJointCreateContact(w->world, w->contact_group, &contact);
            dJointAttach(j, body_a, body_b);
            w->feature[made] = m->point[k].feature;
            dJointSetData(j, &w->feature[made]);
            made++;
        }
    }
    w->points += made;
}

static void world_step(world *w)
{
    double t0 = clock_now();
    w->n_pairs = 0;
    dSpaceCollide(w->space, w, collect_pair);
    double t1 = clock_now();
    if (w->use_satbox)
        narrow_satbox(w);
    else
        narrow_ode(w);
    double t2 = clock_now();
    dJointGroupEmpty(w->contact_group); /* last step's joints */
    if (w->use_satbox)
        joints_satbox(w);
    else
        joints_ode(w);
    double t3 = clock_now();
    dWorldQuickStep(w->world, w->scene.dt);
    double t4 = clock_now();
    w->t_broad += t1 - t0, w->t_narrow += t2 - t1, w->t_joints += t3 - t2, w->t_solver += t4 - t3;
    w->t_step += t4 - t0;
    w->pairs_total += w->n_pairs;
}

static void world_states(const world *w, ws_state *states)
{
    const ws_scene *s = &w->scene;
    for (size_t i = 0; i < s->n_bodies; i++) {
        ws_state *st = &states[i];
        memset(st, 0, sizeof *st);
        if (!w->body[i]) {
            memcpy(st->position, s->bodies[i].position, sizeof st->position);
            memcpy(st->quat, s->bodies[i].quat, sizeof st->quat);
            continue;
        }
        const dReal *pos = dBodyGetPosition(w->body[i]), *q = dBodyGetQuaternion(w->body[i]);
        const dReal *v = dBodyGetLinearVel(w->body[i]), *av = dBodyGetAngularVel(w->body[i]);
        for (int c = 0; c < 3; c++)
            st->position[c] = pos[c], st->lin_vel[c] = v[c], st->ang_vel[c] = av[c];
        st->quat[0] = q[1], st->quat[1] = q[2], st->quat[2] = q[3], st->quat[3] = q[0];
    }
}

/* The satbox narrow phase's parts of the last run (ms per step), for the readable summary. */
static double last_refresh_ms;

/* One run: build, step, measure. `narrow_name` must outlive the report. */
static void run_world(const world_params *p, ws_report *r, char *narrow_name, size_t name_size)
{
    world w;
    world_create(&w, p);
    ws_state *window_start = (ws_state *)calloc(w.scene.n_bodies, sizeof *window_start);
    ws_state *end = (ws_state *)calloc(w.scene.n_bodies, sizeof *end);
    if (!window_start || !end) {
        fprintf(stderr, "world_ode: out of memory\n");
        exit(1);
    }
    int window_at = p->steps > DRIFT_WINDOW ? p->steps - DRIFT_WINDOW : 0;
    for (int step = 0; step < p->steps; step++) {
        if (step == window_at)
            world_states(&w, window_start);
        world_step(&w);
    }
    world_states(&w, end);
    if (p->use_satbox)
        snprintf(narrow_name, name_size, "satbox-%s", satbox_isa_name(satbox_isa_active()));
    else
        snprintf(narrow_name, name_size, "ode");
    double per_step_ms = p->steps > 0 ? 1e3 / p->steps : 0;
    memset(r, 0, sizeof *r);
    r->engine = "ode";
    r->scene = w.scene.name;
    r->n = w.scene.n_dynamic;
    r->narrow = narrow_name;
    r->steps = p->steps;
    r->broad_ms = w.t_broad * per_step_ms;
    r->narrow_ms = w.t_narrow * per_step_ms;
    r->joints_ms = w.t_joints * per_step_ms;
    r->solver_ms = w.t_solver * per_step_ms;
    r->step_ms = w.t_step * per_step_ms;
    r->points = p->steps > 0 ? (double)w.points / p->steps : 0;
    r->pairs = p->steps > 0 ? (double)w.pairs_total / p->steps : 0;
    r->max_pen = ws_max_penetration(&w.scene, end);
    r->ke = ws_kinetic_energy(&w.scene, end);
    r->drift = ws_drift(&w.scene, window_start, end);
    r->lost = ws_lost(&w.scene, end);
    r->nan = ws_nan_count(&w.scene, end);
    r->hash = ws_state_hash(&w.scene, end);
    free(window_start), free(end);
    last_refresh_ms = w.t_refresh * per_step_ms;
    world_destroy(&w);
}

/* ---- the meson test ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Two scenes, 20 seeds for the pyramid, 30 for the pile, both narrow phases (satbox on the widest path):
 *  - 2 pyramids (110 cubes), 5 s: they stand, creeping by millimetres (QuickStep, 20 iterations);
 *  - a pile of 300 mixed boxes with damping, 10 s: packed, but with 20 iterations ODE leaves it
 *    jittering at ~1-2 cm/s with an occasional box toppling over the heap's edge, so its drift is
 *    chaotic (0.2-0.6 m over the last 100 steps whichever narrow phase runs) and its check is
 *    mainly lost / NaN / penetration.
 * Checks:
 *  - satbox's median max penetration and median drift are at most 1.25x ODE's own (plus a floor
 *    of 0.1 mm for the drift, below which both are the solver's noise; in short runs (scale.h) the
 *    drift only at 2x);
 *  - no box lost, no NaN, in any run;
 *  - the satbox run's final state hash is the same on every path this CPU has (paths it lacks
 *    are named as not compared).
 * Returns the process exit code. */
static int check_main(void)
{
    enum { MAX_SEEDS = 30 };
    /* Issue 21's goal is 1.25x ODE's own for both measures, asserted for both. The pyramid's drift
     * missed it (1.29x on seeds 1-5, 1.38x on 1-40) until joints_satbox fed each manifold's points to
     * QuickStep around the contact polygon instead of in rule 4's order (0.94x on 1-40): the points
     * themselves agree with dCollide's (world_ode --diag). A pyramid's drift is the largest creep of
     * one box and changes from seed to seed by up to 2x either way for the same contacts given in
     * another order (ODE's own points reversed: median ratios 1.11 on seeds 1-5, 0.99 on 1-40): the
     * pyramid takes 20 seeds (its median ratio: 1.26 on 1-5, 1.17 on 1-15, 1.03 on 1-20). The pile's
     * final penetration is heavy-tailed from seed to seed (one pile settles with a box wedged 3x
     * deeper than the next): a change of rounding alone in the edge point moved its 5-seed median
     * ratio from 1.0 to 1.36, and seeds 1-15 gave 1.30 where seeds 16-45 gave 0.85 for the same
     * code: the pile takes 30 seeds. */
    const double ratio_limit = 1.25, drift_guard = 2.0, drift_floor = 1e-4;
    /* Short runs (scale.h: tests/run's valgrind, sanitizer and qemu stages): smaller worlds, 3 seeds, too
     * few for the drift goal (see above): there drift is held to drift_guard, a regression guard. */
    int quick = test_short(), tiny = test_tiny(); /* scale.h: tiny (valgrind) judges no ratio */
    double drift_limit = quick ? drift_guard : ratio_limit;
    struct { const char *scene; size_t n; int steps; int damping; int seeds; } cases[] = {
        {"pyramid", quick ? 55 : 110, quick ? 150 : 300, 0, tiny ? 1 : quick ? 3 : 20},
        {"pile", quick ? 60 : 300, quick ? 200 : 600, 1, tiny ? 1 : quick ? 3 : MAX_SEEDS},
    };
    size_t hash_n = quick ? 60 : 300;
    int hash_steps = quick ? 100 : 300;
    int failures = 0;
    char name[64];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double pen[2][MAX_SEEDS], drift[2][MAX_SEEDS];
        int seeds = cases[c].seeds;
        for (int seed = 0; seed < seeds; seed++) {
            for (int use_satbox = 0; use_satbox < 2; use_satbox++) {
                world_params p = {cases[c].scene, cases[c].n, cases[c].steps, (uint64_t)seed + 1, use_satbox,
                                  cases[c].damping};
                ws_report r;
                run_world(&p, &r, name, sizeof name);
                ws_print_report(stdout, &r);
                pen[use_satbox][seed] = r.max_pen;
                drift[use_satbox][seed] = r.drift;
                if (r.lost || r.nan || !(r.max_pen >= 0)) {
                    printf("FAIL %s seed %d %s: lost %zu, NaN %zu, max_pen %g\n", r.scene, seed + 1, r.narrow,
                           r.lost, r.nan, r.max_pen);
                    failures++;
                }
            }
        }
        double pen_ode = median(pen[0], seeds), pen_sat = median(pen[1], seeds);
        double drift_ode = median(drift[0], seeds), drift_sat = median(drift[1], seeds);
        int pen_ok = pen_sat <= ratio_limit * pen_ode;
        int drift_ok = drift_sat <= fmax(drift_limit * drift_ode, drift_floor);
        int drift_goal = drift_sat <= fmax(ratio_limit * drift_ode, drift_floor);
        printf("%s %s n=%zu: median max_pen ode %.3g satbox %.3g (ratio %.3f, limit %.2f); median drift ode %.3g "
               "satbox %.3g (ratio %.3f, limit max(%.2fx, %g); goal %.2fx %s)\n",
               tiny ? "info" : pen_ok && drift_ok ? "ok  " : "FAIL", cases[c].scene, cases[c].n, pen_ode, pen_sat,
               pen_ode > 0 ? pen_sat / pen_ode : 0.0, ratio_limit, drift_ode, drift_sat,
               drift_ode > 0 ? drift_sat / drift_ode : 0.0, drift_limit, drift_floor, ratio_limit,
               drift_goal ? "met" : "MISSED");
        if (!tiny)
            failures += !pen_ok + !drift_ok;
    }
    /* Bit-identical trajectories on every path: the pile (the busier scene), seed 1. */
    unsigned supported = satbox_isa_supported();
    int first = -1;
    uint64_t first_hash = 0;
    for (int isa = 0; isa < SATBOX_ISA_COUNT; isa++) {
        const char *isa_name = satbox_isa_name((satbox_isa)isa);
        if (!(supported & (1u << isa))) {
            printf("path %-7s not supported by this CPU or build: not compared\n", isa_name);
            continue;
        }
        if (satbox_isa_force((satbox_isa)isa) != SATBOX_OK) {
            printf("FAIL path %s: satbox_isa_force refused a supported path\n", isa_name);
            failures++;
            continue;
        }
        world_params p = {"pile", hash_n, hash_steps, 1, 1, 1};
        ws_report r;
        run_world(&p, &r, name, sizeof name);
        int same = first < 0 || r.hash == first_hash;
        printf("%s path %-7s final state hash %016" PRIx64 "%s\n", same ? "ok  " : "FAIL", isa_name, r.hash,
               first < 0 ? " (reference)" : same ? " (same)" : " (differs)");
        if (first < 0)
            first = isa, first_hash = r.hash;
        failures += !same;
    }
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}

/* ---- --diag: ODE's contacts and satbox's manifold on the same world states (a tool, not a test) ---- */

/* Area of the convex hull of n <= 8 points (x[i], y[i]) (monotone chain). */
static double hull_area(int n, const double *x, const double *y)
{
    int idx[8], h[17], m = 0;
    for (int i = 0; i < n; i++)
        idx[i] = i;
    for (int i = 1; i < n; i++) /* insertion sort by (x, y) */
        for (int j = i; j > 0 && (x[idx[j]] < x[idx[j - 1]] || (x[idx[j]] == x[idx[j - 1]] && y[idx[j]] < y[idx[j - 1]])); j--) {
            int t = idx[j];
            idx[j] = idx[j - 1], idx[j - 1] = t;
        }
    if (n < 3)
        return 0;
    for (int pass = 0; pass < 2; pass++) {
        int start = m;
        for (int s = 0; s < n; s++) {
            int i = idx[pass ? n - 1 - s : s];
            while (m >= start + 2) {
                int a = h[m - 2], b = h[m - 1];
                double cr = (x[b] - x[a]) * (y[i] - y[a]) - (y[b] - y[a]) * (x[i] - x[a]);
                if (cr > 0)
                    break;
                m--;
            }
            h[m++] = i;
        }
        m--;
    }
    double area = 0;
    for (int i = 0; i < m; i++) {
        int a = h[i], b = h[(i + 1) % m];
        area += x[a] * y[b] - x[b] * y[a];
    }
    return 0.5 * fabs(area);
}

/* Plane coordinates of p along the unit normal nrm. */
static void plane_xy(const double nrm[3], const double p[3], double *x, double *y)
{
    double t[3] = {1, 0, 0};
    if (fabs(nrm[0]) > 0.6)
        t[0] = 0, t[1] = 1;
    double d = t[0] * nrm[0] + t[1] * nrm[1] + t[2] * nrm[2];
    double u[3] = {t[0] - d * nrm[0], t[1] - d * nrm[1], t[2] - d * nrm[2]};
    double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int c = 0; c < 3; c++)
        u[c] /= l;
    double v[3] = {nrm[1] * u[2] - nrm[2] * u[1], nrm[2] * u[0] - nrm[0] * u[2], nrm[0] * u[1] - nrm[1] * u[0]};
    *x = u[0] * p[0] + u[1] * p[1] + u[2] * p[2];
    *y = v[0] * p[0] + v[1] * p[1] + v[2] * p[2];
}

/* Steps the world with its own narrow phase; over the drift window compares, per candidate pair,
 * dCollide (4 and 8 points: the 8 are ODE's whole clipped polygon of penetrating points) with
 * satbox's manifold of the same state. */
static int diag_main(const world_params *p)
{
    world w;
    world_create(&w, p);
    int window_at = p->steps > DRIFT_WINDOW ? p->steps - DRIFT_WINDOW : 0;
    dContactGeom c4[4], c8[8];
    double n_both = 0, n_only_ode = 0, n_only_sat = 0, normal_diff = 0, a8 = 0, a4 = 0, as = 0;
    double hist[5][5] = {{0}};
    double ode_unmatched = 0, sat_unmatched = 0, ode_pts = 0, sat_pts = 0, maxd_ode = 0, maxd_sat = 0;
    double sumd_ode = 0, sumd_sat = 0, sat_neg = 0, lost_area_pairs = 0, off_plane = 0;
    double n_match = 0, ddep = 0, off_big = 0, ang_sum = 0, ref_diff = 0, ode_refa = 0, sat_refa = 0;
    double a4_lt = 0, as_lt = 0; /* pairs whose 4 points span < 90% of the whole polygon's area */
    for (int step = 0; step < p->steps; step++) {
        if (step >= window_at) {
            w.n_pairs = 0;
            dSpaceCollide(w.space, &w, collect_pair);
            narrow_satbox(&w);
            ptrdiff_t rec = (ptrdiff_t)w.n_stream;
            size_t r = 0;
            for (size_t k = 0; k < w.n_pairs; k++) {
                dGeomID g1 = w.geom[w.pairs[k].a], g2 = w.geom[w.pairs[k].b];
                int n4 = dCollide(g1, g2, 4, c4, sizeof c4[0]);
                int n8 = dCollide(g1, g2, 8, c8, sizeof c8[0]);
                const satbox_manifold *m = (r < (size_t)rec && w.stream[r].pair == k) ? &w.stream[r++] : NULL;
                int ns = m ? m->count : 0;
                if (!n4 && !ns)
                    continue;
                if (!n4) {
                    n_only_sat++;
                    continue;
                }
                if (!ns) {
                    n_only_ode++;
                    continue;
                }
                n_both++;
                hist[n4][ns]++;
                double nrm[3] = {c4[0].normal[0], c4[0].normal[1], c4[0].normal[2]};
                double dn = -(nrm[0] * m->normal[0] + nrm[1] * m->normal[1] + nrm[2] * m->normal[2]);
                normal_diff += dn < 0.99999;
                ang_sum += acos(fmin(dn, 1.0));
                ref_diff += dn < 1 - 1e-8;
                /* Is ODE's normal one of A's face axes (A's face the reference)? */
                const dReal *R1 = dGeomGetRotation(g1);
                int ode_ref_a = 0;
                for (int a = 0; a < 3; a++)
                    ode_ref_a |= fabs(fabs(R1[a] * nrm[0] + R1[4 + a] * nrm[1] + R1[8 + a] * nrm[2]) - 1) < 1e-9;
                ode_refa += ode_ref_a, sat_refa += m->axis < 3;
                double x8[8], y8[8], x4[4], y4[4], xs[4], ys[4], zs[4], z4[4];
                for (int i = 0; i < n8; i++)
                    plane_xy(nrm, c8[i].pos, &x8[i], &y8[i]);
                double md = 0, sd = 0;
                for (int i = 0; i < n4; i++) {
                    plane_xy(nrm, c4[i].pos, &x4[i], &y4[i]);
                    z4[i] = c4[i].pos[0] * nrm[0] + c4[i].pos[1] * nrm[1] + c4[i].pos[2] * nrm[2];
                    md = fmax(md, c4[i].depth), sd += c4[i].depth;
                }
                maxd_ode += md, sumd_ode += sd;
                md = -1, sd = 0;
                for (int i = 0; i < ns; i++) {
                    double pp[3] = {m->point[i].position[0], m->point[i].position[1], m->point[i].position[2]};
                    plane_xy(nrm, pp, &xs[i], &ys[i]);
                    zs[i] = pp[0] * nrm[0] + pp[1] * nrm[1] + pp[2] * nrm[2];
                    md = fmax(md, m->point[i].depth), sd += m->point[i].depth;
                    sat_neg += m->point[i].depth < 0;
                }
                maxd_sat += md, sumd_sat += sd;
                double A8 = hull_area(n8, x8, y8), A4 = hull_area(n4, x4, y4), AS = hull_area(ns, xs, ys);
                a8 += A8, a4 += A4, as += AS;
                a4_lt += A4 < 0.9 * A8, as_lt += AS < 0.9 * A8;
                lost_area_pairs += AS < 0.9 * A4;
                ode_pts += n4, sat_pts += ns;
                for (int i = 0; i < n4; i++) {
                    int found = 0;
                    for (int j = 0; j < ns; j++)
                        found |= hypot(x4[i] - xs[j], y4[i] - ys[j]) < 1e-3;
                    ode_unmatched += !found;
                }
                for (int j = 0; j < ns; j++) {
                    int found = 0;
                    for (int i = 0; i < n4; i++)
                        if (hypot(x4[i] - xs[j], y4[i] - ys[j]) < 1e-3) {
                            found = 1;
                            off_plane += fabs(zs[j] - z4[i]);
                            n_match++;
                            ddep += fabs(m->point[j].depth - c4[i].depth);
                            off_big += fabs(zs[j] - z4[i]) > 1e-4;
                        }
                    sat_unmatched += !found;
                }
            }
        }
        world_step(&w);
    }
    double nb = n_both > 0 ? n_both : 1;
    printf("diag %s seed %" PRIu64 " narrow %s, window %d steps: pairs both %.0f, only ode %.0f, only satbox %.0f; "
           "normals differing %.0f\n",
           p->scene, p->seed, p->use_satbox ? "satbox" : "ode", p->steps - window_at, n_both, n_only_ode, n_only_sat,
           normal_diff);
    printf("  points/pair ode %.3f satbox %.3f; ode points with no satbox point within 1 mm %.4f/pair, satbox points "
           "with no ode one %.4f/pair; satbox points with depth < 0 %.4f/pair\n",
           ode_pts / nb, sat_pts / nb, ode_unmatched / nb, sat_unmatched / nb, sat_neg / nb);
    printf("  mean hull area: whole polygon (ode, 8) %.5f, ode's 4 %.5f, satbox's %.5f; pairs spanning < 90%% of "
           "the polygon: ode %.4f satbox %.4f; satbox < 90%% of ode's 4: %.4f\n",
           a8 / nb, a4 / nb, as / nb, a4_lt / nb, as_lt / nb, lost_area_pairs / nb);
    printf("  mean max depth ode %.6f satbox %.6f; mean depth sum ode %.6f satbox %.6f\n", maxd_ode / nb,
           maxd_sat / nb, sumd_ode / nb, sumd_sat / nb);
    printf("  normals: mean angle %.3g rad, differing by > 1e-8: %.4f/pair; reference = A's face: ode %.4f "
           "satbox %.4f\n",
           ang_sum / nb, ref_diff / nb, ode_refa / nb, sat_refa / nb);
    printf("  matched points %.0f: mean |offset along normal| %.3g (> 0.1 mm: %.4f of them), mean |depth diff| %.3g\n",
           n_match, off_plane / fmax(n_match, 1), off_big / fmax(n_match, 1), ddep / fmax(n_match, 1));
    printf("  count histogram (ode x satbox):");
    for (int i = 1; i < 5; i++)
        for (int j = 1; j < 5; j++)
            if (hist[i][j] > 0)
                printf(" %dx%d:%.0f", i, j, hist[i][j]);
    printf("\n");
    world_destroy(&w);
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: world_ode --scene pile|pyramid --n N --steps S --seed K --narrow ode|satbox "
                    "[--isa NAME] [--damping] [--cpu-time] [--json]\n"
                    "       world_ode --check\n"
                    "       world_ode --diag --scene ... (the options of a run)\n");
    exit(2);
}

int main(int argc, char **argv)
{
    world_params p = {"pile", 1000, 600, 1, 0, 0};
    const char *isa = NULL;
    int json_only = 0, check = 0, diag = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(a, "--scene") && has_value)
            p.scene = argv[++i];
        else if (!strcmp(a, "--n") && has_value)
            p.n = (size_t)strtoull(argv[++i], NULL, 10);
        else if (!strcmp(a, "--steps") && has_value)
            p.steps = atoi(argv[++i]);
        else if (!strcmp(a, "--seed") && has_value)
            p.seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(a, "--narrow") && has_value) {
            const char *v = argv[++i];
            if (!strcmp(v, "ode"))
                p.use_satbox = 0;
            else if (!strcmp(v, "satbox"))
                p.use_satbox = 1;
            else
                usage();
        } else if (!strcmp(a, "--isa") && has_value)
            isa = argv[++i];
        else if (!strcmp(a, "--damping"))
            p.damping = 1;
        else if (!strcmp(a, "--cpu-time"))
            clock_now = ws_thread_cpu_now;
        else if (!strcmp(a, "--json"))
            json_only = 1;
        else if (!strcmp(a, "--check"))
            check = 1;
        else if (!strcmp(a, "--diag"))
            diag = 1;
        else
            usage();
    }
    dInitODE2(0);
    dAllocateODEDataForThread(dAllocateMaskAll);
    int rc = 0;
    if (check) {
        rc = check_main();
    } else if (diag) {
        rc = diag_main(&p);
    } else {
        if (isa) {
            int id = satbox_isa_from_name(isa);
            if (id < 0) {
                fprintf(stderr, "world_ode: unknown path '%s'\n", isa);
                dCloseODE();
                return 2;
            }
            if (satbox_isa_force((satbox_isa)id) != SATBOX_OK) {
                fprintf(stderr, "world_ode: path %s not supported by this CPU or build\n", isa);
                dCloseODE();
                return 77;
            }
        }
        ws_report r;
        char name[64];
        run_world(&p, &r, name, sizeof name);
        if (!json_only && p.use_satbox)
            printf("satbox narrow phase: pool refresh %.3f ms/step, manifolds %.3f ms/step\n", last_refresh_ms,
                   r.narrow_ms - last_refresh_ms);
        if (!json_only)
            printf("ode world, %s, %zu boxes, %d steps, narrow phase %s: narrow %.3f ms/step, whole step %.3f "
                   "ms/step, %.1f contact points/step; max penetration %.4g m, drift %.3g m, lost %zu, NaN %zu\n",
                   r.scene, r.n, r.steps, r.narrow, r.narrow_ms, r.step_ms, r.points, r.max_pen, r.drift, r.lost,
                   r.nan);
        ws_print_report(stdout, &r);
    }
    dCloseODE();
    return rc;
}
