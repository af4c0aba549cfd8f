#include "tree_solve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "small_lu.h"
#include "tolerances.h"

/* Node i < nb is body i (6 unknowns: du); node nb + g is row group g (its
 * rows' multipliers). Every node's block is at most 6 x 6. */
enum { NODE = 6, BLOCK = NODE * NODE };

struct nsedi_tree_ws {
  int nb, maxr, maxnode;
  /* the factored system (borrowed from nsedi_tree_factor's caller) */
  const double *minv;
  const nsedi_row *rows, *cols;
  int nr, ng, nnode, norder, nsec; /* norder: nodes in the forest (not secondary groups) */
  /* row groups: consecutive rows between one pair of bodies, at most 6 */
  int *gstart, *gsize;
  int *row_group; /* per row: its group, or -1 - k for secondary row k */
  int *sec;       /* secondary rows' indices */
  unsigned char *axial_only; /* per body: an attached rotor, whose rows act on its axial rate alone */
  int *uf;        /* union-find over bodies and the world (index nb) */
  int *adj_start, *adj; /* the forest's adjacency, CSR */
  int *order;     /* breadth first from each root: parents before children */
  int *parent;    /* parent node, -1 for a root, -2 unvisited */
  char *leaf;     /* a body with no children: its pivot block is its diagonal mass */
  double *D;      /* BLOCK per node: its pivot block, LU-factored */
  double *U;      /* BLOCK per node: D_i^-1 H[i, parent] (dim_i x dim_parent) */
  int *piv;       /* NODE per node */
  int nz[NODE];
  double *v;      /* NODE per node: right-hand side, then solution */
  double *w;      /* NODE per node: a secondary column's H^-1 B_k along its paths; in a
                     solve, H^-1 r at the loop rows' bodies, then B mu's forward elimination */
  int *pos;       /* per node: its place in order */
  int *zmark, *xmark; /* per node: w holds the forward (z) or final (x) value of column zmark / xmark */
  int stamp;          /* the next solve's mark (above every column's; reset by each factorisation) */
  int *pair_kept;     /* 2 maxr: the body pairs of the rows the forest was built for */
  int nr_kept, structure_valid;
  int *path;      /* the nodes of a column's forward pass, or of a path's back substitution */
  double S[NSEDI_TREE_MAX_SECONDARY * NSEDI_TREE_MAX_SECONDARY];
  int spiv[NSEDI_TREE_MAX_SECONDARY], snz[NSEDI_TREE_MAX_SECONDARY];
  double mu[NSEDI_TREE_MAX_SECONDARY];
  double *rf, *ddu; /* NODE nb: refinement's body residual and correction */
  double *sc;       /* NODE nb: the residual's scale per body equation */
  double *amax;     /* 2 nb: each body's largest linear and angular acceleration */
  long nsolve, nrefined; /* solves, and those refined */
  double *rt, *dlam; /* maxr: its row residual and correction */
};

nsedi_tree_ws *nsedi_tree_ws_create(int nbody, int max_rows, const unsigned char *axial_only) {
  nsedi_tree_ws *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->axial_only = calloc((size_t)(nbody > 0 ? nbody : 1), 1);
  if (t->axial_only && axial_only) memcpy(t->axial_only, axial_only, (size_t)nbody);
  int r = max_rows > 1 ? max_rows : 1, n = nbody + r;
  t->nb = nbody;
  t->maxr = r;
  t->maxnode = n;
  t->gstart = malloc(sizeof(int) * (size_t)r);
  t->gsize = malloc(sizeof(int) * (size_t)r);
  t->row_group = malloc(sizeof(int) * (size_t)r);
  t->sec = malloc(sizeof(int) * NSEDI_TREE_MAX_SECONDARY);
  t->uf = malloc(sizeof(int) * (size_t)(nbody + 1));
  t->adj_start = malloc(sizeof(int) * (size_t)(n + 1));
  t->adj = malloc(sizeof(int) * 4 * (size_t)r); /* two edges per group, stored both ways */
  t->order = malloc(sizeof(int) * (size_t)n);
  t->parent = malloc(sizeof(int) * (size_t)n);
  t->leaf = malloc((size_t)n);
  t->D = malloc(sizeof(double) * BLOCK * (size_t)n);
  t->U = malloc(sizeof(double) * BLOCK * (size_t)n);
  t->piv = malloc(sizeof(int) * NODE * (size_t)n);
  t->v = malloc(sizeof(double) * NODE * (size_t)n);
  t->w = malloc(sizeof(double) * NODE * (size_t)n);
  t->pos = malloc(sizeof(int) * (size_t)n);
  t->zmark = malloc(sizeof(int) * (size_t)n);
  t->xmark = malloc(sizeof(int) * (size_t)n);
  t->path = malloc(sizeof(int) * (size_t)n);
  t->rf = malloc(sizeof(double) * NODE * (size_t)(nbody > 0 ? nbody : 1));
  t->ddu = malloc(sizeof(double) * NODE * (size_t)(nbody > 0 ? nbody : 1));
  t->sc = malloc(sizeof(double) * NODE * (size_t)(nbody > 0 ? nbody : 1));
  t->amax = malloc(sizeof(double) * 2 * (size_t)(nbody > 0 ? nbody : 1));
  t->rt = malloc(sizeof(double) * (size_t)r);
  t->dlam = malloc(sizeof(double) * (size_t)r);
  t->pair_kept = malloc(sizeof(int) * 2 * (size_t)r);
  if (!t->axial_only || !t->rf || !t->ddu || !t->sc || !t->amax || !t->rt || !t->dlam || !t->pair_kept || !t->gstart || !t->gsize || !t->row_group || !t->sec || !t->uf || !t->adj_start || !t->adj ||
      !t->order || !t->parent || !t->leaf || !t->D || !t->U || !t->piv || !t->v || !t->w || !t->pos ||
      !t->zmark || !t->xmark || !t->path)
    nsedi_tree_ws_free(&t);
  return t;
}

