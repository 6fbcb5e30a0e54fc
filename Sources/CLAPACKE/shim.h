// LAPACK's C interface (LAPACKE), used for the eigendecomposition in model training.
#include <lapacke.h>
