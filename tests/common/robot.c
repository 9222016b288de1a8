/* robot.c - the Panda-like arm (double forward kinematics, 8 link boxes) and the bookshelf, table and cage scenes. */
/* SPDX-License-Identifier: MIT */
#include "robot.h"

#include <math.h>
#include <string.h>

#include "support.h"

const double RB_BASE[3] = {3.25, -1.75, 0.5};

/* Panda's joint limits (radians). */
const double RB_Q_LO[RB_DOF] = {-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973};
const double RB_Q_HI[RB_DOF] = {2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973};

/* Modified DH rows of joints 1-7 (a, d, then alpha), Panda's published values, in meters and radians. */
static const double DH_A[RB_DOF] = {0, 0, 0, 0.0825, -0.0825, 0, 0.088};
static const double DH_D[RB_DOF] = {0.333, 0, 0.316, 0, 0.384, 0, 0};
#define HALF_PI 1.57079632679489661923
/* alpha is 0 or +-pi/2 on every row: its cosine and sine, exactly. */
static const double DH_COS_ALPHA[RB_DOF] = {1, 0, 0, 0, 0, 0, 0};
static const double DH_SIN_ALPHA[RB_DOF] = {0, -1, 1, 1, -1, 1, 1};
#define FLANGE_D 0.107

/* The link boxes in their link's frame (boxes 0-6: frames 1-7; box 7: the hand's frame, the
 * flange turned by -pi/4 about its z): center and half extents, axes along the frame's. Each
 * covers the segment from its frame's origin to the next joint's, padded by 0.05-0.065 m. */
static const double LINK_C[RB_LINKS][3] = {
    {0, 0, -0.09}, {0, -0.158, 0}, {0.041, 0, -0.05}, {-0.041, 0.06, 0},
    {0, 0, -0.19}, {0.03, 0, -0.01}, {0, 0, 0.045}, {0, 0, 0.065}};
static const double LINK_H[RB_LINKS][3] = {
    {0.06, 0.06, 0.13}, {0.06, 0.2, 0.06}, {0.1, 0.06, 0.1}, {0.1, 0.1, 0.06},
    {0.06, 0.06, 0.2}, {0.09, 0.06, 0.07}, {0.055, 0.055, 0.065}, {0.03, 0.105, 0.065}};

/* A rigid transform: rotation R (row-major, R[r][c]) and translation p. */
typedef struct xf {
    double R[3][3];
    double p[3];
} xf;

/* t = t * (turn alpha about x, move a along x, turn q about z, move d along z), alpha given by
 * its cosine ca and sine sa. */
static void mdh_step(xf *t, double a, double d, double ca, double sa, double q)
{
    double cq = cos(q), sq = sin(q);
    /* The step's own rotation (alpha about x, then q about z) and translation (a along x, then d along the turned z). */
    double S[3][3] = {{cq, -sq, 0}, {ca * sq, ca * cq, -sa}, {sa * sq, sa * cq, ca}};
    double s[3] = {a, -sa * d, ca * d};
    xf o = *t;
    for (int r = 0; r < 3; r++) {
        t->p[r] = o.p[r] + o.R[r][0] * s[0] + o.R[r][1] * s[1] + o.R[r][2] * s[2];
        for (int c = 0; c < 3; c++)
            t->R[r][c] = o.R[r][0] * S[0][c] + o.R[r][1] * S[1][c] + o.R[r][2] * S[2][c];
    }
}

static void box_in(const xf *t, int l, rb_box *out)
{
    for (int r = 0; r < 3; r++) {
        out->center[r] = t->p[r] + t->R[r][0] * LINK_C[l][0] + t->R[r][1] * LINK_C[l][1] + t->R[r][2] * LINK_C[l][2];
        for (int k = 0; k < 3; k++)
            out->axis[k][r] = t->R[r][k];
        out->half[r] = LINK_H[l][r];
    }
}

void rb_fk(const double q[RB_DOF], rb_box links[RB_LINKS])
{
    xf t = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {RB_BASE[0], RB_BASE[1], RB_BASE[2]}};
    for (int j = 0; j < RB_DOF; j++) {
        mdh_step(&t, DH_A[j], DH_D[j], DH_COS_ALPHA[j], DH_SIN_ALPHA[j], q[j]);
        box_in(&t, j, &links[j]);
    }
    mdh_step(&t, 0, FLANGE_D, 1, 0, -HALF_PI / 2); /* the flange, turned to the hand's frame */
    box_in(&t, 7, &links[7]);
}