void nsedi_tree_ws_free(nsedi_tree_ws **pt) {
  if (!pt || !*pt) return;
  nsedi_tree_ws *t = *pt;
  free(t->axial_only);
  free(t->gstart);
  free(t->gsize);
  free(t->row_group);
  free(t->sec);
  free(t->uf);
  free(t->adj_start);
  free(t->adj);
  free(t->order);
  free(t->parent);
  free(t->leaf);
  free(t->D);
  free(t->U);
  free(t->piv);
  free(t->v);
  free(t->w);
  free(t->pos);
  free(t->zmark);
  free(t->xmark);
  free(t->path);
  free(t->rf);
  free(t->ddu);
  free(t->sc);
  free(t->amax);
  free(t->rt);
  free(t->dlam);
  free(t->pair_kept);
  free(t);
  *pt = NULL;
}

static int dim(const nsedi_tree_ws *t, int node) {
  return node < t->nb ? NODE : t->gsize[node - t->nb];
}

/* The row's (or column's) 6 entries on body b. */
static const double *side(const nsedi_row *r, int b) { return r->a == b ? r->ja : r->jb; }

static int find(int *uf, int i) {
  while (uf[i] != i) {
    uf[i] = uf[uf[i]];
    i = uf[i];
  }
  return i;
}

/* Consecutive rows between the same pair of bodies form a group (a joint's
 * rows, a contact's), split at NODE rows: more rows than a body has degrees
 * of freedom would make the group's pivot singular. */
static void group_rows(nsedi_tree_ws *t) {
  t->ng = 0;
  for (int r = 0; r < t->nr; r++) {
    const nsedi_row *row = &t->rows[r];
    if (t->ng > 0) {
      const nsedi_row *first = &t->rows[t->gstart[t->ng - 1]];
      int same = (first->a == row->a && first->b == row->b) || (first->a == row->b && first->b == row->a);
      if (t->gsize[t->ng - 1] < NODE && same) {
        t->gsize[t->ng - 1]++;
        continue;
      }
    }
    t->gstart[t->ng] = r;
    t->gsize[t->ng] = 1;
    t->ng++;
  }
}

/* A group on an attached rotor: its rows reach the rotor only through its
 * axial rate, one degree of freedom, so eliminated past the rotor the
 * group's pivot -J D^-1 J^T has rank one at most (none for a normal row,
 * which the rotor's spin does not move). */
static int on_axial_only(const nsedi_tree_ws *t, const nsedi_row *row) {
  return (row->a >= 0 && t->axial_only[row->a]) || (row->b >= 0 && t->axial_only[row->b]);
}

/* Keep a group in the forest unless it closes a loop (through the world
 * too) or is on an attached rotor; those rows become secondary. 0 when
 * there are too many. */
static int split_loops(nsedi_tree_ws *t) {
  int nb = t->nb;
  for (int i = 0; i <= nb; i++) t->uf[i] = i;
  t->nsec = 0;
  for (int g = 0; g < t->ng; g++) {
    const nsedi_row *row = &t->rows[t->gstart[g]];
    int ra = find(t->uf, row->a >= 0 ? row->a : nb), rb = find(t->uf, row->b >= 0 ? row->b : nb);
    if (ra != rb && !on_axial_only(t, row)) {
      t->uf[ra] = rb;
      for (int c = 0; c < t->gsize[g]; c++) t->row_group[t->gstart[g] + c] = g;
      continue;
    }
    if (t->nsec + t->gsize[g] > NSEDI_TREE_MAX_SECONDARY) return 0;
    for (int c = 0; c < t->gsize[g]; c++) {
      t->row_group[t->gstart[g] + c] = -1 - t->nsec;
      t->sec[t->nsec++] = t->gstart[g] + c;
    }
    t->gsize[g] = -t->gsize[g]; /* marks the group secondary */
  }
  return 1;
}

