// The Bullet types the geometry reads: vectors, matrices and transforms, and
// the convex shapes it takes apart (their dimensions, margins and support
// functions). No collision object, world or broadphase: the geometry answers
// questions about two solids and nothing else (tools/check_layers.py keeps
// Bullet's collision umbrella and dispatch headers out of src/geometry/).
#pragma once

#include <BulletCollision/BroadphaseCollision/btBroadphaseProxy.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <LinearMath/btTransform.h>
