#include <math.h>
#include <string.h>

#include "model_impl.h"

nsed_law nsed_law_constant(double value) {
  nsed_law law;
  memset(&law, 0, sizeof law);
  law.type = NSED_LAW_CONSTANT;
  law.value = value;
  return law;
}

double nsed_law_eval(const nsed_law *law, double t) {
  switch (law->type) {
    case NSED_LAW_CONSTANT:
      return law->value;
    case NSED_LAW_SINE:
      return law->offset + law->amplitude * sin(law->omega * t + law->phase);
    case NSED_LAW_PIECEWISE: {
      int n = law->npoints;
      if (n <= 0) return 0.0;
      if (t <= law->times[0]) return law->values[0];
      if (t >= law->times[n - 1]) return law->values[n - 1];
      int i = 0;
      while (i + 1 < n && law->times[i + 1] < t) i++;
      double s = (t - law->times[i]) / (law->times[i + 1] - law->times[i]);
      return law->values[i] + s * (law->values[i + 1] - law->values[i]);
    }
  }
  return 0.0;
}

void nsedi_law_derivs(const nsed_law *law, double t, double out[3]) {
  out[0] = nsed_law_eval(law, t);
  out[1] = out[2] = 0.0;
  if (law->type == NSED_LAW_SINE) {
    double w = law->omega, s = sin(w * t + law->phase), c = cos(w * t + law->phase);
    out[1] = law->amplitude * w * c;
    out[2] = -law->amplitude * w * w * s;
  } else if (law->type == NSED_LAW_PIECEWISE) {
    int n = law->npoints;
    if (t > law->times[0] && t < law->times[n - 1]) {
      int i = 0;
      while (i + 1 < n && law->times[i + 1] < t) i++;
      out[1] = (law->values[i + 1] - law->values[i]) / (law->times[i + 1] - law->times[i]);
    }
  }
}