void rb_chain(satbox_joint joints[RB_DOF], satbox_link links[RB_LINKS])
{
    for (int j = 0; j < RB_DOF; j++) {
        double ca = DH_COS_ALPHA[j], sa = DH_SIN_ALPHA[j];
        joints[j] = (satbox_joint){.origin = {DH_A[j], -sa * DH_D[j], ca * DH_D[j]},
                                   .rot = {{1, 0, 0}, {0, ca, -sa}, {0, sa, ca}},
                                   .axis = {0, 0, 1}};
    }
    for (int l = 0; l < RB_LINKS; l++) {
        links[l] = (satbox_link){.joint = l < RB_DOF ? l : RB_DOF - 1,
                                 .center = {LINK_C[l][0], LINK_C[l][1], LINK_C[l][2]},
                                 .axis = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
                                 .half = {LINK_H[l][0], LINK_H[l][1], LINK_H[l][2]}};
    }
    /* the hand: frame 7 is joint 7's moved by FLANGE_D along z and turned by -pi/4 about z */
    double c = cos(-HALF_PI / 2), s = sin(-HALF_PI / 2);
    const double *lc = LINK_C[7];
    links[7].center[0] = c * lc[0] - s * lc[1];
    links[7].center[1] = s * lc[0] + c * lc[1];
    links[7].center[2] = lc[2] + FLANGE_D;
    double ax[3][3] = {{c, s, 0}, {-s, c, 0}, {0, 0, 1}};
    memcpy(links[7].axis, ax, sizeof ax);
}

static const satbox_pair SELF[] = {{0, 4}, {0, 5}, {0, 6}, {0, 7}, {1, 5}, {1, 6}, {1, 7}, {2, 6}, {2, 7}, {3, 7}};

size_t rb_self_pairs(const satbox_pair **pairs)
{
    *pairs = SELF;
    return sizeof SELF / sizeof SELF[0];
}

const char *rb_scene_name(rb_scene_kind kind)
{
    static const char *const names[RB_SCENE_COUNT] = {"bookshelf", "table", "cage"};
    return kind < RB_SCENE_COUNT ? names[kind] : "?";
}

/* ---- scene building: boxes placed relative to the base, in a frame turned by yaw about z ---- */

typedef struct frame {
    double o[3]; /* origin relative to the base */
    double yaw;
} frame;

/* Box of half extents h at local center c of frame f, turned in f by roll about x, then pitch about y, then yaw about z. */
static void put(rb_box *b, const frame *f, double cx, double cy, double cz, double hx, double hy, double hz,
                double yaw, double pitch, double roll)
{
    double cf = cos(f->yaw), sf = sin(f->yaw);
    b->center[0] = RB_BASE[0] + f->o[0] + cf * cx - sf * cy;
    b->center[1] = RB_BASE[1] + f->o[1] + sf * cx + cf * cy;
    b->center[2] = RB_BASE[2] + f->o[2] + cz;
    double y = f->yaw + yaw, cy_ = cos(y), sy = sin(y), cp = cos(pitch), sp = sin(pitch), cr = cos(roll),
           sr = sin(roll);
    /* The columns of that rotation (after the frame's yaw): the box's local axes in the world. */
    double R[3][3] = {{cy_ * cp, cy_ * sp * sr - sy * cr, cy_ * sp * cr + sy * sr},
                      {sy * cp, sy * sp * sr + cy_ * cr, sy * sp * cr - cy_ * sr},
                      {-sp, cp * sr, cp * cr}};
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++)
            b->axis[k][r] = R[r][k];
    b->half[0] = hx;
    b->half[1] = hy;
    b->half[2] = hz;
}

/* A shelf (local +x away from the arm): 2 sides, a back, 5 boards at z = 0, 0.3, ..., 1.2; 8 boxes. */
static size_t shelf(rb_box *out, const frame *f)
{
    size_t n = 0;
    put(&out[n++], f, 0, -0.45, 0.6, 0.15, 0.01, 0.6, 0, 0, 0);
    put(&out[n++], f, 0, 0.45, 0.6, 0.15, 0.01, 0.6, 0, 0, 0);
    put(&out[n++], f, 0.15, 0, 0.6, 0.01, 0.45, 0.6, 0, 0, 0);
    for (int i = 0; i < 5; i++)
        put(&out[n++], f, 0, 0, 0.3 * i, 0.15, 0.45, 0.01, 0, 0, 0);
    return n;
}

