// OpenBLAS's CBLAS interface. Named shim.h: a header called cblas.h would be hidden by
// OpenBLAS's own include guard.
#include <cblas.h>
