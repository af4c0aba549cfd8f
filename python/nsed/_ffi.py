"""The C declarations nsed's Python binding uses, and finding libnsed.

cffi ABI mode: nothing is compiled when the package is installed; the
declarations below must match include/nsed/*.h. Only what the binding calls
is declared. Structs the caller allocates and that may gain fields at their
end (nsed_observer, nsed_run_options, nsed_summary_info) are allocated with
room to spare (see new_padded), so a library with more fields still gets
zeros (defaults) in the ones this file does not know. nsed_options is only
read through a pointer, by its leading fields. The enums of the C headers
(nsed_event's kind and modes, nsed_output_format) are ints here.
tests/python/test_ffi_layout.py holds every declared field to the offset
the C compiler gives it.
"""

import ctypes.util
import os

import cffi

CDEF = """
#define NSED_EVENT_NKIND 8
#define NSED_LAW_NCHECK 7
#define NSED_RECORDER_CONTACT_COLUMNS 8
typedef struct { int status; char message[1024]; } nsed_error;
typedef struct nsed_model nsed_model;
typedef struct nsed_data nsed_data;

typedef struct {
  double t; int kind; int contact; int from; int to; int lcp_size; int pivots;
  double residual; const char *path; double impulse[3];
} nsed_event;

typedef struct {
  int mode; double gap; double lambda[3]; double slip_speed; double point[3];
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
} nsed_stats;

typedef struct {
  void *ctx;
  int (*sample)(void *ctx, const nsed_model *m, const nsed_data *d, int why);
  int (*event)(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev);
  void (*progress)(void *ctx, double t, double t_end, long events, double wall_seconds);
  volatile int *interrupt;
} nsed_observer;

typedef struct {
  int model; int sides; int path; double tol; int max_pivots; double cone_tol;
} nsed_complementarity_settings;

typedef struct {
  double gravity[3], floor_normal[3], floor_point[3], floor_velocity[3];
  nsed_complementarity_settings friction;
  int integrator;
  double t_end, rtol, atol, max_step, output_dt;
} nsed_options;

typedef struct { char name[64]; } nsed_force_def;

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
const char *nsed_model_body_name(const nsed_model *m, int i);
const char *nsed_model_joint_name(const nsed_model *m, int i);
const char *nsed_model_contact_name(const nsed_model *m, int i);
const nsed_force_def *nsed_model_force_def(const nsed_model *m, int i);
const nsed_options *nsed_model_options(const nsed_model *m);
const char *nsed_integrator_name(int i);
const char *nsed_friction_model_name(int f);

int nsed_data_create(const nsed_model *m, nsed_data **out, nsed_error *err);
void nsed_data_free(nsed_data **d);
int nsed_simulate(const nsed_model *m, nsed_data *d, const nsed_observer *obs, nsed_error *err);
double nsed_data_time(const nsed_data *d);
void nsed_data_body_state(const nsed_data *d, int i, double out[13]);
void nsed_data_contact(const nsed_data *d, int i, nsed_contact_info *out);
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
} nsed_summary_info;
int nsed_summary_json(const nsed_model *m, const nsed_data *d, const nsed_summary_info *info,
                      char **text, nsed_error *err);
void nsed_free(void *p);

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
    size = max(_PAD, ffi.sizeof(ctype))
    buf = ffi.new("char[]", size)
    return ffi.cast(ctype + " *", buf), buf   # keep buf alive as long as the pointer


def _candidates():
    env = os.environ.get("NSED_LIBRARY")
    if env:
        # Explicit: use exactly this file, and say so if it is not there.
        return [env], True
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    cands = [os.path.join(repo, "build", "src", "libnsed.so")]
    found = ctypes.util.find_library("nsed")
    if found:
        cands.append(found)
    cands += ["libnsed.so.0", "libnsed.so"]
    return cands, False


def load_library():
    """dlopen libnsed: $NSED_LIBRARY, else the repository's build/src/libnsed.so,
    else the system library path."""
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
