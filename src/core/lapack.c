#include "lapack.h"

#include <stdlib.h>

extern void dpotrf_(const char *uplo, const int *n, double *A, const int *lda, int *info,
                    size_t uplo_len);
extern void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *A,
                    const int *lda, double *B, const int *ldb, int *info, size_t uplo_len);
extern void dgesv_(const int *n, const int *nrhs, double *A, const int *lda, int *ipiv,
                   double *B, const int *ldb, int *info);
extern void dgelsd_(const int *m, const int *n, const int *nrhs, double *A, const int *lda,
                    double *B, const int *ldb, double *S, const double *rcond, int *rank,
                    double *work, const int *lwork, int *iwork, int *info);

int nsedi_cholesky_factor(int n, double *A) {
  int info = 0;
  dpotrf_("L", &n, A, &n, &info, 1);
  return info;
}

void nsedi_cholesky_solve(int n, const double *L, int nrhs, double *B) {
  int info = 0;
  dpotrs_("L", &n, &nrhs, L, &n, B, &n, &info, 1);
}

int nsedi_lu_solve(int n, double *A, int *ipiv, int nrhs, double *B) {
  int info = 0;
  dgesv_(&n, &nrhs, A, &n, ipiv, B, &n, &info);
  return info;
}

int nsedi_lstsq_ws_init(nsedi_lstsq_ws *ws, int n, int nrhs) {
  ws->n = n > 1 ? n : 1;
  ws->nrhs = nrhs > 1 ? nrhs : 1;
  /* A workspace query reads only the dimensions. */
  double wq = 0.0, dummy = 0.0, rcond = 0.0;
  int iwq = 0, info = 0, rank = 0, lwork = -1;
  dgelsd_(&ws->n, &ws->n, &ws->nrhs, &dummy, &ws->n, &dummy, &ws->n, &dummy, &rcond, &rank, &wq,
          &lwork, &iwq, &info);
  ws->lwork = (int)wq + 1;
  int liwork = iwq > 1 ? iwq : 1;
  ws->s = malloc(sizeof(double) * (size_t)ws->n);
  ws->work = malloc(sizeof(double) * (size_t)ws->lwork);
  ws->iwork = malloc(sizeof(int) * (size_t)liwork);
  if (info != 0 || !ws->s || !ws->work || !ws->iwork) {
    nsedi_lstsq_ws_free(ws);
    return -1;
  }
  return 0;
}

void nsedi_lstsq_ws_free(nsedi_lstsq_ws *ws) {
  free(ws->s);
  free(ws->work);
  free(ws->iwork);
  ws->s = ws->work = NULL;
  ws->iwork = NULL;
}

int nsedi_lstsq_square(nsedi_lstsq_ws *ws, int n, double *A, int nrhs, double *B, double rcond,
                       int *rank) {
  if (n > ws->n || nrhs > ws->nrhs) return -1000;
  int info = 0, lda = n > 1 ? n : 1;
  dgelsd_(&n, &n, &nrhs, A, &lda, B, &lda, ws->s, &rcond, rank, ws->work, &ws->lwork, ws->iwork,
          &info);
  return info;
}

int nsedi_lstsq(int m, int n, double *A, int nrhs, double *B, double rcond, int *rank) {
  int info = 0, ldb = m > n ? m : n, lwork = -1;
  int mn = m < n ? m : n;
  double wq = 0.0;
  int iwq = 0;
  double *S = malloc(sizeof(double) * (size_t)(mn > 0 ? mn : 1));
  if (!S) return -1000;
  /* Workspace query first: dgelsd's sizes depend on its block parameters. */
  dgelsd_(&m, &n, &nrhs, A, &m, B, &ldb, S, &rcond, rank, &wq, &lwork, &iwq, &info);
  lwork = (int)wq + 1;
  int liwork = iwq > 1 ? iwq : 1;
  double *work = malloc(sizeof(double) * (size_t)lwork);
  int *iwork = malloc(sizeof(int) * (size_t)liwork);
  if (!work || !iwork) {
    free(S);
    free(work);
    free(iwork);
    return -1000;
  }
  dgelsd_(&m, &n, &nrhs, A, &m, B, &ldb, S, &rcond, rank, work, &lwork, iwork, &info);
  free(S);
  free(work);
  free(iwork);
  return info;
}
