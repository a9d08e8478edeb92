// Green-context SM partitions (see partition.hpp). Driver API: cuDevSmResourceSplitByCount ->
// cuDevResourceGenerateDesc -> cuGreenCtxCreate -> cuCtxFromGreenCtx/cuCtxSetCurrent -> stream.
#include "cuda/bench/partition.hpp"

#include <stdexcept>
#include <string>

#include "cuda/gemm.hpp"

namespace lw::bench {

namespace {

// Driver API version the entry points are requested for (the toolkit this is built with).
constexpr unsigned kDriverApiVersion = CUDART_VERSION;

// Driver functions are looked up through the runtime instead of linking libcuda, so the binary
// starts (for --help and input checks) on machines without a GPU driver.
template <class Fn>
Fn* driver(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  cuda::check_cuda(
      cudaGetDriverEntryPointByVersion(name, &fn, kDriverApiVersion, cudaEnableDefault, &found),
      name);
  if (found != cudaDriverEntryPointSuccess || fn == nullptr) {
    throw std::runtime_error(std::string("the CUDA driver has no ") + name);
  }
  return reinterpret_cast<Fn*>(fn);
}

#define LW_DRIVER(fn) driver<decltype(fn)>(#fn)

void check_cu(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* msg = nullptr;
  LW_DRIVER(cuGetErrorString)(r, &msg);
  throw std::runtime_error(std::string(what) + ": " + (msg ? msg : "unknown driver error"));
}

}  // namespace

int64_t device_sms(int device) {
  int n = 0;
  cuda::check_cuda(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device), "SM count");
  return n;
}

Partition::Partition(int device, int64_t sms) {
  cuda::check_cuda(cudaSetDevice(device), "cudaSetDevice");
  cuda::check_cuda(cudaFree(nullptr), "runtime init");
  const int64_t all = device_sms(device);
  check_partition_request(sms, all);
  if (sms == all) {
    sms_ = all;
    cuda::check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "stream");
    return;
  }
  check_cu(LW_DRIVER(cuInit)(0), "cuInit");
  CUdevice dev;
  check_cu(LW_DRIVER(cuDeviceGet)(&dev, device), "cuDeviceGet");
  CUdevResource whole{};
  check_cu(LW_DRIVER(cuDeviceGetDevResource)(dev, &whole, CU_DEV_RESOURCE_TYPE_SM),
           "cuDeviceGetDevResource");
  CUdevResource part{};
  CUdevResource rest{};
  unsigned groups = 1;
  check_cu(LW_DRIVER(cuDevSmResourceSplitByCount)(&part, &groups, &whole, &rest, 0,
                                                  static_cast<unsigned>(sms)),
           "cuDevSmResourceSplitByCount");
  if (groups != 1)
    throw std::runtime_error("green context: no group of " + std::to_string(sms) + " SMs");
  CUdevResourceDesc desc;
  check_cu(LW_DRIVER(cuDevResourceGenerateDesc)(&desc, &part, 1), "cuDevResourceGenerateDesc");
  check_cu(LW_DRIVER(cuGreenCtxCreate)(&green_, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM),
           "cuGreenCtxCreate");
  CUcontext ctx;
  check_cu(LW_DRIVER(cuCtxFromGreenCtx)(&ctx, green_), "cuCtxFromGreenCtx");
  check_cu(LW_DRIVER(cuCtxGetCurrent)(&previous_), "cuCtxGetCurrent");
  check_cu(LW_DRIVER(cuCtxSetCurrent)(ctx), "cuCtxSetCurrent");
  CUstream s;
  check_cu(LW_DRIVER(cuGreenCtxStreamCreate)(&s, green_, CU_STREAM_NON_BLOCKING, 0),
           "cuGreenCtxStreamCreate");
  stream_ = s;
  sms_ = part.sm.smCount;
}

Partition::~Partition() {
  if (stream_ != nullptr) cudaStreamDestroy(stream_);
  if (green_ != nullptr) {
    try {  // best effort on teardown: a destructor must not throw
      LW_DRIVER(cuCtxSetCurrent)(previous_);
      LW_DRIVER(cuGreenCtxDestroy)(green_);
    } catch (const std::exception&) {
    }
  }
}

}  // namespace lw::bench
