// Depenetration: pushing the shape out of every overlap at once.
#include "controller.h"

#include <algorithm>
#include <cmath>

#include "controller_internal.h"

namespace stepslide {

using namespace detail;

namespace {

/// Correction with exactly the contacts in `subset` resolved (n_i·c = d_i),
/// as c = Σ λ_i n_i. False when the normals are dependent or some λ_i < 0
/// (that contact would be pulled, not pushed).
bool solve_active_set(const std::vector<btVector3>& normals, const std::vector<double>& depths,
                      const std::vector<std::size_t>& subset, btVector3* correction) {
  const std::size_t k = subset.size();
  double gram[3][3];
  double rhs[3];
  for (std::size_t i = 0; i < k; ++i) {
    rhs[i] = depths[subset[i]];
    for (std::size_t j = 0; j < k; ++j) gram[i][j] = normals[subset[i]].dot(normals[subset[j]]);
  }
  double lambda[3] = {0, 0, 0};
  if (k == 1) {
    lambda[0] = rhs[0] / gram[0][0];
  } else if (k == 2) {
    const double det = gram[0][0] * gram[1][1] - gram[0][1] * gram[1][0];
    if (std::fabs(det) < 1e-10) return false;
    lambda[0] = (rhs[0] * gram[1][1] - gram[0][1] * rhs[1]) / det;
    lambda[1] = (gram[0][0] * rhs[1] - rhs[0] * gram[1][0]) / det;
  } else {
    const btMatrix3x3 g(gram[0][0], gram[0][1], gram[0][2], gram[1][0], gram[1][1], gram[1][2], gram[2][0],
                        gram[2][1], gram[2][2]);
    if (std::fabs(g.determinant()) < 1e-10) return false;
    const btVector3 l = g.inverse() * btVector3(rhs[0], rhs[1], rhs[2]);
    lambda[0] = l.x();
    lambda[1] = l.y();
    lambda[2] = l.z();
  }
  btVector3 c(0, 0, 0);
  for (std::size_t i = 0; i < k; ++i) {
    if (lambda[i] < 0) return false;
    c += normals[subset[i]] * lambda[i];
  }
  *correction = c;
  return true;
}

bool resolves_all(const std::vector<btVector3>& normals, const std::vector<double>& depths, const btVector3& c) {
  for (std::size_t i = 0; i < normals.size(); ++i) {
    if (normals[i].dot(c) < depths[i] - 1e-9) return false;
  }
  return true;
}

/// Smallest correction that clears every contact, if one exists. In 3D it is
/// a non-negative combination of at most three contact normals, so trying
/// every active set of one, two and three contacts finds it exactly.
bool smallest_clearing_correction(const std::vector<btVector3>& normals, const std::vector<double>& depths,
                                  btVector3* best) {
  const std::size_t n = std::min<std::size_t>(normals.size(), 12);  // deepest first
  double best_length = -1;
  auto consider = [&](const std::vector<std::size_t>& subset) {
    btVector3 c;
    if (!solve_active_set(normals, depths, subset, &c) || !resolves_all(normals, depths, c)) return;
    if (best_length < 0 || c.length2() < best_length) {
      best_length = c.length2();
      *best = c;
    }
  };
  for (std::size_t i = 0; i < n; ++i) {
    consider({i});
    for (std::size_t j = i + 1; j < n; ++j) {
      consider({i, j});
      for (std::size_t k = j + 1; k < n; ++k) consider({i, j, k});
    }
  }
  return best_length >= 0;
}

}  // namespace

btVector3 solve_depenetration(const std::vector<btVector3>& normals, const std::vector<double>& depths,
                              int max_passes) {
  btVector3 exact;
  if (smallest_clearing_correction(normals, depths, &exact)) return exact;
  // No correction clears them all: the contacts oppose each other (squeezed
  // between two walls). Simultaneous projection (Cimmino) moves each pass by
  // the average of what every violated contact asks for, and settles on the
  // balance point instead of bouncing from one side to the other as
  // sequential projection would.
  btVector3 correction(0, 0, 0);
  for (int pass = 0; pass < max_passes; ++pass) {
    btVector3 sum(0, 0, 0);
    int violated = 0;
    double worst = 0.0;
    for (std::size_t i = 0; i < normals.size(); ++i) {
      const double unresolved = depths[i] - normals[i].dot(correction);
      if (unresolved <= 0) continue;
      sum += normals[i] * unresolved;
      ++violated;
      worst = std::max(worst, unresolved);
    }
    if (violated == 0 || worst < 1e-9) break;
    correction += sum / violated;
  }
  return correction;
}

DepenetrationResult depenetrate(const CharacterContext& ctx, const btVector3& position) {
  DepenetrationResult result;
  result.position = position;
  std::vector<Contact> contacts;
  std::vector<btVector3> normals;
  std::vector<double> depths;
  for (;;) {
    ctx.object->setWorldTransform(ctx.transform_at(result.position));
    ctx.queries->contacts(ctx.object, 0.0, contacts);
    normals.clear();
    depths.clear();
    for (const Contact& c : contacts) {
      if (c.distance >= -kPenetrationTolerance) continue;
      normals.push_back(c.normal);
      depths.push_back(-c.distance + ctx.settings->skin_width);
    }
    if (normals.empty()) {
      result.converged = true;
      return result;
    }
    if (result.iterations >= ctx.settings->max_depenetration_iterations) {
      result.converged = false;
      return result;
    }
    ++result.iterations;
    const btVector3 correction = solve_depenetration(normals, depths, 64);
    if (ctx.observer != nullptr) {
      DepenetrationEvent e;
      e.iteration = result.iterations;
      for (const Contact& c : contacts) {
        if (c.distance < -kPenetrationTolerance) e.overlaps.push_back(c);
      }
      e.correction = correction;
      ctx.observer->on_depenetration(e);
    }
    result.position += correction;
  }
}

}  // namespace stepslide
