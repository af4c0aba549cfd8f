"""The C declarations nsed's Python binding uses, and finding libnsed.

cffi ABI mode: nothing is compiled when the package is installed; the
declarations below must match include/nsed/*.h. Only what the binding calls
is declared. Structs the caller allocates and that may gain fields at their
end (nsed_observer, nsed_run_options, nsed_summary_info, the definition
structs and nsed_options of the model builder) are allocated with room to
spare (see new_padded), and the definitions and options are filled by the
library's own default functions first, so a library with more fields still
gets its defaults in the ones this file does not know. The enums of
include/nsed/model.h (and the friction model and LCP path of
complementarity.h) are declared as enums, so their values are the
library's; the others (nsed_event's kind and modes, nsed_output_format) are
ints here. tests/python/test_ffi_layout.py holds every declared struct
field to the offset the C compiler gives it, every declared struct to its
size and every declared constant and enumerator to its value.
"""

import ctypes.util
import os
import subprocess

import cffi

CDEF = """
#define NSED_EVENT_NKIND 11
#define NSED_LAW_NCHECK 9
#define NSED_RECORDER_CONTACT_COLUMNS 9
typedef struct { int status; char message[1024]; } nsed_error;
typedef struct nsed_model nsed_model;
typedef struct nsed_data nsed_data;

typedef struct {
  double t; int kind; int contact; int from; int to; int lcp_size; int pivots;
  double residual; const char *path; double impulse[3];
} nsed_event;

typedef struct {
  int mode; double gap; double lambda[3]; double slip_speed; double point[3];
  double moment; int spin;
} nsed_contact_info;

typedef struct {
  double worst; double tolerance; double t; int where; long count;
} nsed_law_margin;

typedef struct {
  long events, lcp_solves, rhs_evals, steps, root_evals;
  long events_by_kind[NSED_EVENT_NKIND];
  double max_constraint_violation, max_lcp_residual, wall_seconds;
  double wall_rhs, wall_roots, wall_events;
  double work_external, work_contacts, work_joints, energy_initial;
  nsed_law_margin law[NSED_LAW_NCHECK];
  double wall_monitor;
  long onsets_off_circle;
  double max_track_residual;
  long rhs_reused;
  long landings, landings_interpolated, landing_steps;
  long samples_interpolated;
  long error_test_failures;
  long projections;
  double max_projected_gap;
  long law_kinks;
  long margins_cleared;
} nsed_stats;

typedef struct {
  double t, h;
  long rejected, rhs;
  double error;
  int limit;
  double limit_share;
  long events;
  int first;
} nsed_step_info;

typedef struct {
  void *ctx;
  int (*sample)(void *ctx, const nsed_model *m, const nsed_data *d, int why);
  int (*event)(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev);
  void (*progress)(void *ctx, double t, double t_end, long events, double wall_seconds);
  volatile int *interrupt;
  int (*step)(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_step_info *s);
} nsed_observer;

typedef enum {
  NSED_FRICTION_POLYGON_FACE = 0, NSED_FRICTION_POLYGON_VERTEX = 1, NSED_FRICTION_EXACT_CONE = 2
} nsed_friction_model;
typedef enum {
  NSED_LCP_PATH_AUTO = 0, NSED_LCP_PATH_SICONOS_LEMKE = 1, NSED_LCP_PATH_NSED_LEMKE = 2,
  NSED_LCP_PATH_ENUM = 3, NSED_LCP_PATH_MILP = 4
} nsed_lcp_path;
typedef struct {
  nsed_friction_model model; int sides; nsed_lcp_path path; double tol; int max_pivots;
  double cone_tol;
} nsed_complementarity_settings;

/* include/nsed/model.h: the definition structs of the model builder */
#define NSED_NAME_MAX 64
#define NSED_LAW_MAX_POINTS 64
typedef enum { NSED_LAW_CONSTANT = 0, NSED_LAW_SINE = 1, NSED_LAW_PIECEWISE = 2 } nsed_law_type;
typedef struct {
  nsed_law_type type;
  double value;
  double offset, amplitude, omega, phase;
  int npoints;
  double times[NSED_LAW_MAX_POINTS];
  double values[NSED_LAW_MAX_POINTS];
} nsed_law;
typedef enum {
  NSED_SHAPE_NONE = 0, NSED_SHAPE_SPHERE = 1, NSED_SHAPE_DISK = 2, NSED_SHAPE_CYLINDER = 3,
  NSED_SHAPE_BOX = 4, NSED_SHAPE_POINT = 5, NSED_SHAPE_ROLLER = 6, NSED_SHAPE_CAPSULE = 7,
  NSED_SHAPE_ELLIPSOID = 8,
  NSED_SHAPE_SUPERELLIPSOID = 9
} nsed_shape_type;
typedef struct {
  nsed_shape_type type; double radius; double length; double half[3]; int rollers; double psi; double exponent;
} nsed_shape;
typedef enum { NSED_ROTOR_NONE = 0, NSED_ROTOR_X = 1, NSED_ROTOR_Y = 2, NSED_ROTOR_Z = 3 } nsed_rotor;
typedef struct {
  char name[NSED_NAME_MAX];
  double mass; double inertia[3]; nsed_shape shape;
  double position[3]; double quat[4]; double velocity[3]; double angular_velocity[3];
  nsed_rotor rotor;
  char attached_to[NSED_NAME_MAX];
} nsed_body_def;
typedef enum {
  NSED_JOINT_SPHERICAL = 0, NSED_JOINT_REVOLUTE = 1, NSED_JOINT_CYLINDRICAL = 2,
  NSED_JOINT_PRISMATIC = 3, NSED_JOINT_UNIVERSAL = 4, NSED_JOINT_WELD = 5, NSED_JOINT_SERVO = 6,
  NSED_JOINT_ALIGN = 7
} nsed_joint_type;
typedef enum { NSED_DRIVE_NONE = 0, NSED_DRIVE_FEEDBACK = 1, NSED_DRIVE_TABLE = 2 } nsed_drive_type;
typedef enum { NSED_DRIVE_OF_COORDINATE = 0, NSED_DRIVE_OF_RATE = 1 } nsed_drive_input;
typedef struct {
  nsed_drive_type type;
  double k;
  double c;
  nsed_law reference;
  nsed_law feedforward;
  nsed_drive_input input;
  nsed_law table;
} nsed_joint_drive;
typedef enum { NSED_SERVO_POSITION = 0, NSED_SERVO_ACCELERATION = 1 } nsed_servo_level;
typedef struct {
  char name[NSED_NAME_MAX];
  nsed_joint_type type;
  char body_a[NSED_NAME_MAX]; char body_b[NSED_NAME_MAX];
  double anchor_a[3], anchor_b[3], axis_a[3], axis_b[3];
  double spring_k, spring_c, rest_length;
  int has_torque;
  nsed_law torque;
  nsed_law servo_angle;
  nsed_servo_level servo_level;
  double servo_kp, servo_kd;
  nsed_joint_drive drive;
  nsed_joint_drive axial_drive;
} nsed_joint_def;
typedef enum {
  NSED_FORCE_BODY_FORCE = 0, NSED_FORCE_BODY_TORQUE = 1, NSED_FORCE_SPRING = 2
} nsed_force_type;
typedef struct {
  char name[NSED_NAME_MAX];
  nsed_force_type type;
  char body[NSED_NAME_MAX]; char body_b[NSED_NAME_MAX];
  double direction[3]; int direction_in_body; double point[3]; double point_b[3];
  nsed_law magnitude;
  double k, c, rest_length;
} nsed_force_def;
typedef enum {
  NSED_CONTACT_COULOMB = 0, NSED_CONTACT_REGULARIZED = 1, NSED_CONTACT_COMPLIANT = 2
} nsed_contact_law;
typedef enum {
  NSED_TRACKING_INHERIT = -1, NSED_TRACKING_EXPLICIT = 0, NSED_TRACKING_IMPLICIT = 1,
  NSED_TRACKING_DIFFERENTIAL = 2
} nsed_contact_tracking;
typedef struct {
  char name[NSED_NAME_MAX]; char body[NSED_NAME_MAX]; char other[NSED_NAME_MAX];
  double mu, mu0, restitution;
  nsed_contact_law law;
  double delta; double stiffness, damping;
  nsed_contact_tracking tracking;
  char wheel[NSED_NAME_MAX];
  double torsion, torsion_rate;
  int feature;
} nsed_contact_def;
typedef struct {
  char name[NSED_NAME_MAX]; double point[3]; double normal[3]; double velocity[3];
} nsed_plane_def;
typedef enum {
  NSED_INTEGRATOR_ARKODE_DP5 = 0, NSED_INTEGRATOR_ARKODE_VERNER = 1,
  NSED_INTEGRATOR_CVODE_ADAMS = 2, NSED_INTEGRATOR_CVODE_BDF = 3
} nsed_integrator;
typedef enum {
  NSED_STEP_CONTROLLER_PI_GUSTAFSSON = 0, NSED_STEP_CONTROLLER_PI = 1
} nsed_step_controller;
typedef enum { NSED_RESOLVER_LCP = 0, NSED_RESOLVER_TRIAL = 1 } nsed_event_resolver;
typedef struct {
  double gravity[3], floor_normal[3], floor_point[3], floor_velocity[3];
  nsed_complementarity_settings friction;
  nsed_integrator integrator;
  double t_end, rtol, atol, max_step, output_dt;
  double baumgarte_eta, baumgarte_xi, baumgarte_gamma;
  double contact_tol, slip_tol, slip_stop_speed;
  int zeno_events; double zeno_window; double zeno_velocity;
  int max_events;
  nsed_event_resolver event_resolver;
  nsed_contact_tracking contact_tracking;
  double drift_tol;
  double floor_spin;
  nsed_step_controller step_controller;
  int output_steps;
} nsed_options;

typedef void (*nsed_progress_fn)(void *ctx, double t, double t_end, long events,
                                 double wall_seconds);

typedef struct {
  const char *problem_path; const char *problem_text; size_t problem_len;
  const char *const *overrides; int noverrides;
  nsed_progress_fn progress; void *progress_ctx;
  volatile int *interrupt;
  int format;
} nsed_run_options;

typedef struct {
  int status; double t_reached; long events; double wall_seconds; int written;
  int failed_problem;
} nsed_run_result;

int nsed_problem_load(const char *path, const char *const *overrides, int noverrides,
                      nsed_model **out, nsed_error *err);
int nsed_problem_load_string(const char *text, size_t len, const char *name,
                             const char *const *overrides, int noverrides,
                             nsed_model **out, nsed_error *err);
void nsed_model_free(nsed_model **m);
int nsed_model_nbody(const nsed_model *m);
int nsed_model_njoint(const nsed_model *m);
int nsed_model_ncontact(const nsed_model *m);
int nsed_model_nforce(const nsed_model *m);
int nsed_model_nstate(const nsed_model *m);
int nsed_state_name(const nsed_model *m, int i, char *buf, size_t size);
int nsed_model_nplane(const nsed_model *m);
int nsed_model_find_body(const nsed_model *m, const char *name);
const char *nsed_model_body_name(const nsed_model *m, int i);
const char *nsed_model_joint_name(const nsed_model *m, int i);
const char *nsed_model_contact_name(const nsed_model *m, int i);
const nsed_force_def *nsed_model_force_def(const nsed_model *m, int i);
const nsed_options *nsed_model_options(const nsed_model *m);
const char *nsed_integrator_name(int i);
const char *nsed_step_controller_name(int c);
const char *nsed_friction_model_name(int f);

int nsed_model_create(nsed_model **out, nsed_error *err);
void nsed_body_def_default(nsed_body_def *def);
void nsed_joint_def_default(nsed_joint_def *def);
void nsed_force_def_default(nsed_force_def *def);
void nsed_contact_def_default(nsed_contact_def *def);
void nsed_plane_def_default(nsed_plane_def *def);
int nsed_shape_features(nsed_shape_type shape);
int nsed_contact_feature(const nsed_contact_def *c, nsed_shape_type shape, int feature,
                         nsed_contact_def *out, nsed_error *err);
void nsed_options_default(nsed_options *o);
int nsed_model_add_body(nsed_model *m, const nsed_body_def *def, nsed_error *err);
int nsed_model_add_joint(nsed_model *m, const nsed_joint_def *def, nsed_error *err);
int nsed_model_add_force(nsed_model *m, const nsed_force_def *def, nsed_error *err);
int nsed_model_add_contact(nsed_model *m, const nsed_contact_def *def, nsed_error *err);
int nsed_model_add_plane(nsed_model *m, const nsed_plane_def *def, nsed_error *err);
int nsed_model_set_options(nsed_model *m, const nsed_options *o, nsed_error *err);
int nsed_model_finalize(nsed_model *m, nsed_error *err);
const nsed_body_def *nsed_model_body_def(const nsed_model *m, int i);
const nsed_joint_def *nsed_model_joint_def(const nsed_model *m, int i);
const nsed_contact_def *nsed_model_contact_def(const nsed_model *m, int i);
const nsed_plane_def *nsed_model_plane_def(const nsed_model *m, int i);
const char *nsed_joint_type_name(int t);
const char *nsed_contact_tracking_name(int t);
const char *nsed_shape_type_name(int t);
const char *nsed_contact_law_name(int law);
double nsed_law_eval(const nsed_law *law, double t);
int nsed_data_check_initial_state(const nsed_model *m, const nsed_data *d, int *contact,
                                  nsed_error *err);

int nsed_data_create(const nsed_model *m, nsed_data **out, nsed_error *err);
void nsed_data_free(nsed_data **d);
int nsed_simulate(const nsed_model *m, nsed_data *d, const nsed_observer *obs, nsed_error *err);
double nsed_data_time(const nsed_data *d);
void nsed_data_body_state(const nsed_data *d, int i, double out[13]);
void nsed_data_contact(const nsed_data *d, int i, nsed_contact_info *out);
int nsed_data_joint_coordinates(const nsed_data *d, int j, double out[4]);
double nsed_data_energy(const nsed_model *m, const nsed_data *d);
const nsed_stats *nsed_data_stats(const nsed_data *d);
const char *nsed_mode_name(int mode);
const char *nsed_event_kind_name(int kind);
const char *nsed_law_check_name(int check);
const char *nsed_status_name(int status);

void nsed_run_options_default(nsed_run_options *o);
int nsed_run_problem(const nsed_model *m, const char *outdir, const nsed_run_options *opt,
                     nsed_run_result *result, nsed_error *err);

typedef struct {
  const char *problem_path; const char *problem_sha256;
  const char *const *overrides; int noverrides;
  int status; const char *message;
  const char *failed_problem;
} nsed_summary_info;
int nsed_summary_json(const nsed_model *m, const nsed_data *d, const nsed_summary_info *info,
                      char **text, nsed_error *err);
void nsed_free(void *p);

/* include/nsed/complementarity.h: event problems, their files and solver */
typedef enum {
  NSED_CP_STICK_CANDIDATE = 0, NSED_CP_SLIPPING = 1, NSED_CP_FRICTIONLESS = 2
} nsed_cp_kind;
typedef struct {
  nsed_cp_kind kind; double mu; double mu0; double slip_dir[2]; double restitution;
} nsed_cp_contact;
typedef struct { int contact; nsed_cp_kind kind; double mu; double sign; } nsed_cp_spin;
typedef struct {
  int nc; const double *G; const double *b; const nsed_cp_contact *contacts;
  int nw; const nsed_cp_spin *spins;
} nsed_contact_problem;
typedef enum { NSED_CP_OPEN = 0, NSED_CP_STICK = 1, NSED_CP_SLIP = 2 } nsed_cp_mode;
typedef struct {
  double *lambda; double *a; nsed_cp_mode *mode; double *slip_dir;
  nsed_cp_mode *spin_mode; double *spin_sign;
} nsed_contact_solution;
typedef struct {
  int lcp_size; int pivots; double residual; const char *path; int siconos_failed;
} nsed_lcp_stats;
typedef struct nsed_contact_solver nsed_contact_solver;
typedef struct {
  nsed_contact_problem problem; int impact; double *G; double *b;
  nsed_cp_contact *contacts; nsed_cp_spin *spins;
} nsed_contact_problem_file;
void nsed_complementarity_default_settings(nsed_complementarity_settings *s);
int nsed_contact_solver_create(const nsed_complementarity_settings *s, int max_contacts,
                               nsed_contact_solver **out, nsed_error *err);
void nsed_contact_solver_free(nsed_contact_solver **s);
int nsed_contact_solve_accel(nsed_contact_solver *s, const nsed_contact_problem *p,
                             nsed_contact_solution *sol, nsed_lcp_stats *stats, nsed_error *err);
int nsed_contact_solve_impact(nsed_contact_solver *s, const nsed_contact_problem *p,
                              nsed_contact_solution *sol, nsed_lcp_stats *stats, nsed_error *err);
typedef int (*nsed_lcp_observer)(void *user, const char *form, int n, const double *M,
                                 const double *q);
void nsed_contact_solver_set_lcp_observer(nsed_contact_solver *s, nsed_lcp_observer fn, void *user);
int nsed_contact_problem_read(const char *path, nsed_contact_problem_file *out, nsed_error *err);
void nsed_contact_problem_file_free(nsed_contact_problem_file *f);
int nsed_contact_problem_write(const char *path, const nsed_contact_problem *p, int impact,
                               const char *comment, nsed_error *err);
int nsed_data_failed_problem(const nsed_data *d, nsed_contact_problem *p, int *impact);

typedef struct nsed_recorder nsed_recorder;
int nsed_recorder_create(const nsed_model *m, nsed_recorder **out, nsed_error *err);
void nsed_recorder_free(nsed_recorder **r);
void nsed_recorder_chain(nsed_recorder *r, nsed_progress_fn progress, void *ctx,
                         volatile int *interrupt);
const nsed_observer *nsed_recorder_observer(const nsed_recorder *r);
int nsed_recorder_status(const nsed_recorder *r, nsed_error *err);
long nsed_recorder_rows(const nsed_recorder *r);
const double *nsed_recorder_trajectory(const nsed_recorder *r);
const double *nsed_recorder_contacts(const nsed_recorder *r);
const int *nsed_recorder_contact_spins(const nsed_recorder *r);
const int *nsed_recorder_contact_modes(const nsed_recorder *r);
long nsed_recorder_nevent(const nsed_recorder *r);
const nsed_event *nsed_recorder_events(const nsed_recorder *r);
"""