static void add_edge(nsedi_tree_ws *t, int x, int y) {
  t->adj[t->adj_start[x]++] = y;
  t->adj[t->adj_start[y]++] = x;
}

/* Adjacency of the forest: bodies and their primary groups. */
static void build_adjacency(nsedi_tree_ws *t) {
  int nb = t->nb, n = t->nnode;
  memset(t->adj_start, 0, sizeof(int) * (size_t)(n + 1));
  for (int g = 0; g < t->ng; g++) {
    if (t->gsize[g] < 0) continue;
    const nsedi_row *row = &t->rows[t->gstart[g]];
    if (row->a >= 0) t->adj_start[row->a]++, t->adj_start[nb + g]++;
    if (row->b >= 0) t->adj_start[row->b]++, t->adj_start[nb + g]++;
  }
  for (int i = 0, s = 0; i <= n; i++) {
    int c = i < n ? t->adj_start[i] : 0;
    t->adj_start[i] = s;
    s += c;
  }
  for (int g = 0; g < t->ng; g++) {
    if (t->gsize[g] < 0) continue;
    const nsedi_row *row = &t->rows[t->gstart[g]];
    if (row->a >= 0) add_edge(t, row->a, nb + g);
    if (row->b >= 0) add_edge(t, row->b, nb + g);
  }
  for (int i = n; i > 0; i--) t->adj_start[i] = t->adj_start[i - 1]; /* back to starts */
  t->adj_start[0] = 0;
}

static void visit_from(nsedi_tree_ws *t, int root, int *count) {
  int head = *count;
  t->parent[root] = -1;
  t->order[(*count)++] = root;
  while (head < *count) {
    int x = t->order[head++];
    for (int e = t->adj_start[x]; e < t->adj_start[x + 1]; e++) {
      int y = t->adj[e];
      if (t->parent[y] != -2) continue;
      t->parent[y] = x;
      t->order[(*count)++] = y;
    }
  }
}

/* Roots: a tree held by the world is rooted at its one group to the world
 * (so that every leaf is a body, whose pivot is its mass); a free tree at
 * its first body. Groups are never leaves, so no pivot starts at zero. */
static void order_forest(nsedi_tree_ws *t) {
  int nb = t->nb, count = 0;
  for (int i = 0; i < t->nnode; i++) t->parent[i] = -2;
  for (int g = 0; g < t->ng; g++) {
    const nsedi_row *row = &t->rows[t->gstart[g]];
    if (t->gsize[g] > 0 && (row->a < 0 || row->b < 0)) visit_from(t, nb + g, &count);
  }
  for (int b = 0; b < nb; b++)
    if (t->parent[b] == -2) visit_from(t, b, &count);
  t->norder = count;
  for (int idx = 0; idx < count; idx++) t->pos[t->order[idx]] = idx;
}

/* D_p -= H[p, i] U_i for node i and its parent p (a body and a group), dp
 * columns (d entries each in U_i), each row's side looked up once for all
 * of them; D_p is another node's block (never U_i). The body's six sums
 * are kept in registers (the same additions in the same order as into
 * D_p). */
static inline void sub_coupling_block(const nsedi_tree_ws *t, int p, int i, int d, int dp,
                                      const double *restrict Ui, double *restrict Dp) {
  int nb = t->nb;
  const double *side_of[NODE];
  if (p >= nb) { /* H[g, b] = J_gb */
    int g = p - nb, n = t->gsize[g];
    const nsedi_row *r = t->rows + t->gstart[g];
    for (int c = 0; c < n; c++) side_of[c] = side(&r[c], i);
    for (int q = 0; q < dp; q++) {
      const double *z = Ui + (size_t)d * q;
      double *out = Dp + (size_t)dp * q;
      for (int c = 0; c < n; c++) {
        const double *j = side_of[c];
        out[c] -= j[0] * z[0] + j[1] * z[1] + j[2] * z[2] + j[3] * z[3] + j[4] * z[4] + j[5] * z[5];
      }
    }
  } else { /* H[b, g] = -C_gb^T */
    int g = i - nb, n = t->gsize[g];
    const nsedi_row *r = t->cols + t->gstart[g];
    for (int c = 0; c < n; c++) side_of[c] = side(&r[c], p);
    for (int q = 0; q < dp; q++) {
      const double *z = Ui + (size_t)d * q;
      double *out = Dp + (size_t)dp * q, acc[NODE];
      for (int k = 0; k < NODE; k++) acc[k] = out[k];
      for (int c = 0; c < n; c++) {
        double zc = z[c];
        for (int k = 0; k < NODE; k++) acc[k] += side_of[c][k] * zc;
      }
      for (int k = 0; k < NODE; k++) out[k] = acc[k];
    }
  }
}

