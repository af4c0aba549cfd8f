/* The stick-slip sweeps of docs/engine.md ("Stick-slip sweeps"), in full:
 * the block on a belt over 200 values of mu in [0.05, 0.5] times seven
 * ratios mu0/mu from 1 to 2, 200 spheres with random spins and velocities,
 * and the disk on a shaft (cases 1 and 2) with 20 values of mu0 in
 * [mu, 2 mu] each. Prints a table: runs, completed (ok, law monitor clean,
 * every reference check passed), worst event-time error, worst law margin
 * (as a fraction of its tolerance), steps per event. argv[1] is the source
 * root; argv[2] (optional) scales the number of runs (1 = the full sweep). */
#include <stdio.h>
#include <stdlib.h>

#include "stick_slip_sweep.h"

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  double scale = argc > 2 ? atof(argv[2]) : 1.0;
  if (!(scale > 0)) scale = 1.0;
  static const double ratios[] = {1.0, 1.0 + 1e-12, 1.0 + 1e-9, 1.0 + 1e-6, 1.0 + 1e-3, 1.2, 2.0};
  int nr = (int)(sizeof ratios / sizeof ratios[0]);
  int n_mu = (int)(200 * scale), n_sphere = (int)(200 * scale), n_dos = (int)(20 * scale);
  if (n_mu < 2) n_mu = 2;
  if (n_sphere < 1) n_sphere = 1;
  if (n_dos < 2) n_dos = 2;
  sweep_stats belt = {0}, per[7], sphere, dos1, dos2;
  printf("Stick-slip sweeps (failures listed first)\n");
  for (int r = 0; r < nr; r++) {
    sweep_belt(root, n_mu, 0.05, 0.5, ratios + r, 1, 20.0, stdout, &per[r]);
    belt.runs += per[r].runs, belt.completed += per[r].completed, belt.failed += per[r].failed;
    belt.grazes += per[r].grazes, belt.steps += per[r].steps, belt.events += per[r].events;
    belt.wall += per[r].wall, belt.sim_wall += per[r].sim_wall, belt.monitor_wall += per[r].monitor_wall;
    if (per[r].worst_dt > belt.worst_dt) belt.worst_dt = per[r].worst_dt;
    if (per[r].worst_onset_dt > belt.worst_onset_dt) belt.worst_onset_dt = per[r].worst_onset_dt;
    if (per[r].worst_ratio > belt.worst_ratio) belt.worst_ratio = per[r].worst_ratio;
    if (per[r].worst_law > belt.worst_law) belt.worst_law = per[r].worst_law;
  }
  sweep_sphere(root, n_sphere, 12345u, stdout, &sphere);
  sweep_dos(root, 1, n_dos, 10.0, stdout, &dos1);
  sweep_dos(root, 2, n_dos, 25.0, stdout, &dos2);
  printf("\n");
  sweep_print_header(stdout);
  for (int r = 0; r < nr; r++) {
    char name[96];
    snprintf(name, sizeof name, "belt, mu0/mu = 1 + %.0e (%d grazes)", ratios[r] - 1.0, per[r].grazes);
    if (r == 0) snprintf(name, sizeof name, "belt, mu0 = mu");
    sweep_print_row(stdout, name, &per[r]);
  }
  sweep_print_row(stdout, "belt: mu x mu0/mu (1 .. 2), 20 s", &belt);
  sweep_print_row(stdout, "sphere: random spins and velocities", &sphere);
  sweep_print_row(stdout, "disk on shaft case 1: mu0 in [mu, 2 mu], 10 s", &dos1);
  sweep_print_row(stdout, "disk on shaft case 2: mu0 in [mu, 2 mu], 25 s", &dos2);
  printf("belt: %d of %d runs had sticks too short to resolve (grazes, docs/engine.md)\n", belt.grazes, belt.runs);
  const sweep_stats *all[4] = {&belt, &sphere, &dos1, &dos2};
  const char *names[4] = {"belt", "sphere", "disk on shaft 1", "disk on shaft 2"};
  printf("law monitor cost (goal < 2%% of the run):");
  for (int k = 0; k < 4; k++)
    printf(" %s %.2f%%%s", names[k], 100 * all[k]->monitor_wall / (all[k]->sim_wall > 0 ? all[k]->sim_wall : 1),
           k < 3 ? "," : "\n");
  int fail = belt.failed + sphere.failed + dos1.failed + dos2.failed;
  return fail ? 1 : 0;
}
