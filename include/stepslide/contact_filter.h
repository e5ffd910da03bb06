// A game's say in what blocks the character: a filter the collision queries
// consult for every body they meet and every contact, sweep hit and ray hit
// they find (layers, one-way platforms, bodies a script turned off). The
// queries cost the same as before when no filter is set.
#pragma once

#include <LinearMath/btVector3.h>

#include <cstdint>

class btCollisionObject;

namespace stepslide {

/// Collision layers are numbered 0 .. kMaxLayer. A character collides with
/// the layers whose bits are set in its LayerMask (bit L: layer L).
constexpr int kMaxLayer = 31;
using LayerMask = std::uint32_t;
constexpr LayerMask kAllLayers = 0xffffffffu;
/// The bit of `layer` (0 .. kMaxLayer) in a LayerMask.
constexpr LayerMask layer_bit(int layer) { return LayerMask{1} << layer; }

/// One thing a query found, offered to ContactFilter::validate before it
/// counts.
struct ContactCandidate {
  enum class Query {
    Contact,  ///< an overlap or near contact of the shape (push-out, ground probe, ceiling)
    Sweep,    ///< the shape swept into a surface (moves, slides, steps)
    Ray,      ///< a ray (the ground check's face reads, the step's landing)
  };
  Query query = Query::Contact;
  const btCollisionObject* body = nullptr;
  /// Unit. Contact and sweep: from the body's surface toward the character;
  /// ray: the surface's normal at the hit, facing the ray's start.
  btVector3 normal{0, 0, 0};
  btVector3 point{0, 0, 0};  ///< on the body's surface
};

/// Implemented by a game (or the scenario runner) and handed to the
/// controller (CharacterController::set_contact_filter); the controller does
/// not own it. Both answers must depend only on their arguments and on what
/// the game set before the tick (never on how often or in which order they
/// are asked): the queries ask again, or not at all, as their memos decide.
class ContactFilter {
 public:
  virtual ~ContactFilter() = default;
  /// Whether the character may touch `body` at all (its layer): false hides
  /// the body from every query. Asked once per body a query's broadphase
  /// walk meets.
  virtual bool collides_with(const btCollisionObject& body) const = 0;
  /// Whether one contact or hit on a body collides_with accepted blocks the
  /// character: false drops it, as if that part of the surface were not
  /// there (a one-way platform seen from below).
  virtual bool validate(const ContactCandidate& candidate) const = 0;
};

}  // namespace stepslide