/* The frames of the scenes' structures: the two shelves, the table, the cage (and its half width and height). */
static const frame SHELVES[2] = {{{0.62, 0.05, -0.5}, 0.12}, {{-0.05, 0.66, -0.5}, HALF_PI - 0.2}};
static const frame TABLE = {{0.0, 0.0, -0.02}, 0.05};
static const frame CAGE = {{0.1, 0.0, -0.5}, 0.3};
#define CAGE_S 0.78
#define CAGE_TOP 1.7

static void bookshelf(tb_rng *r, size_t m, rb_box *out)
{
    const frame *shelves = SHELVES;
    size_t n = 0;
    for (int s = 0; s < 2; s++)
        n += shelf(out + n, &shelves[s]);
    /* Books standing on the lower four boards, leaning by up to 0.2 rad, over both shelves. */
    for (size_t i = 0; n < m; i++) {
        const frame *f = &shelves[i % 2];
        int board = (int)(i / 2 % 4);
        double hx = tb_range(r, 0.06, 0.12), hy = tb_range(r, 0.01, 0.03), hz = tb_range(r, 0.06, 0.13);
        double lean = tb_range(r, -0.2, 0.2);
        put(&out[n++], f, tb_range(r, -0.13, 0.13 - hx), tb_range(r, -0.42, 0.42), 0.3 * board + 0.01 + hz, hx, hy, hz,
            tb_range(r, -0.1, 0.1), 0, lean);
    }
}

static void table(tb_rng *r, size_t m, rb_box *out)
{
    const frame f = TABLE;
    size_t n = 0;
    put(&out[n++], &f, 0.65, 0, -0.02, 0.4, 0.7, 0.02, 0, 0, 0); /* top: z in [-0.04, 0] of f */
    for (int i = 0; i < 4; i++)
        put(&out[n++], &f, i & 1 ? 1.0 : 0.3, i & 2 ? 0.65 : -0.65, -0.4, 0.025, 0.025, 0.36, 0, 0, 0);
    put(&out[n++], &f, 1.1, 0, 0.6, 0.02, 0.9, 0.6, 0, 0, 0); /* a wall behind the table */
    /* Clutter on the top: cartons and cans resting on it, some stacked, some knocked over. */
    double last_top = 0, lx = 0, ly = 0;
    for (size_t i = 0; n < m; i++) {
        double hx = tb_range(r, 0.015, 0.06), hy = tb_range(r, 0.015, 0.06), hz = tb_range(r, 0.015, 0.08);
        double u = tb_unit(r), x, y, z, yaw = tb_range(r, -3.14159, 3.14159), pitch = 0, roll = 0;
        if (u < 0.2 && i > 0) { /* on the previous box */
            x = lx + tb_range(r, -0.01, 0.01);
            y = ly + tb_range(r, -0.01, 0.01);
            z = last_top + hz;
        } else {
            x = tb_range(r, 0.3, 1.0);
            y = tb_range(r, -0.65, 0.65);
            if (u > 0.9) { /* knocked over: turned about a horizontal axis, resting on its lowest corner */
                pitch = tb_range(r, 0.2, 1.4);
                roll = tb_range(r, -0.5, 0.5);
            }
            z = hz;
        }
        put(&out[n], &f, x, y, z, hx, hy, hz, yaw, pitch, roll);
        if (pitch != 0) { /* lift it so that its lowest corner is on the top */
            double low = 0;
            for (int k = 0; k < 3; k++)
                low += fabs(out[n].axis[k][2]) * out[n].half[k];
            out[n].center[2] = RB_BASE[2] + f.o[2] + low;
        }
        last_top = out[n].center[2] - RB_BASE[2] - f.o[2];
        for (int k = 0; k < 3; k++)
            last_top += 0.5 * fabs(out[n].axis[k][2]) * out[n].half[k] * 2;
        lx = x;
        ly = y;
        n++;
    }
}