/* out -= H[p, i] z: one column. */
static void sub_coupling(const nsedi_tree_ws *t, int p, int i, const double *restrict z,
                         double *restrict out) {
  sub_coupling_block(t, p, i, 0, 1, z, out);
}

/* U_i = H[i, p] (dim_i x dim_p, column-major), before D_i^-1 is applied. */
static void coupling_block(const nsedi_tree_ws *t, int i, int p, double *U) {
  int nb = t->nb;
  if (i < nb) { /* H[b, g] = -C_gb^T */
    int g = p - nb;
    for (int c = 0; c < t->gsize[g]; c++) {
      const double *col = side(&t->cols[t->gstart[g] + c], i);
      for (int k = 0; k < NODE; k++) U[c * NODE + k] = -col[k];
    }
  } else { /* H[g, b] = J_gb */
    int g = i - nb, m = t->gsize[g];
    for (int c = 0; c < m; c++) {
      const double *j = side(&t->rows[t->gstart[g] + c], p);
      for (int k = 0; k < NODE; k++) U[k * m + c] = j[k];
    }
  }
}

/* Block LU leaves first: each node's pivot block, then its coupling to
 * the parent eliminated from the parent's block (no fill-in on a tree). */
static int factor_forest(nsedi_tree_ws *t) {
  int nb = t->nb;
  for (int idx = 0; idx < t->norder; idx++) {
    int i = t->order[idx], d = dim(t, i);
    double *Di = t->D + (size_t)BLOCK * i;
    memset(Di, 0, sizeof(double) * (size_t)d * (size_t)d);
    if (i < nb)
      for (int k = 0; k < NODE; k++) Di[k * NODE + k] = 1.0 / t->minv[NODE * i + k];
    t->leaf[i] = i < nb;
  }
  for (int idx = 0; idx < t->norder; idx++)
    if (t->parent[t->order[idx]] >= 0) t->leaf[t->parent[t->order[idx]]] = 0;
  for (int idx = t->norder - 1; idx >= 0; idx--) {
    int i = t->order[idx], d = dim(t, i), p = t->parent[i];
    double *Di = t->D + (size_t)BLOCK * i;
    int *pv = t->piv + (size_t)NODE * i;
    /* A leaf body's block is its diagonal mass: M^-1 is known. */
    if (!t->leaf[i] && !(nsedi_small_lu_factor(d, Di, pv, t->nz) > NSEDI_SCHUR_PIVOT)) return 0;
    if (p < 0) continue;
    int dp = dim(t, p);
    double *Ui = t->U + (size_t)BLOCK * i, *Dp = t->D + (size_t)BLOCK * p;
    coupling_block(t, i, p, Ui);
    if (t->leaf[i]) {
      const double *mi = t->minv + NODE * i;
      for (int q = 0; q < dp; q++)
        for (int k = 0; k < NODE; k++) Ui[q * NODE + k] *= mi[k];
    } else {
      nsedi_small_lu_solve(d, Di, pv, dp, Ui);
    }
    sub_coupling_block(t, p, i, d, dp, Ui, Dp);
  }
  return 1;
}

/* Node i's pivot applied: z = D_i^-1 z in place. */
static void apply_pivot(const nsedi_tree_ws *t, int i, double *z) {
  if (t->leaf[i])
    for (int k = 0; k < NODE; k++) z[k] *= t->minv[NODE * i + k];
  else
    nsedi_small_lu_solve(dim(t, i), t->D + (size_t)BLOCK * i, t->piv + (size_t)NODE * i, 1, z);
}

/* x_i -= U_i x_parent (d x dp): each sum in the order of q. With the sizes
 * compile-time constants below (a group of 3 or 5 rows under a body, a
 * body under one) the compiler unrolls it; the operations are the same. */
#define SUB_PARENT_BODY(d, dp)                                                                     \
  for (int q = 0; q < (dp); q++)                                                                   \
    for (int c = 0; c < (d); c++) xi[c] -= Ui[q * (d) + c] * xp[q];

static void sub_parent_n(int d, int dp, const double *restrict Ui, const double *restrict xp,
                         double *restrict xi) { SUB_PARENT_BODY(d, dp) }
static void sub_parent_56(const double *restrict Ui, const double *restrict xp,
                          double *restrict xi) { SUB_PARENT_BODY(5, 6) }
static void sub_parent_65(const double *restrict Ui, const double *restrict xp,
                          double *restrict xi) { SUB_PARENT_BODY(6, 5) }
