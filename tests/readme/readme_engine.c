/* readme_engine.c - the README's engine example: satbox as ODE's box-box narrow phase (collect pairs, one batch call, joints from the stream). */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <ode/ode.h>

#include "satbox/satbox.h"

enum { MAX_BOXES = 8, MAX_PAIRS = MAX_BOXES * MAX_BOXES };
static dWorldID world;
static dJointGroupID contact_joints;
static dGeomID geoms[MAX_BOXES];
static satbox_qrec pool[MAX_BOXES];  /* one record per box, refreshed from the bodies each step */
static satbox_pair pairs[MAX_PAIRS]; /* the broad phase's candidates */
static satbox_manifold manifolds[MAX_PAIRS];
static size_t n_boxes, n_pairs;

/* The near callback only collects the pair (geom data = index into pool). */
static void near_callback(void *data, dGeomID o1, dGeomID o2)
{
    (void)data;
    if (n_pairs < MAX_PAIRS)
        pairs[n_pairs++] = (satbox_pair){(uint32_t)(uintptr_t)dGeomGetData(o1), (uint32_t)(uintptr_t)dGeomGetData(o2)};
}

static void step(dSpaceID space, double dt)
{
    n_pairs = 0;
    dSpaceCollide(space, NULL, near_callback);
    for (size_t i = 0; i < n_boxes; i++) {
        const dReal *p = dGeomGetPosition(geoms[i]);
        dQuaternion q; /* ODE: (w, x, y, z); satbox: (x, y, z, w) */
        dGeomGetQuaternion(geoms[i], q);
        pool[i] = (satbox_qrec){{(float)p[0], (float)p[1], (float)p[2]}, {pool[i].half[0], pool[i].half[1], pool[i].half[2]},
                                {(float)q[1], (float)q[2], (float)q[3], (float)q[0]}, {0, 0}};
    }
    ptrdiff_t n = satbox_contacts_stream_pairs_qrec(pool, n_boxes, pairs, n_pairs, 0.0f, manifolds, NULL);
    for (ptrdiff_t r = 0; r < n; r++) {
        const satbox_manifold *m = &manifolds[r];
        dGeomID a = geoms[pairs[m->pair].a], b = geoms[pairs[m->pair].b];
        for (int k = 0; k < m->count; k++) {
            dContact c = {.surface = {.mode = dContactApprox1, .mu = 0.6}};
            for (int i = 0; i < 3; i++) {
                c.geom.pos[i] = m->point[k].position[i];
                c.geom.normal[i] = -m->normal[i]; /* ODE's normal points into o1 = A: satbox's is A to B */
            }
            c.geom.depth = m->point[k].depth;
            dJointAttach(dJointCreateContact(world, contact_joints, &c), dGeomGetBody(a), dGeomGetBody(b));
        }
    }
    dWorldQuickStep(world, dt);
    dJointGroupEmpty(contact_joints);
}

/* A static ground slab (top at z = 0) and a tilted unit cube dropped on it; after 3 s the cube
 * must rest flat on the ground: center at z = 0.5 within 1 cm. */
static dGeomID add_box(dSpaceID space, double x, double y, double z, double hx, double hy, double hz, int dynamic)
{
    dGeomID g = dCreateBox(space, 2 * hx, 2 * hy, 2 * hz);
    if (dynamic) {
        dBodyID body = dBodyCreate(world);
        dMass mass;
        dMassSetBox(&mass, 1.0, 2 * hx, 2 * hy, 2 * hz);
        dBodySetMass(body, &mass);
        dGeomSetBody(g, body);
    }
    dGeomSetPosition(g, x, y, z);
    dGeomSetData(g, (void *)(uintptr_t)n_boxes);
    pool[n_boxes] = (satbox_qrec){{0, 0, 0}, {(float)hx, (float)hy, (float)hz}, {0, 0, 0, 1}, {0, 0}};
    geoms[n_boxes++] = g;
    return g;
}

int main(void)
{
    dInitODE2(0);
    world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, -9.81);
    dSpaceID space = dSweepAndPruneSpaceCreate(0, dSAP_AXES_XYZ);
    contact_joints = dJointGroupCreate(0);
    add_box(space, 0, 0, -0.5, 5, 5, 0.5, 0);
    dGeomID cube = add_box(space, 0, 0, 1.5, 0.5, 0.5, 0.5, 1);
    dMatrix3 tilt;
    dRFromAxisAndAngle(tilt, 1, 1, 0, 0.4);
    dGeomSetRotation(cube, tilt);
    for (int i = 0; i < 180; i++)
        step(space, 1.0 / 60);
    double z = dGeomGetPosition(cube)[2];
    printf("cube center z after 3 s: %.4f (expected 0.5)\n", z);
    dJointGroupDestroy(contact_joints);
    dSpaceDestroy(space);
    dWorldDestroy(world);
    dCloseODE();
    return fabs(z - 0.5) < 0.01 ? 0 : 1;
}
