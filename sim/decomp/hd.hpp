// LW_HD marks functions compiled for both host and device (nvcc). On the host they are forced
// inline: the simulator calls walk_next once per segment, millions of times in a sweep.
#pragma once

#if defined(__CUDACC__)
#define LW_HD __host__ __device__ __forceinline__
#else
#define LW_HD inline __attribute__((always_inline))
#endif
