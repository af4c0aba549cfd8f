/* Sweeps of the stick-slip transitions against references nobody tuned
 * (docs/engine.md, "Stick-slip sweeps"): the block on a belt against its
 * closed form over mu and mu0/mu, a sphere sliding from random spins and
 * velocities against t* = 2|u0|/(7 mu g), and the disk on a shaft with mu0
 * in [mu, 2 mu] against the reduced-coordinate model (dos_reduced.c).
 * Shared by bench/bench_stick_slip.c (the full sweeps) and
 * tests/engine/test_stick_slip_sweep.c (a sample). */
#ifndef NSED_TESTS_STICK_SLIP_SWEEP_H
#define NSED_TESTS_STICK_SLIP_SWEEP_H

#include <stdio.h>

/* What a sweep measured. Event-time errors are also given relative to each
 * event's own tolerance (worst_ratio <= 1 is a pass). */
typedef struct {
  int runs, completed;      /* completed: status ok, law monitor clean, every check passed */
  int failed;               /* runs that failed a check (listed on the report stream) */
  int grazes;               /* belt: stick-slip pairs too short to resolve, run as one slip */
  double worst_dt;          /* s: largest |event time - reference| */
  double worst_onset_dt;    /* s: the same over stick -> slip events only */
  double worst_ratio;       /* largest |event time - reference| / its tolerance */
  double worst_law;         /* largest (-worst margin / tolerance) of the law monitor, all checks */
  long steps, events;       /* totals, for steps per event */
  double wall;              /* s */
  double sim_wall, monitor_wall; /* s: inside nsed_simulate, and of it in the law monitor */
} sweep_stats;

/* The block on a belt (problems/block_on_belt.yaml) for n_mu values of mu
 * evenly in [mu_lo, mu_hi] (n_mu = 1: mu_lo) times each ratio mu0/mu, to
 * t_end, against its closed form. Onsets (stick -> slip) must agree to
 * 1e-9 s; a stop's time is as well conditioned as the slip's deceleration
 * allows: 1e-9 s plus 10 rtol V / (w^2 d) (a velocity error of 10 rtol V
 * over the deceleration at the stop). A stick whose slip dips below zero by
 * less than ten such velocity errors (depth w^2 d^2 / (2V)) may run as one
 * slip (a graze): the events then end with an onset, every earlier one as
 * above, and the block is within 2 d per missing stick (+ 1e-9 m) of the
 * closed form at t_end. */
void sweep_belt(const char *root, int n_mu, double mu_lo, double mu_hi, const double *ratios,
                int n_ratio, double t_end, FILE *report, sweep_stats *st);

/* n spheres (problems/sphere_slide_roll.yaml) with random velocities
 * |v| <= 2 m/s, spins |w_k| <= 20 rad/s and mu in [0.05, 0.5] (seeded):
 * one event, slip -> stick, at t* = 2 |u0| / (7 mu g) to 1e-9 s, and the
 * rolling velocity v0 - mu g t* u0/|u0| to 1e-9 m/s. */
void sweep_sphere(const char *root, int n, unsigned seed, FILE *report, sweep_stats *st);

/* The disk on a shaft, case_no 1 or 2, for n values of mu0 evenly in
 * [mu, 2 mu], to t_end, against the reduced-coordinate model with the same
 * mu0: the same event sequence, event times to 1e-8 s (stops of a 2D slip
 * that turns as it stops: 2e-8 s). */
void sweep_dos(const char *root, int case_no, int n, double t_end, FILE *report, sweep_stats *st);

/* Print the table's header, and a row for a sweep. */
void sweep_print_header(FILE *f);
void sweep_print_row(FILE *f, const char *name, const sweep_stats *st);

#endif