static void cage(tb_rng *r, size_t m, rb_box *out)
{
    const frame f = CAGE;
    const double s = CAGE_S, top = CAGE_TOP, bar = 0.008;
    size_t n = 0;
    for (int i = 0; i < 4; i++) /* corner posts */
        put(&out[n++], &f, i & 1 ? s : -s, i & 2 ? s : -s, top / 2, 0.02, 0.02, top / 2, 0, 0, 0);
    for (int i = 0; i < 4; i++) /* the top rim */
        put(&out[n++], &f, i < 2 ? (i ? s : -s) : 0, i < 2 ? 0 : (i == 3 ? s : -s), top, i < 2 ? 0.02 : s,
            i < 2 ? s : 0.02, 0.02, 0, 0, 0);
    /* The bars: the four walls and the roof in turn, alternately upright and across, evenly spaced
     * with jitter and a tilt of up to 0.04 rad. */
    size_t bars = m - n;
    for (size_t i = 0; n < m; i++) {
        int face = (int)(i % 5);
        size_t per = bars / 5 + 1, j = i / 5;
        double t = -s + 2 * s * ((double)(j / 2) + 0.5 + tb_range(r, -0.2, 0.2)) / (double)((per + 1) / 2);
        double tilt = tb_range(r, -0.04, 0.04);
        int across = (int)(j & 1);
        if (face == 4) /* roof: bars along x or y */
            put(&out[n++], &f, across ? 0 : t, across ? t : 0, top, across ? s : bar, across ? bar : s, bar, tilt, 0, 0);
        else {
            double wx = face == 0 ? -s : face == 1 ? s : 0, wy = face == 2 ? -s : face == 3 ? s : 0;
            int along_y = face < 2; /* walls at x = +-s run along y */
            double cx = along_y ? wx : (across ? 0 : t), cy = along_y ? (across ? 0 : t) : wy;
            double cz = across ? top * ((double)(j / 2) + 0.5) / (double)((per + 1) / 2) : top / 2;
            double hx = along_y ? bar : (across ? s : bar), hy = along_y ? (across ? s : bar) : bar;
            put(&out[n++], &f, cx, cy, cz, hx, hy, across ? bar : top / 2, 0, along_y ? 0 : tilt, along_y ? tilt : 0);
        }
    }
}

void rb_scene(rb_scene_kind kind, size_t m, uint64_t seed, rb_box *out)
{
    tb_rng r;
    tb_seed(&r, seed * 3 + (uint64_t)kind);
    if (kind == RB_BOOKSHELF)
        bookshelf(&r, m, out);
    else if (kind == RB_TABLE)
        table(&r, m, out);
    else
        cage(&r, m, out);
}

/* p (world) in frame f's coordinates. */
static void local_of(const frame *f, const double p[3], double out[3])
{
    double x = p[0] - RB_BASE[0] - f->o[0], y = p[1] - RB_BASE[1] - f->o[1], c = cos(f->yaw), s = sin(f->yaw);
    out[0] = c * x + s * y;
    out[1] = -s * x + c * y;
    out[2] = p[2] - RB_BASE[2] - f->o[2];
}

int rb_scene_region(rb_scene_kind kind, const double p[3])
{
    double l[3];
    if (kind == RB_BOOKSHELF) {
        for (int s = 0; s < 2; s++) { /* in or in front of (30 cm) a compartment of shelf s */
            local_of(&SHELVES[s], p, l);
            if (l[0] > -0.3 && l[0] < 0.14 && fabs(l[1]) < 0.44 && l[2] > 0.02 && l[2] < 1.18)
                return s + 1;
        }
    } else if (kind == RB_TABLE) { /* among the clutter: over the top, at most 20 cm above it */
        local_of(&TABLE, p, l);
        if (l[0] > 0.3 && l[0] < 1.0 && fabs(l[1]) < 0.65 && l[2] > 0 && l[2] < 0.2 && fabs(l[1]) > 0.2)
            return l[1] < 0 ? 1 : 2;
    } else if (kind == RB_CAGE) { /* low, within 25 cm of a wall at x = -s or +s */
        local_of(&CAGE, p, l);
        if (l[2] < 0.6 && fabs(l[0]) > CAGE_S - 0.25)
            return l[0] < 0 ? 1 : 2;
    }
    return 0;
}

void rb_to_float(const rb_box *b, satbox_box *out)
{
    for (int c = 0; c < 3; c++) {
        out->center[c] = (float)(b->center[c] - RB_BASE[c]);
        out->half[c] = (float)b->half[c];
        for (int k = 0; k < 3; k++)
            out->axis[k][c] = (float)b->axis[k][c];
    }
}

void rb_random_q(tb_rng *r, double q[RB_DOF])
{
    for (int j = 0; j < RB_DOF; j++)
        q[j] = tb_range(r, RB_Q_LO[j], RB_Q_HI[j]);
}