static void sub_parent_36(const double *restrict Ui, const double *restrict xp,
                          double *restrict xi) { SUB_PARENT_BODY(3, 6) }
static void sub_parent_63(const double *restrict Ui, const double *restrict xp,
                          double *restrict xi) { SUB_PARENT_BODY(6, 3) }

static void sub_parent(int d, int dp, const double *Ui, const double *xp, double *xi) {
  if (d == 5 && dp == 6) sub_parent_56(Ui, xp, xi);
  else if (d == 6 && dp == 5) sub_parent_65(Ui, xp, xi);
  else if (d == 3 && dp == 6) sub_parent_36(Ui, xp, xi);
  else if (d == 6 && dp == 3) sub_parent_63(Ui, xp, xi);
  else sub_parent_n(d, dp, Ui, xp, xi);
}

/* The forward half of v <- H^-1 v on the forest (node layout, NODE entries
 * per node), children first: z_i = D_i^-1 (v_i - sum_children H[i,c] z_c). */
static void forward_sweep(const nsedi_tree_ws *t, double *v) {
  for (int idx = t->norder - 1; idx >= 0; idx--) {
    int i = t->order[idx], p = t->parent[i];
    double *vi = v + (size_t)NODE * i;
    apply_pivot(t, i, vi);
    if (p >= 0) sub_coupling(t, p, i, vi, v + (size_t)NODE * p);
  }
}

/* The back substitution, parents first: x_i = z_i - U_i x_parent. */
static void backward_sweep(const nsedi_tree_ws *t, double *v) {
  for (int idx = 0; idx < t->norder; idx++) {
    int i = t->order[idx], p = t->parent[i];
    if (p < 0) continue;
    sub_parent(dim(t, i), dim(t, p), t->U + (size_t)BLOCK * i, v + (size_t)NODE * p,
               v + (size_t)NODE * i);
  }
}

/* Row r applied to the body velocities of a node-layout vector. */
static double row_on(const nsedi_row *r, const double *v) {
  double s = 0;
  for (int k = 0; k < NODE; k++) {
    if (r->a >= 0) s += r->ja[k] * v[NODE * r->a + k];
    if (r->b >= 0) s += r->jb[k] * v[NODE * r->b + k];
  }
  return s;
}

/* Forward pass of column k (B_k: secondary row k's force -C^T on its one
 * or two bodies): only the nodes on the paths from those bodies to their
 * root are touched (the rest stay zero), children before parents. */
static void column_forward(nsedi_tree_ws *t, int k) {
  const nsedi_row *c = &t->cols[t->sec[k]];
  const int body[2] = {c->a, c->b};
  const double *jc[2] = {c->ja, c->jb};
  int n = 0;
  for (int e = 0; e < 2; e++)
    for (int x = body[e]; x >= 0 && t->zmark[x] != k; x = t->parent[x]) {
      t->zmark[x] = k;
      memset(t->w + (size_t)NODE * x, 0, sizeof(double) * NODE);
      t->path[n++] = x;
    }
  for (int e = 0; e < 2; e++)
    if (body[e] >= 0)
      for (int q = 0; q < NODE; q++) t->w[(size_t)NODE * body[e] + q] -= jc[e][q];
  /* children first: descending place in order (insertion sort; n is a
   * path length or two) */
  for (int a = 1; a < n; a++)
    for (int b = a; b > 0 && t->pos[t->path[b]] > t->pos[t->path[b - 1]]; b--) {
      int tmp = t->path[b];
      t->path[b] = t->path[b - 1];
      t->path[b - 1] = tmp;
    }
  for (int a = 0; a < n; a++) {
    int i = t->path[a], p = t->parent[i];
    double *wi = t->w + (size_t)NODE * i;
    apply_pivot(t, i, wi);
    if (p >= 0) sub_coupling(t, p, i, wi, t->w + (size_t)NODE * p);
  }
}

/* Back substitution of column k down to node x only (its ancestors
 * first): x_i = z_i - U_i x_parent, z_i = 0 off the forward paths. */
static void column_backward_to(nsedi_tree_ws *t, int k, int x) {
  int n = 0;
  for (int y = x; y >= 0 && t->xmark[y] != k; y = t->parent[y]) t->path[n++] = y;
  for (int a = n - 1; a >= 0; a--) {
    int i = t->path[a], p = t->parent[i], d = dim(t, i);
    double *wi = t->w + (size_t)NODE * i;
    if (t->zmark[i] != k) memset(wi, 0, sizeof(double) * NODE);
    t->xmark[i] = k;
    if (p < 0) continue;
    sub_parent(d, dim(t, p), t->U + (size_t)BLOCK * i, t->w + (size_t)NODE * p, wi);
  }
}

