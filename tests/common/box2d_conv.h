// box2d_conv.h - a satbox test polygon as a Box2D 2.4 b2PolygonShape and transform (tests/agree/test_box2d_agree.cpp, bench/bench_2d.cpp).
// SPDX-License-Identifier: MIT
#ifndef SATBOX_TEST_BOX2D_CONV_H
#define SATBOX_TEST_BOX2D_CONV_H

#include <box2d/b2_collision.h>
#include <box2d/b2_polygon_shape.h>

extern "C" {
#include "support2d.h"
}

// Local vertices about the vertex centroid, and the transform that puts them back (angle 0).
// b2PolygonShape::Set() takes the convex hull (vertices may be welded or start elsewhere).
inline void tb2_to_box2d(const tb_poly &p, b2PolygonShape &s, b2Transform &xf)
{
    float mx = 0, my = 0;
    for (int k = 0; k < p.n; k++)
        mx += p.x[k] / p.n, my += p.y[k] / p.n;
    b2Vec2 v[b2_maxPolygonVertices];
    for (int k = 0; k < p.n; k++)
        v[k].Set(p.x[k] - mx, p.y[k] - my);
    s.Set(v, p.n);
    xf.Set(b2Vec2(mx, my), 0.0f);
}

#endif
