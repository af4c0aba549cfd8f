/* Contact-problem files (cp_file.c): a written problem reads back
 * bit-exactly (every kind, spins, both levels, comments), and malformed
 * files give errors that name the file and the line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cp_internal.h"
#include "nsed_test.h"

static char tmpl[] = "/tmp/nsed_cp_XXXXXX";

static void round_trip(int impact) {
  enum { NC = 3, NW = 2, N = 3 * NC + NW };
  double G[N * N], b[N];
  for (int k = 0; k < N * N; k++) G[k] = sin(1.0 + k) * pow(10.0, (k % 7) - 3);
  for (int k = 0; k < N; k++) b[k] = cos(2.0 + k) * 1e-3;
  G[5] = -0.0, b[2] = 4.9e-324, b[3] = 0.1; /* a negative zero, a subnormal, an inexact decimal */
  nsed_cp_contact c[NC] = {
      {.kind = NSED_CP_STICK_CANDIDATE, .mu = 0.5, .mu0 = 0.5 * (1 - 1e-7), .restitution = 0.3},
      {.kind = NSED_CP_SLIPPING, .mu = 0.4, .mu0 = 0.6, .slip_dir = {0.6, -0.8}},
      {.kind = NSED_CP_FRICTIONLESS, .restitution = 1}};
  nsed_cp_spin w[NW] = {{.contact = 2, .kind = NSED_CP_SLIPPING, .mu = 1e-3, .sign = -1},
                        {.contact = 0, .kind = NSED_CP_STICK_CANDIDATE, .mu = 2e-3}};
  nsed_contact_problem p = {.nc = NC, .G = G, .b = b, .contacts = c, .nw = NW, .spins = w};
  nsed_error err;
  int rc = nsed_contact_problem_write(tmpl, &p, impact, "two lines\nof comment", &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  nsed_contact_problem_file f;
  rc = nsed_contact_problem_read(tmpl, &f, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  if (rc != NSED_OK) return;
  CHECK(f.impact == impact && f.problem.nc == NC && f.problem.nw == NW);
  CHECK(memcmp(f.problem.G, G, sizeof G) == 0 && memcmp(f.problem.b, b, sizeof b) == 0);
  CHECK(signbit(f.problem.G[5]) && f.problem.b[2] == 4.9e-324);
  int same = 1;
  for (int i = 0; i < NC; i++)
    same &= f.contacts[i].kind == c[i].kind && f.contacts[i].mu == c[i].mu &&
            f.contacts[i].mu0 == c[i].mu0 && f.contacts[i].slip_dir[0] == c[i].slip_dir[0] &&
            f.contacts[i].slip_dir[1] == c[i].slip_dir[1] && f.contacts[i].restitution == c[i].restitution;
  for (int k = 0; k < NW; k++)
    same &= f.spins[k].contact == w[k].contact && f.spins[k].kind == w[k].kind &&
            f.spins[k].mu == w[k].mu && f.spins[k].sign == w[k].sign;
  CHECK_MSG(same, "the contacts or spins read back differ (impact %d)", impact);
  nsed_contact_problem_file_free(&f);
  CHECK(f.G == NULL && f.contacts == NULL);
}

/* A file with a good header for one contact and no spins, body appended. */
static void write_file(const char *level, const char *body) {
  FILE *f = fopen(tmpl, "w");
  fprintf(f, "# one contact\nnsed-contact-problem 1\nlevel %s\ncontacts 1\nspins 0\n%s", level, body);
  fclose(f);
}

static const char *good_g = "G\n1 0 0\n0 1 0\n0 0 1\nb\n-1 0 0\n";

static void expect_error(int status, const char *needle) {
  nsed_error err;
  nsed_contact_problem_file f;
  int rc = nsed_contact_problem_read(tmpl, &f, &err);
  CHECK_MSG(rc == status && strstr(err.message, needle) && strstr(err.message, tmpl),
            "wanted '%s': rc %d, message '%s'", needle, rc, err.message);
  CHECK(f.G == NULL && f.b == NULL && f.contacts == NULL && f.spins == NULL);
}

static void bad_files(void) {
  char body[512];
  FILE *f = fopen(tmpl, "w");
  fprintf(f, "nsed-problem 1\n");
  fclose(f);
  expect_error(NSED_ERR_INPUT, ":1: expected 'nsed-contact-problem', found 'nsed-problem'");
  f = fopen(tmpl, "w");
  fprintf(f, "nsed-contact-problem 2\n");
  fclose(f);
  expect_error(NSED_ERR_INPUT, "file version 2 (this nsed reads 1)");
  write_file("velocity", "");
  expect_error(NSED_ERR_INPUT, ":3: level 'velocity' (accel or impact)");
  f = fopen(tmpl, "w");
  fprintf(f, "nsed-contact-problem 1\nlevel accel\ncontacts 0\nspins 0\n");
  fclose(f);
  expect_error(NSED_ERR_INPUT, "0 contacts, out of range");
  f = fopen(tmpl, "w"); /* no size is computed from it (UBSan would see 3 nc overflow) */
  fprintf(f, "nsed-contact-problem 1\nlevel accel\ncontacts 9223372036854775807\nspins 0\n");
  fclose(f);
  expect_error(NSED_ERR_INPUT, "9223372036854775807 contacts, out of range [1, 1024]");
  f = fopen(tmpl, "w");
  fprintf(f, "nsed-contact-problem 1\nlevel accel\ncontacts 1\nspins 2\n");
  fclose(f);
  expect_error(NSED_ERR_INPUT, "2 spins, out of range [0, 1]");
  write_file("accel", "G\n1 0 0\n0 x 0\n");
  expect_error(NSED_ERR_INPUT, ":8: expected entry of G (column-major) 4 (a number), found 'x'");
  write_file("accel", "G\n1 0 0\n0 1 0\n0 0 1\nb\n-1 inf 0\n");
  expect_error(NSED_ERR_INPUT, ":11: entry of b 1 is not finite (inf)");
  /* one contact line after a good G and b (line 12) */
  static const struct {
    const char *level, *contact, *needle;
  } lines[] = {
      {"accel", "contact sticking 0.5 0.5 0 0 0", ":12: contact 0: kind 'sticking' (stick_candidate, slipping or frictionless)"},
      {"accel", "contact slipping 0.5 0.5 1 1 0", ":12: contact 0 is slipping but its slip direction is not a unit vector"},
      {"accel", "contact stick_candidate -0.5 0.5 0 0 0", ":12: contact 0 needs mu >= 0 and mu0 >= 0"},
      {"impact", "contact stick_candidate 0.5 0.5 0 0 2", ":12: contact 0 needs a restitution in [0, 1]"},
      {"accel", "contact stick_candidate 0.5 0.5 0 0 0\n7", ":13: '7' after the last contact"},
      {"accel", "contact stick_candidate 0.5 0.5 0 0", "ended before restitution of contact 0"},
  };
  for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
    snprintf(body, sizeof body, "%s%s\n", good_g, lines[k].contact);
    write_file(lines[k].level, body);
    expect_error(NSED_ERR_INPUT, lines[k].needle);
  }
  /* the restitution is no part of an acceleration-level problem */
  snprintf(body, sizeof body, "%scontact stick_candidate 0.5 0.5 0 0 2\n", good_g);
  write_file("accel", body);
  nsed_contact_problem_file ok;
  nsed_error err;
  CHECK(nsed_contact_problem_read(tmpl, &ok, &err) == NSED_OK);
  nsed_contact_problem_file_free(&ok);
  /* one contact with one spin (4 x 4 G), its spin line (line 10) */
  static const struct {
    const char *spin, *needle;
  } spins[] = {{"spin 1 slipping 0.001 1", ":10: spin 0 names a contact out of range"},
               {"spin 0 slipping 0.001 0.5", ":10: spin 0 is slipping but its sign is not +1 or -1"}};
  for (size_t k = 0; k < sizeof spins / sizeof spins[0]; k++) {
    f = fopen(tmpl, "w");
    fprintf(f, "nsed-contact-problem 1\nlevel accel\ncontacts 1\nspins 1\nG\n");
    for (int e = 0; e < 16; e++) fprintf(f, "%d ", e % 5 == 0);
    fprintf(f, "\nb\n-1 0 0 0\ncontact stick_candidate 0.5 0.5 0 0 0\n%s\n", spins[k].spin);
    fclose(f);
    expect_error(NSED_ERR_INPUT, spins[k].needle);
  }
  unlink(tmpl);
  expect_error(NSED_ERR_IO, "cannot open");
}

int main(void) {
  int fd = mkstemp(tmpl);
  CHECK(fd >= 0);
  if (fd < 0) return TEST_DONE();
  close(fd);
  round_trip(0);
  round_trip(1);
  bad_files();
  nsed_error err;
  nsed_contact_problem none = {.nc = 0};
  CHECK(nsed_contact_problem_write(tmpl, &none, 0, NULL, &err) == NSED_ERR_INPUT);
  CHECK(access(tmpl, F_OK) != 0); /* nothing written */
  return TEST_DONE();
}