/* The M^-1-norm of a row, sqrt(J M^-1 J^T): what a row's diagonal in the
 * Schur complement would be before the other rows' share is taken off. */
static double row_mnorm(const nsedi_tree_ws *t, const nsedi_row *r) {
  double s = 0;
  for (int k = 0; k < NODE; k++) {
    if (r->a >= 0) s += r->ja[k] * r->ja[k] * t->minv[NODE * r->a + k];
    if (r->b >= 0) s += r->jb[k] * r->jb[k] * t->minv[NODE * r->b + k];
  }
  return sqrt(s);
}

/* S's pivots judged against the rows' own scale, not only against each
 * other: a secondary row that depends on the tree's rows leaves S's pivot
 * at the round-off of its M^-1-norm (J_k M^-1 C_k^T bounds the diagonal
 * before elimination), and when every secondary row does (S of one row, a
 * repeated group) the pivots' ratio among themselves would say nothing. */
static int secondary_regular(const nsedi_tree_ws *t) {
  int ns = t->nsec;
  double umin = INFINITY, umax = 0, scale = 0;
  for (int k = 0; k < ns; k++) {
    double u = 1.0 / fabs(t->S[k * ns + k]); /* the factor keeps 1 / u_kk */
    umin = fmin(umin, u);
    umax = fmax(umax, u);
    scale = fmax(scale, row_mnorm(t, &t->rows[t->sec[k]]) * row_mnorm(t, &t->cols[t->sec[k]]));
  }
  return umin > NSEDI_SCHUR_PIVOT * fmax(umax, scale);
}

/* S = J_sec H^-1 B, the secondary multipliers' system, column by column:
 * H^-1 B_k is needed only at the secondary rows' bodies, so each column
 * costs paths to the roots, not the whole forest. */
static int factor_secondary(nsedi_tree_ws *t) {
  int ns = t->nsec;
  for (int i = 0; i < t->nnode; i++) t->zmark[i] = t->xmark[i] = -1;
  t->stamp = NSEDI_TREE_MAX_SECONDARY; /* the solves' marks, above every column index */
  for (int k = 0; k < ns; k++) {
    column_forward(t, k);
    for (int s = 0; s < ns; s++) {
      const nsedi_row *r = &t->rows[t->sec[s]];
      if (r->a >= 0) column_backward_to(t, k, r->a);
      if (r->b >= 0) column_backward_to(t, k, r->b);
      t->S[k * ns + s] = row_on(r, t->w);
    }
  }
  return nsedi_small_lu_factor(ns, t->S, t->spiv, t->snz) > NSEDI_SCHUR_PIVOT && secondary_regular(t);
}

/* The forest (groups, loop rows, order) depends only on which bodies each
 * row joins, which changes at events, not between right-hand sides: it is
 * kept with the rows' body pairs and rebuilt when they differ. */
static int same_structure(const nsedi_tree_ws *t) {
  if (!t->structure_valid || t->nr_kept != t->nr) return 0;
  for (int r = 0; r < t->nr; r++)
    if (t->pair_kept[2 * r] != t->rows[r].a || t->pair_kept[2 * r + 1] != t->rows[r].b) return 0;
  return 1;
}

static void keep_structure(nsedi_tree_ws *t) {
  for (int r = 0; r < t->nr; r++) {
    t->pair_kept[2 * r] = t->rows[r].a;
    t->pair_kept[2 * r + 1] = t->rows[r].b;
  }
  t->nr_kept = t->nr;
  t->structure_valid = 1;
}

int nsedi_tree_factor(nsedi_tree_ws *t, const double *minv, int nr, const nsedi_row *rows,
                      const nsedi_row *cols, int min_rows) {
  if (nr > t->maxr) return 0;
  t->minv = minv;
  t->rows = rows;
  t->cols = cols;
  t->nr = nr;
  if (!same_structure(t)) {
    t->structure_valid = 0;
    group_rows(t);
    t->nnode = t->nb + t->ng;
    if (!split_loops(t)) return 0;
    build_adjacency(t);
    order_forest(t);
    keep_structure(t);
  }
  /* Each loop row costs the tree path a column of paths and a share of S:
   * the dense LU stays cheaper until the rows outnumber them enough. */
  if (min_rows > 0 && nr < min_rows + NSEDI_TREE_ROWS_PER_LOOP_ROW * t->nsec) return 0;
  if (!factor_forest(t)) return 0;
  return t->nsec == 0 || factor_secondary(t);
}

/* x_i = z_i - U_i x_parent into w, from the root down to node x, for the
 * forward-eliminated v: the final values on that path only, each node once
 * per stamp. */
