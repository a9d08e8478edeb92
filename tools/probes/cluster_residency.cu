// Clusters of each size (1-D, 1..8 CTAs) an sm_90 device holds at once for a kernel shaped like
// lastwave's wgmma kernels (384 threads, one CTA per SM by shared memory): the numbers behind
// "max_active_clusters" in configs/gpus/*.json. Build: nvcc -arch=sm_90a -o cr cluster_residency.cu
#include <cuda_runtime.h>

#include <cstdio>

namespace {
constexpr int kThreads = 384;               // producer + two consumer warpgroups
constexpr int kSmemBytes = 200 * 1024;      // more than half an SM's: one CTA per SM
constexpr int kMaxPortableClusterCtas = 8;  // sm_90's portable cluster size limit

__global__ void shaped_like_gemm(int* sink) {
  extern __shared__ int smem[];
  smem[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0 && sink != nullptr) *sink = smem[kThreads - 1];
}

bool check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "cluster_residency: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}
}  // namespace

int main() {
  cudaDeviceProp prop{};
  if (!check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return 1;
  if (!check(cudaFuncSetAttribute(shaped_like_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  kSmemBytes),
             "cudaFuncSetAttribute"))
    return 1;
  std::printf("device,%s,sms,%d\ncluster_ctas,max_active_clusters,sms_used\n", prop.name,
              prop.multiProcessorCount);
  for (int size = 1; size <= kMaxPortableClusterCtas; ++size) {
    cudaLaunchConfig_t config{};
    cudaLaunchAttribute attr{};
    config.gridDim = dim3(static_cast<unsigned>(size));
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = kSmemBytes;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = static_cast<unsigned>(size);
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    config.attrs = &attr;
    config.numAttrs = 1;
    int clusters = 0;
    if (!check(cudaOccupancyMaxActiveClusters(&clusters, shaped_like_gemm, &config),
               "cudaOccupancyMaxActiveClusters"))
      return 1;
    std::printf("%d,%d,%d\n", size, clusters, clusters * size);
  }
  return 0;
}