ffi = cffi.FFI()
ffi.cdef(CDEF)

# Bytes allocated for structs the library may extend at their end.
_PAD = 512


def new_padded(ctype):
    """A zeroed `ctype *` with _PAD bytes behind it (see the module doc)."""
    size = ffi.sizeof(ctype) + _PAD
    buf = ffi.new("char[]", size)
    return ffi.cast(ctype + " *", buf), buf   # keep buf alive as long as the pointer


def _pkg_config_libdir():
    """libnsed's directory as nsed.pc (installed by `meson install`) says,
    or None without pkg-config or nsed.pc."""
    try:
        p = subprocess.run(["pkg-config", "--variable=libdir", "nsed"], capture_output=True,
                           text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return p.stdout.strip() or None if p.returncode == 0 else None


def _candidates():
    env = os.environ.get("NSED_LIBRARY")
    if env:
        # Explicit: use exactly this file, and say so if it is not there.
        return [env], True
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    # The copy `pip install ./python` carries (python/setup.py), then the
    # repository's build tree, then an installed libnsed: where pkg-config
    # says (a prefix off the loader's path), the loader's own search.
    cands = [os.path.join(here, "libnsed.so.0")]
    if os.path.exists(cands[0]):
        return cands, False
    cands.append(os.path.join(repo, "build", "src", "libnsed.so"))
    libdir = _pkg_config_libdir()
    if libdir:
        cands.append(os.path.join(libdir, "libnsed.so.0"))
    found = ctypes.util.find_library("nsed")
    if found:
        cands.append(found)
    cands += ["libnsed.so.0", "libnsed.so"]
    return cands, False


def load_library():
    """dlopen libnsed: $NSED_LIBRARY; else the copy a pip-installed package
    carries (nsed/libnsed.so.0, and then only that); else the repository's
    build/src/libnsed.so, the libdir of pkg-config's nsed.pc, the system
    library path."""
    cands, explicit = _candidates()
    errors = []
    for c in cands:
        if os.path.sep in c and not os.path.exists(c):
            errors.append(f"{c}: no such file")
            continue
        try:
            return ffi.dlopen(c), c
        except OSError as e:
            errors.append(f"{c}: {e}")
    how = ("NSED_LIBRARY is set" if explicit else
           "build the library (meson setup build && ninja -C build), "
           "install it (meson install), or set NSED_LIBRARY to its path")
    raise ImportError("nsed: cannot load libnsed (" + how + "):\n  " + "\n  ".join(errors))