static void backward_to(nsedi_tree_ws *t, const double *v, int x, int stamp) {
  int n = 0;
  for (int y = x; y >= 0 && t->xmark[y] != stamp; y = t->parent[y]) t->path[n++] = y;
  for (int a = n - 1; a >= 0; a--) {
    int i = t->path[a], p = t->parent[i];
    double *wi = t->w + (size_t)NODE * i;
    memcpy(wi, v + (size_t)NODE * i, sizeof(double) * NODE);
    t->xmark[i] = stamp;
    if (p >= 0) sub_parent(dim(t, i), dim(t, p), t->U + (size_t)BLOCK * i, t->w + (size_t)NODE * p, wi);
  }
}

/* v += the forward elimination of -B mu = C_sec^T mu (in w), which is zero
 * off the paths from the secondary rows' bodies to their roots: those
 * nodes are marked and eliminated in the forest's order. */
static void add_secondary_forward(nsedi_tree_ws *t, double *v, int stamp) {
  for (int k = 0; k < t->nsec; k++) {
    const nsedi_row *c = &t->cols[t->sec[k]];
    const int body[2] = {c->a, c->b};
    for (int e = 0; e < 2; e++)
      for (int x = body[e]; x >= 0 && t->zmark[x] != stamp; x = t->parent[x]) {
        t->zmark[x] = stamp;
        memset(t->w + (size_t)NODE * x, 0, sizeof(double) * NODE);
      }
  }
  for (int k = 0; k < t->nsec; k++) {
    const nsedi_row *c = &t->cols[t->sec[k]];
    for (int q = 0; q < NODE; q++) {
      if (c->a >= 0) t->w[NODE * c->a + q] += c->ja[q] * t->mu[k];
      if (c->b >= 0) t->w[NODE * c->b + q] += c->jb[q] * t->mu[k];
    }
  }
  for (int idx = t->norder - 1; idx >= 0; idx--) {
    int i = t->order[idx], p = t->parent[i];
    if (t->zmark[i] != stamp) continue;
    double *wi = t->w + (size_t)NODE * i;
    apply_pivot(t, i, wi);
    if (p >= 0) sub_coupling(t, p, i, wi, t->w + (size_t)NODE * p);
    for (int q = 0; q < NODE; q++) v[(size_t)NODE * i + q] += wi[q];
  }
}

/* One pass: du and lambda for body forces rf (NODE nb) and row targets rt
 * (nr; NULL: zero). */
static void solve_once(nsedi_tree_ws *t, const double *rf, const double *rt, double *du,
                       double *lambda) {
  int nb = t->nb;
  double *v = t->v;
  memcpy(v, rf, sizeof(double) * NODE * (size_t)nb);
  memset(v + NODE * (size_t)nb, 0, sizeof(double) * NODE * (size_t)t->ng);
  for (int g = 0; g < t->ng; g++)
    for (int c = 0; c < t->gsize[g]; c++) v[NODE * (nb + g) + c] = rt ? rt[t->gstart[g] + c] : 0.0;
  forward_sweep(t, v);
  int ns = t->nsec;
  if (ns > 0) {
    /* H^-1 (r - B mu) = H^-1 r - H^-1 B mu with one back substitution: mu
     * needs H^-1 r only at the secondary rows' bodies, and B mu's forward
     * elimination only on their paths to the roots. */
    int stamp = t->stamp++;
    for (int s = 0; s < ns; s++) {
      const nsedi_row *r = &t->rows[t->sec[s]];
      if (r->a >= 0) backward_to(t, v, r->a, stamp);
      if (r->b >= 0) backward_to(t, v, r->b, stamp);
      t->mu[s] = row_on(r, t->w) - (rt ? rt[t->sec[s]] : 0.0);
    }
    nsedi_small_lu_solve(ns, t->S, t->spiv, 1, t->mu);
    add_secondary_forward(t, v, stamp);
  }
  backward_sweep(t, v);
  memcpy(du, v, sizeof(double) * NODE * (size_t)nb);
  for (int r = 0; r < t->nr; r++) {
    int g = t->row_group[r];
    lambda[r] = g >= 0 ? v[NODE * (nb + g) + (r - t->gstart[g])] : t->mu[-1 - g];
  }
}

/* x += j lambda on one body, and the terms' magnitudes into m. */
static inline void add_force(const double *restrict j, double lambda, double *restrict x,
                             double *restrict m) {
  for (int k = 0; k < NODE; k++) {
    double term = j[k] * lambda;
    x[k] += term;
    m[k] += fabs(term);
  }
}

/* A row applied to one body's accelerations a; its terms' magnitude at the
 * body's largest linear and angular acceleration added to scale. */
static inline double row_side(const double *j, const double *a, const double *amax,
                              double *scale) {
  *scale += (fabs(j[0]) + fabs(j[1]) + fabs(j[2])) * amax[0] +
            (fabs(j[3]) + fabs(j[4]) + fabs(j[5])) * amax[1];
  return j[0] * a[0] + j[1] * a[1] + j[2] * a[2] + j[3] * a[3] + j[4] * a[4] + j[5] * a[5];
}

