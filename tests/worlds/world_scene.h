/* world_scene.h - engine-neutral scenes (walled pile, pyramids) and quality measures shared by the ODE and Bullet worlds. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_WORLD_SCENE_H
#define SATBOX_TEST_WORLD_SCENE_H

/* The two engine worlds (tests/worlds/world_ode.c, the Bullet one) build the same bodies from these
 * descriptions, step them with their own solver and measure the result with the same functions
 * here, so that "satbox settles as well as the engine's own narrow phase" compares like with like.
 * Frame: z up, gravity (0, 0, -9.81), lengths in metres, boxes of density 1 (mass = volume).
 * Quaternions are (x, y, z, w) here as in satbox; ODE stores (w, x, y, z): convert at the border. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One rigid box as a scene starts it. */
typedef struct ws_body {
    double position[3]; /**< world center (m) */
    double quat[4];     /**< world-from-local rotation (x, y, z, w), unit */
    double half[3];     /**< half extents along the local axes (m) */
    int is_static;      /**< 1: fixed (ground, walls), no body in the engine; 0: dynamic */
} ws_body;

/** The state of a body as an engine reports it after stepping (static bodies: as built, v = w = 0). */
typedef struct ws_state {
    double position[3]; /**< world center (m) */
    double quat[4];     /**< (x, y, z, w) */
    double lin_vel[3];  /**< world linear velocity (m/s) */
    double ang_vel[3];  /**< world angular velocity (rad/s) */
} ws_state;

/** A scene: static bodies first, then the dynamic ones. */
typedef struct ws_scene {
    const char *name;     /**< "pile" or "pyramid" */
    ws_body *bodies;      /**< n_bodies bodies, statics first */
    size_t n_bodies;      /**< total */
    size_t n_static;      /**< bodies[0 .. n_static) are static */
    size_t n_dynamic;     /**< bodies[n_static .. n_bodies) are dynamic */
    double gravity[3];    /**< (0, 0, -9.81) */
    double dt;            /**< time step the worlds use (1/60 s) */
    double keep_min[3];   /**< a dynamic box whose center leaves [keep_min, keep_max] is lost */
    double keep_max[3];
} ws_scene;

/** Builds scene `name` ("pile" or "pyramid") with about n dynamic boxes from `seed`.
 * pile: a walled square bin (static ground slab, top at z = 0, and 4 static walls) of inner side
 *   L = ceil(sqrt(n / 10)) + 1; n boxes with half extents drawn independently from [0.1, 0.45]
 *   and a uniformly random orientation, spawned on a 1.0 grid (L x L per layer, layers 1.0 apart,
 *   the lowest 0.05 above the ground); a box is redrawn until its AABB fits its unit cell, so no
 *   two boxes overlap at the start (this favours flatter boxes and axis-near orientations a
 *   little). The walls rise 1 m above the highest spawn cell.
 * pyramid: round(n / 55) (at least 1) 2D pyramids of unit cubes (base 10, 55 cubes each), in
 *   the x-z plane, laid out on a grid (12 m apart in x, 2 m in y) on the ground slab; every cube
 *   rests exactly on its support from the first step (z exact), with 0.01 m horizontal gaps
 *   between neighbours and x, y jittered by U(-1e-3, 1e-3) per seed.
 * @return 0, or -1 for an unknown name or no memory (scene left empty). */
int ws_scene_make(ws_scene *scene, const char *name, size_t n, uint64_t seed);
void ws_scene_free(ws_scene *scene);

/** Kinetic energy (J) of the dynamic bodies: sum of m v^2 / 2 + w_local . I w_local / 2 with
 * m = 8 h0 h1 h2 (density 1) and the box's principal inertia. */
double ws_kinetic_energy(const ws_scene *scene, const ws_state *states);

/** Largest displacement (m) of a dynamic box between two snapshots (boxes lost or not finite in
 * either are left out): over the last steps of a settled scene, the drift of a resting box. */
double ws_drift(const ws_scene *scene, const ws_state *before, const ws_state *after);

/** Number of dynamic boxes whose center is outside [keep_min, keep_max] (left the bin, fell
 * through the ground) and is finite. */
size_t ws_lost(const ws_scene *scene, const ws_state *states);

/** Number of dynamic boxes with a NaN or infinite position, orientation or velocity. */
size_t ws_nan_count(const ws_scene *scene, const ws_state *states);

/** Deepest penetration (m) over all box pairs of the state, measured the same way whichever
 * narrow phase ran: an AABB sweep, then satbox_collide() on every pair with at least one dynamic
 * box; depth = -separation (an exact SAT depth of the float boxes). 0 when nothing overlaps;
 * -1 when out of memory. */
double ws_max_penetration(const ws_scene *scene, const ws_state *states);

/** FNV-1a hash of the bytes of the dynamic bodies' states (position, quat, velocities): equal
 * hashes mean bit-identical trajectories' end points. */
uint64_t ws_state_hash(const ws_scene *scene, const ws_state *states);

/** What one world run reports (one `WORLD {json}` line). Times are means per step. */
typedef struct ws_report {
    const char *engine;   /**< "ode" or "bullet" */
    const char *scene;    /**< scene name */
    size_t n;             /**< dynamic boxes */
    const char *narrow;   /**< "ode", "bullet", or "satbox-<isa>" */
    int steps;            /**< steps run */
    double broad_ms, narrow_ms, joints_ms, solver_ms, step_ms; /**< ms per step */
    double points;        /**< contact points per step */
    double pairs;         /**< candidate pairs (broad phase output) per step */
    double max_pen, ke, drift; /**< ws_max_penetration, ws_kinetic_energy, ws_drift at the end */
    size_t lost, nan;     /**< ws_lost, ws_nan_count at the end */
    uint64_t hash;        /**< ws_state_hash at the end */
} ws_report;

/** Prints `WORLD {"engine":...,"hash":"<16 hex>"}` and a newline. */
void ws_print_report(FILE *f, const ws_report *r);

/** Monotonic clock in seconds. */
double ws_now(void);

/** CPU time of the calling thread in seconds: on a shared machine it leaves out the time the thread
 * waited for a core (the monotonic clock counts it), so phase times stay comparable under load. */
double ws_thread_cpu_now(void);

#ifdef __cplusplus
}
#endif

#endif
