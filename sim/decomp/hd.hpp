// LW_HD marks functions compiled for both host and device (nvcc), plain inline on the host
// compiler.
#pragma once

#if defined(__CUDACC__)
#define LW_HD __host__ __device__ __forceinline__
#else
#define LW_HD inline
#endif
