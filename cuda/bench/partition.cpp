// Green-context SM partitions (see partition.hpp). Driver API: cuDevSmResourceSplitByCount ->
// cuDevResourceGenerateDesc -> cuGreenCtxCreate -> cuCtxFromGreenCtx/cuCtxSetCurrent -> stream.
#include "cuda/bench/partition.hpp"

#include <stdexcept>
#include <string>

#include "cuda/gemm.hpp"

namespace lw::bench {

namespace {

void check_cu(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* msg = nullptr;
  cuGetErrorString(r, &msg);
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
  check_cu(cuInit(0), "cuInit");
  CUdevice dev;
  check_cu(cuDeviceGet(&dev, device), "cuDeviceGet");
  CUdevResource whole{};
  check_cu(cuDeviceGetDevResource(dev, &whole, CU_DEV_RESOURCE_TYPE_SM), "cuDeviceGetDevResource");
  CUdevResource part{};
  CUdevResource rest{};
  unsigned groups = 1;
  check_cu(
      cuDevSmResourceSplitByCount(&part, &groups, &whole, &rest, 0, static_cast<unsigned>(sms)),
      "cuDevSmResourceSplitByCount");
  if (groups != 1)
    throw std::runtime_error("green context: no group of " + std::to_string(sms) + " SMs");
  CUdevResourceDesc desc;
  check_cu(cuDevResourceGenerateDesc(&desc, &part, 1), "cuDevResourceGenerateDesc");
  check_cu(cuGreenCtxCreate(&green_, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM), "cuGreenCtxCreate");
  CUcontext ctx;
  check_cu(cuCtxFromGreenCtx(&ctx, green_), "cuCtxFromGreenCtx");
  check_cu(cuCtxGetCurrent(&previous_), "cuCtxGetCurrent");
  check_cu(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  CUstream s;
  check_cu(cuGreenCtxStreamCreate(&s, green_, CU_STREAM_NON_BLOCKING, 0), "cuGreenCtxStreamCreate");
  stream_ = s;
  sms_ = part.sm.smCount;
}

Partition::~Partition() {
  if (stream_ != nullptr) cudaStreamDestroy(stream_);
  if (green_ != nullptr) {
    cuCtxSetCurrent(previous_);
    cuGreenCtxDestroy(green_);
  }
}

}  // namespace lw::bench
