/* The supported surface pairs (docs/engine.md, "Contacts"). */
#include "shape_pairs.h"

#include "model_impl.h"

static const int pair_with_plane[] = {
    [NSED_SHAPE_NONE] = -1,
    [NSED_SHAPE_SPHERE] = NSEDI_PAIR_SPHERE_PLANE,
    [NSED_SHAPE_DISK] = NSEDI_PAIR_DISK_PLANE,
    [NSED_SHAPE_CYLINDER] = NSEDI_PAIR_CYLINDER_PLANE,
    [NSED_SHAPE_BOX] = NSEDI_PAIR_BOX_PLANE,
    [NSED_SHAPE_POINT] = NSEDI_PAIR_POINT_PLANE,
    [NSED_SHAPE_ROLLER] = NSEDI_PAIR_ROLLER_PLANE,
    [NSED_SHAPE_CAPSULE] = NSEDI_PAIR_CAPSULE_PLANE,
    [NSED_SHAPE_ELLIPSOID] = NSEDI_PAIR_ELLIPSOID_PLANE,
    [NSED_SHAPE_SUPERELLIPSOID] = NSEDI_PAIR_SUPERELLIPSOID_PLANE};

/* What a sphere (the contact's body) makes with each shape. */
static const int sphere_with[] = {
    [NSED_SHAPE_NONE] = -1,
    [NSED_SHAPE_SPHERE] = NSEDI_PAIR_SPHERE_SPHERE,
    [NSED_SHAPE_DISK] = NSEDI_PAIR_SPHERE_CYLINDER,
    [NSED_SHAPE_CYLINDER] = NSEDI_PAIR_SPHERE_CYLINDER,
    [NSED_SHAPE_BOX] = NSEDI_PAIR_SPHERE_BOX,
    [NSED_SHAPE_POINT] = -1,
    [NSED_SHAPE_ROLLER] = -1,
    [NSED_SHAPE_CAPSULE] = NSEDI_PAIR_SPHERE_CAPSULE,
    [NSED_SHAPE_ELLIPSOID] = NSEDI_PAIR_SPHERE_ELLIPSOID,
    [NSED_SHAPE_SUPERELLIPSOID] = NSEDI_PAIR_SPHERE_SUPERELLIPSOID};

#define NSHAPE ((int)(sizeof pair_with_plane / sizeof pair_with_plane[0]))

const char nsedi_body_pairs[] =
    "a sphere (the contact's body) against a sphere, a capsule, a box, a cylinder, a disk, an "
    "ellipsoid or a superellipsoid, and a capsule against a capsule";
const char nsedi_supported_pairs[] =
    "sphere, ellipsoid, superellipsoid, disk rim, point, box vertex, cylinder rim, capsule end "
    "cap or roller against the floor; the same but the roller against a plane; a sphere (the "
    "contact's body) against a sphere, a capsule, a box, a cylinder, a disk, an ellipsoid or a "
    "superellipsoid; a capsule against a capsule";

int nsedi_plane_pair(nsed_shape_type a) {
  return (int)a >= 0 && (int)a < NSHAPE ? pair_with_plane[a] : -1;
}

int nsedi_body_pair(nsed_shape_type a, nsed_shape_type b) {
  if (a == NSED_SHAPE_CAPSULE && b == NSED_SHAPE_CAPSULE) return NSEDI_PAIR_CAPSULE_CAPSULE;
  if (a != NSED_SHAPE_SPHERE || (int)b < 0 || (int)b >= NSHAPE) return -1;
  return sphere_with[b];
}

int nsedi_contact_features(nsed_shape_type a, int with_body) {
  return with_body ? 0 : nsed_shape_features(a);
}

int nsedi_pair_tracked_surface(int pair) {
  return pair == NSEDI_PAIR_ELLIPSOID_PLANE || pair == NSEDI_PAIR_SUPERELLIPSOID_PLANE ||
         pair == NSEDI_PAIR_SPHERE_ELLIPSOID || pair == NSEDI_PAIR_SPHERE_SUPERELLIPSOID;
}

const char *nsedi_pair_degenerate(int pair) {
  switch (pair) {
    case NSEDI_PAIR_DISK_PLANE:
    case NSEDI_PAIR_CYLINDER_PLANE:
      return "its rim lies flat (a disk or a cylinder on its face): every rim point is lowest";
    case NSEDI_PAIR_SPHERE_SPHERE:
      return "the spheres' centres coincide";
    case NSEDI_PAIR_SPHERE_CAPSULE:
    case NSEDI_PAIR_SPHERE_BOX:
    case NSEDI_PAIR_SPHERE_CYLINDER:
    case NSEDI_PAIR_SPHERE_ELLIPSOID:
    case NSEDI_PAIR_SPHERE_SUPERELLIPSOID:
      return "the sphere's centre is inside the body it touches";
    case NSEDI_PAIR_SUPERELLIPSOID_PLANE:
      return "the plane's normal turns across a flat direction of the superellipsoid (a "
             "coordinate plane of its axes, where one curvature is zero for an exponent above "
             "2): its contact point's rate is unbounded at that instant";
    case NSEDI_PAIR_CAPSULE_CAPSULE:
      return "the capsules' axes are parallel and their segments overlap: they touch along a "
             "line, which has no single contact point";
    default:
      return "its contact point is undefined";
  }
}
