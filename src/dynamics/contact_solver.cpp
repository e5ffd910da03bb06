#include "dynamics/contact_solver.h"

#include <algorithm>
#include <cmath>

namespace stepslide::dynamics {

namespace {

const SolverBody kFixed{};

/// One contact point's rows, set up once per step.
struct Row {
  btVector3 ra, rb;          ///< from each centre of mass to the point
  btVector3 t[2];            ///< friction directions
  double normal_mass = 0.0;  ///< 1 / (effective inverse mass along the normal)
  double tangent_mass[2] = {0.0, 0.0};
  double target = 0.0;  ///< the least normal velocity (m/s) the row allows
  double needed = 0.0;  ///< the speed change this row may ask (m/s): bounce and push-out
  double bound = 0.0;   ///< the most normal impulse the point may carry (N·s); 0: none
};

double inverse_mass_along(const SolverBody& body, const btVector3& r, const btVector3& d) {
  const btVector3 rd = r.cross(d);
  return body.inverse_mass + rd.dot(body.inverse_inertia * rd);
}

btVector3 velocity_at(const SolverBody& body, const btVector3& r) { return body.linear + body.angular.cross(r); }

void apply(SolverBody& body, const btVector3& r, const btVector3& impulse) {
  body.linear += impulse * body.inverse_mass;
  body.angular += body.inverse_inertia * r.cross(impulse);
}

/// `impulse` on a (along it) and b (against it), for the bodies that move.
void apply_pair(SolverBody* a, SolverBody* b, const Row& row, const btVector3& impulse) {
  if (a) apply(*a, row.ra, impulse);
  if (b) apply(*b, row.rb, -impulse);
}

double mass_of(double inverse) { return inverse > 0.0 ? 1.0 / inverse : 0.0; }

/// The accumulated normal impulse, never a pull, never above a positive bound.
double clamp_normal(double impulse, double bound) {
  const double pushed = std::max(impulse, 0.0);
  return bound > 0.0 ? std::min(pushed, bound) : pushed;
}

/// Each row's bound from its island's mass and the largest speed change any
/// row of that island may ask.
void bound_rows(const std::vector<Manifold>& manifolds, std::vector<Row>& rows, const SolverSettings& settings) {
  // The largest speed change any row of each island asks (island keys are
  // small non-negative integers: a body index), then each row's bound.
  int last_island = 0;
  for (const Manifold& m : manifolds) last_island = std::max(last_island, m.island);
  std::vector<double> needed(static_cast<std::size_t>(last_island) + 1, 0.0);
  std::size_t first = 0;
  for (const Manifold& m : manifolds) {
    double& island = needed[static_cast<std::size_t>(std::max(m.island, 0))];
    for (int k = 0; k < m.count; ++k) island = std::max(island, rows[first + static_cast<std::size_t>(k)].needed);
    first += static_cast<std::size_t>(m.count);
  }
  first = 0;
  for (const Manifold& m : manifolds) {
    const double bound = impulse_bound(m.island_mass, needed[static_cast<std::size_t>(std::max(m.island, 0))], settings);
    for (int k = 0; k < m.count; ++k) rows[first + static_cast<std::size_t>(k)].bound = bound;
    first += static_cast<std::size_t>(m.count);
  }
}

}  // namespace

double impulse_bound(double island_mass, double needed_speed, const SolverSettings& settings) {
  return island_mass * (needed_speed + settings.gravity_speed + settings.impulse_bound_margin);
}

void tangents(const btVector3& n, btVector3* t1, btVector3* t2) {
  if (std::fabs(n.z()) > 0.7071067811865476) {
    const double a = n.y() * n.y() + n.z() * n.z();
    const double k = 1.0 / std::sqrt(a);
    t1->setValue(0, -n.z() * k, n.y() * k);
    t2->setValue(a * k, -n.x() * t1->z(), n.x() * t1->y());
  } else {
    const double a = n.x() * n.x() + n.y() * n.y();
    const double k = 1.0 / std::sqrt(a);
    t1->setValue(-n.y() * k, n.x() * k, 0);
    t2->setValue(-n.z() * t1->y(), n.z() * t1->x(), a * k);
  }
}

void clamp_to_cone(double* t1, double* t2, double limit) {
  const double squared = *t1 * *t1 + *t2 * *t2;
  if (!(squared > limit * limit)) return;
  const double scale = limit > 0.0 ? limit / std::sqrt(squared) : 0.0;
  *t1 *= scale;
  *t2 *= scale;
}

void solve_contacts(std::vector<SolverBody>& bodies, std::vector<Manifold>& manifolds, double dt,
                    const SolverSettings& settings) {
  const auto body = [&bodies](int i) { return i >= 0 ? &bodies[static_cast<std::size_t>(i)] : nullptr; };
  const auto read = [&bodies](int i) -> const SolverBody& {
    return i >= 0 ? bodies[static_cast<std::size_t>(i)] : kFixed;
  };
  // Set up every row from the velocities before any impulse (the
  // restitution's approach speed), then warm start.
  std::vector<Row> rows;
  for (const Manifold& m : manifolds) {
    const SolverBody& a = read(m.a);
    const SolverBody& b = read(m.b);
    for (int k = 0; k < m.count; ++k) {
      const ContactPoint& p = m.points[k];
      Row row;
      row.ra = p.point - a.centre;
      row.rb = p.point - b.centre;
      tangents(m.normal, &row.t[0], &row.t[1]);
      row.normal_mass = mass_of(inverse_mass_along(a, row.ra, m.normal) + inverse_mass_along(b, row.rb, m.normal));
      for (int j = 0; j < 2; ++j) {
        row.tangent_mass[j] =
            mass_of(inverse_mass_along(a, row.ra, row.t[j]) + inverse_mass_along(b, row.rb, row.t[j]));
      }
      // Apart: the bodies may close the gap within the step and no more
      // (a speculative contact). Overlapping: pushed apart by a fraction
      // of the overlap per step.
      row.target = p.separation > 0.0 ? -p.separation / dt
                                       : std::min(settings.baumgarte * -p.separation / dt, settings.max_push_out_speed);
      const double approach = (velocity_at(a, row.ra) - velocity_at(b, row.rb)).dot(m.normal);
      if (m.restitution > 0.0 && approach < -settings.restitution_threshold) {
        row.target = std::max(row.target, -m.restitution * approach);
      }
      row.needed = std::max(row.target, 0.0) + std::max(-approach, 0.0);
      rows.push_back(row);
    }
  }
  bound_rows(manifolds, rows, settings);
  std::size_t first = 0;
  for (Manifold& m : manifolds) {
    for (int k = 0; k < m.count; ++k) {
      const Row& row = rows[first + static_cast<std::size_t>(k)];
      ContactPoint& p = m.points[k];
      if (row.bound > 0.0 && p.normal_impulse > row.bound) {
        // A warm start above the bound comes in at the bound, its friction
        // scaled with it.
        const double scale = row.bound / p.normal_impulse;
        p.normal_impulse = row.bound;
        p.tangent_impulse[0] *= scale;
        p.tangent_impulse[1] *= scale;
      }
      apply_pair(body(m.a), body(m.b), row,
                 m.normal * p.normal_impulse + row.t[0] * p.tangent_impulse[0] + row.t[1] * p.tangent_impulse[1]);
    }
    first += static_cast<std::size_t>(m.count);
  }
  // Each iteration: every manifold's normal rows, in order, then every
  // manifold's friction rows, whose cones use the normal impulses just found.
  for (int iteration = 0; iteration < settings.iterations; ++iteration) {
    first = 0;
    for (Manifold& m : manifolds) {
      for (int k = 0; k < m.count; ++k) {
        const Row& row = rows[first + static_cast<std::size_t>(k)];
        ContactPoint& p = m.points[k];
        // No pull, at least the target's separation speed.
        const double vn = (velocity_at(read(m.a), row.ra) - velocity_at(read(m.b), row.rb)).dot(m.normal);
        const double total = clamp_normal(p.normal_impulse + row.normal_mass * (row.target - vn), row.bound);
        apply_pair(body(m.a), body(m.b), row, m.normal * (total - p.normal_impulse));
        p.normal_impulse = total;
      }
      first += static_cast<std::size_t>(m.count);
    }
    first = 0;
    for (Manifold& m : manifolds) {
      for (int k = 0; k < m.count; ++k) {
        const Row& row = rows[first + static_cast<std::size_t>(k)];
        ContactPoint& p = m.points[k];
        // Both directions at once, then into the cone.
        const btVector3 v = velocity_at(read(m.a), row.ra) - velocity_at(read(m.b), row.rb);
        double t1 = p.tangent_impulse[0] - row.tangent_mass[0] * v.dot(row.t[0]);
        double t2 = p.tangent_impulse[1] - row.tangent_mass[1] * v.dot(row.t[1]);
        clamp_to_cone(&t1, &t2, m.friction * p.normal_impulse);
        apply_pair(body(m.a), body(m.b), row,
                   row.t[0] * (t1 - p.tangent_impulse[0]) + row.t[1] * (t2 - p.tangent_impulse[1]));
        p.tangent_impulse[0] = t1;
        p.tangent_impulse[1] = t2;
      }
      first += static_cast<std::size_t>(m.count);
    }
  }
}

}  // namespace stepslide::dynamics
