/* SUNDIALS ARKODE is linked: x'' = -x from (1, 0) with root-finding on x;
 * roots at pi/2 + k pi, located to 1e-10. CVODE is exercised the same way. */
#include <arkode/arkode_erkstep.h>
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include "nsed_test.h"

static int rhs(realtype t, N_Vector y, N_Vector yd, void *ud) {
  NV_Ith_S(yd, 0) = NV_Ith_S(y, 1);
  NV_Ith_S(yd, 1) = -NV_Ith_S(y, 0);
  return 0;
}

static int root(realtype t, N_Vector y, realtype *g, void *ud) {
  g[0] = NV_Ith_S(y, 0);
  return 0;
}

int main(void) {
  const double pi = 3.14159265358979323846;
  SUNContext ctx;
  CHECK(SUNContext_Create(NULL, &ctx) == 0);
  N_Vector y = N_VNew_Serial(2, ctx);
  NV_Ith_S(y, 0) = 1.0;
  NV_Ith_S(y, 1) = 0.0;
  void *mem = ERKStepCreate(rhs, 0.0, y, ctx);
  CHECK(mem != NULL);
  CHECK(ERKStepSetTableNum(mem, ARKODE_DORMAND_PRINCE_7_4_5) == 0);
  CHECK(ERKStepSStolerances(mem, 1e-12, 1e-14) == 0);
  CHECK(ERKStepRootInit(mem, 1, root) == 0);
  CHECK(ERKStepSetNoInactiveRootWarn(mem) == 0);
  double t = 0.0;
  for (int k = 0; k < 3; k++) {
    int flag = ERKStepEvolve(mem, 10.0, y, &t, ARK_NORMAL);
    CHECK_MSG(flag == ARK_ROOT_RETURN, "ERKStepEvolve flag %d", flag);
    CHECK_NEAR(t, pi / 2 + k * pi, 1e-10, 0);
  }
  ERKStepFree(&mem);

  NV_Ith_S(y, 0) = 1.0;
  NV_Ith_S(y, 1) = 0.0;
  void *cv = CVodeCreate(CV_ADAMS, ctx);
  SUNNonlinearSolver nls = SUNNonlinSol_FixedPoint(y, 0, ctx);
  CHECK(CVodeInit(cv, rhs, 0.0, y) == 0);
  CHECK(CVodeSStolerances(cv, 1e-12, 1e-14) == 0);
  CHECK(CVodeSetNonlinearSolver(cv, nls) == 0);
  CHECK(CVodeRootInit(cv, 1, root) == 0);
  CHECK(CVodeSetMaxNumSteps(cv, 100000) == 0);
  int flag = CVode(cv, 10.0, y, &t, CV_NORMAL);
  CHECK_MSG(flag == CV_ROOT_RETURN, "CVode flag %d", flag);
  CHECK_NEAR(t, pi / 2, 1e-8, 0);
  CVodeFree(&cv);
  SUNNonlinSolFree(nls);
  N_VDestroy(y);
  SUNContext_Free(&ctx);
  return TEST_DONE();
}
