// Body definitions for the hand-built worlds of the unit tests.
#pragma once

#include "scenario/scenario.h"

namespace stepslide::test {

inline BodyDef box(Vec3 center, Vec3 half_extents) {
  BodyDef b;
  b.shape.type = ShapeType::Box;
  b.shape.half_extents = half_extents;
  b.position = center;
  return b;
}

/// A wide floor whose top is at `height`.
inline BodyDef floor_at(double height, double half_size = 50) {
  return box({0, height - 0.5, 0}, {half_size, 0.5, half_size});
}

inline BodyDef stairs(int steps, double rise, double run, double width, Vec3 position, Vec3 rotation_deg = {0, 0, 0}) {
  BodyDef b;
  b.shape.type = ShapeType::Stairs;
  b.shape.steps = steps;
  b.shape.rise = rise;
  b.shape.run = run;
  b.shape.width = width;
  b.position = position;
  b.rotation_deg = rotation_deg;
  return b;
}

inline BodyDef ramp(double length, double width, double angle_deg, Vec3 position) {
  BodyDef b;
  b.shape.type = ShapeType::Ramp;
  b.shape.length = length;
  b.shape.width = width;
  b.shape.angle_deg = angle_deg;
  b.position = position;
  return b;
}

}  // namespace stepslide::test