/* The residual of (du, lambda): f - M du + C^T lambda on the bodies,
 * target - J du on the rows. */
static void residual(const nsedi_tree_ws *t, const double *f, const double *target,
                     const double *du, const double *lambda, double *rf, double *rt) {
  for (int q = 0; q < NODE * t->nb; q++) rf[q] = f[q] - du[q] / t->minv[q];
  for (int r = 0; r < t->nr; r++) {
    const nsedi_row *c = &t->cols[r];
    for (int k = 0; k < NODE; k++) {
      if (c->a >= 0) rf[NODE * c->a + k] += c->ja[k] * lambda[r];
      if (c->b >= 0) rf[NODE * c->b + k] += c->jb[k] * lambda[r];
    }
    rt[r] = (target ? target[r] : 0.0) - row_on(&t->rows[r], du);
  }
}

/* fmax of magnitudes (NaN or >= 0): a NaN operand yields the other, as
 * fmax's; inline, where the libm call would be 1% of a vehicle's run. */
static inline double max_mag(double a, double b) { return (a > b || isnan(b)) ? a : b; }

/* The residual as residual() computes it, and the largest one against its
 * equation's own scale: a body's three force (or torque) equations against
 * the largest sum of the magnitudes of their terms, a row against its
 * terms |J_k| at its bodies' largest linear (or angular) acceleration. Per
 * body, so that a light roller is judged by its own forces, not the
 * platform's. */
static double judged_residual(nsedi_tree_ws *t, const double *f, const double *target,
                              const double *du, const double *lambda, double *rf, double *rt) {
  double *sc = t->sc, *amax = t->amax, worst = 0;
  for (int q = 0; q < NODE * t->nb; q++) {
    double inertial = du[q] / t->minv[q];
    rf[q] = f[q] - inertial;
    sc[q] = fabs(f[q]) + fabs(inertial);
  }
  for (int b = 0; b < 2 * t->nb; b++) {
    const double *a = du + 3 * b;
    amax[b] = max_mag(fabs(a[0]), max_mag(fabs(a[1]), fabs(a[2])));
  }
  for (int r = 0; r < t->nr; r++) {
    const nsedi_row *c = &t->cols[r], *w = &t->rows[r];
    if (c->a >= 0) add_force(c->ja, lambda[r], rf + NODE * c->a, sc + NODE * c->a);
    if (c->b >= 0) add_force(c->jb, lambda[r], rf + NODE * c->b, sc + NODE * c->b);
    double tr = target ? target[r] : 0.0, scale = fabs(tr), applied = 0;
    if (w->a >= 0) applied += row_side(w->ja, du + NODE * w->a, amax + 2 * w->a, &scale);
    if (w->b >= 0) applied += row_side(w->jb, du + NODE * w->b, amax + 2 * w->b, &scale);
    double res = tr - applied;
    rt[r] = res;
    if (fabs(res) > worst * scale) worst = scale > 0 ? fabs(res) / scale : INFINITY;
  }
  for (int h = 0; h < 2 * t->nb; h++) {
    const double *x = rf + 3 * h, *s3 = sc + 3 * h;
    double res = max_mag(fabs(x[0]), max_mag(fabs(x[1]), fabs(x[2])));
    double scale = max_mag(s3[0], max_mag(s3[1], s3[2]));
    if (res > worst * scale) worst = scale > 0 ? res / scale : INFINITY;
  }
  return worst;
}

void nsedi_tree_solve(nsedi_tree_ws *t, const double *f, const double *target, double *du,
                      double *lambda, double refine_above) {
  solve_once(t, f, target, du, lambda);
  /* One step of iterative refinement on the same factors where the first
   * pass is not good enough: the blocks are eliminated in the tree's order,
   * not pivoted across, and a badly scaled system (light bodies on heavy
   * ones, slipping columns) loses digits that one correction restores
   * (docs/engine.md "The constrained solve"). */
  t->nsolve++;
  if (refine_above > 0) {
    if (judged_residual(t, f, target, du, lambda, t->rf, t->rt) <= refine_above) return;
  } else {
    residual(t, f, target, du, lambda, t->rf, t->rt);
  }
  t->nrefined++;
  solve_once(t, t->rf, t->rt, t->ddu, t->dlam);
  for (int q = 0; q < NODE * t->nb; q++) du[q] += t->ddu[q];
  for (int r = 0; r < t->nr; r++) lambda[r] += t->dlam[r];
}

void nsedi_tree_counts(const nsedi_tree_ws *t, long *solves, long *refined) {
  *solves = t->nsolve;
  *refined = t->nrefined;
}
