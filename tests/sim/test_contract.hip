/* The launch contract window (sim_control.h, rf_sim_contract_begin; docs/SIMULATOR.md, "The
 * launch contract"): inside it, work on another stream than the window's (the default stream
 * included), an allocation and a synchronisation are each status launch-contract naming the
 * call and its line, and the call still does its work; on the window's stream and outside a
 * window nothing is reported; only the first breach of a window's launch is kept. */
#include "sim_test_util.h"

__global__ void set_one(float *out) { out[threadIdx.x] = 1.0f; }

static hipStream_t stream(unsigned i) { return static_cast<hipStream_t>(rf_sim_stream(i)); }

/* The status after a call: none, or launch-contract with `what` and this file's `line`. */
static void expect(const char *what, int line) {
  char msg[512];
  const int st = rf_sim_take_status(msg, sizeof msg);
  if (!what) {
    CHECK_MSG(st == RF_SIM_OK, "want no status: %s %s", rf_sim_status_name(st), msg);
    return;
  }
  CHECK_MSG(st == RF_SIM_LAUNCH_CONTRACT, "want launch-contract for %s: %s %s", what,
            rf_sim_status_name(st), msg);
  CHECK_MSG(strstr(msg, what) != nullptr, "want '%s' in: %s", what, msg);
  if (line > 0) {
    char at[64];
    snprintf(at, sizeof at, "tests/sim/test_contract.hip:%d ", line);
    CHECK_MSG(strstr(msg, at) != nullptr, "want '%s' in: %s", at, msg);
  } else {
    CHECK_MSG(strstr(msg, ".hip:") == nullptr, "want no line in: %s", msg);
  }
}

int main() {
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 32);
  CHECK(strcmp(rf_sim_status_name(RF_SIM_LAUNCH_CONTRACT), "launch-contract") == 0);
  CHECK(stream(0) && stream(1) && stream(0) != stream(1));
  float *buf = dev_alloc<float>(32);
  hipEvent_t ev;
  CHECK(hipEventCreate(&ev) == hipSuccess);

  /* Outside a window: the harness's own calls, on any stream, are not the contract's. */
  hipLaunchKernelGGL(set_one, dim3(1), dim3(32), 0, 0, buf);
  hipDeviceSynchronize();
  hipMemset(buf, 0, 4);
  expect(nullptr, 0);

  /* The window's stream: allowed. */
  rf_sim_contract_begin(stream(0));
  hipLaunchKernelGGL(set_one, dim3(1), dim3(32), 0, stream(0), buf);
  hipMemsetAsync(buf, 0, 4, stream(0));
  hipMemcpyAsync(buf + 1, buf, 4, hipMemcpyDeviceToDevice, stream(0));
  hipEventRecord(ev, stream(0));
  rf_sim_contract_end();
  expect(nullptr, 0);

  /* Each breach, alone in its window. The call does its work all the same. */
  int line;
  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipLaunchKernelGGL(set_one, dim3(1), dim3(32), 0, 0, buf);
  rf_sim_contract_end();
  expect("a kernel launch on the default stream (stream 0) inside launch", line);
  CHECK(host_from(buf, 1)[0] == 1.0f);

  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipLaunchKernelGGL(set_one, dim3(1), dim3(32), 0, stream(1), buf);
  rf_sim_contract_end();
  expect("a kernel launch on a stream other than a->stream inside launch", line);

  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipMemsetAsync(buf, 0, 4);
  rf_sim_contract_end();
  expect("hipMemsetAsync on the default stream (stream 0) inside launch", line);
  CHECK(host_from(buf, 1)[0] == 0.0f);

  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipMemcpyAsync(buf + 2, buf, 4, hipMemcpyDeviceToDevice, stream(1));
  rf_sim_contract_end();
  expect("hipMemcpyAsync on a stream other than a->stream", line);

  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipEventRecord(ev);
  rf_sim_contract_end();
  expect("hipEventRecord on the default stream", line);

  float *p = nullptr;
  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  CHECK(hipMalloc(&p, 64) == hipSuccess && p);
  rf_sim_contract_end();
  expect("hipMalloc inside launch", line);

  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipFree(p);
  rf_sim_contract_end();
  expect("hipFree inside launch", line);

  void *q = nullptr;
  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  CHECK(hipMallocAsync(&q, 64, stream(0)) == hipSuccess && q);
  rf_sim_contract_end();
  expect("hipMallocAsync inside launch", line);
  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipFreeAsync(q, stream(0));
  rf_sim_contract_end();
  expect("hipFreeAsync inside launch", line);

  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipHostMalloc(&q, 64, hipHostMallocDefault);
  rf_sim_contract_end();
  expect("hipHostMalloc inside launch", line);
  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipHostFree(q);
  rf_sim_contract_end();
  expect("hipHostFree inside launch", line);

  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipDeviceSynchronize();
  rf_sim_contract_end();
  expect("hipDeviceSynchronize inside launch", line);

  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipStreamSynchronize(stream(0));
  rf_sim_contract_end();
  expect("hipStreamSynchronize inside launch", line);

  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipEventSynchronize(ev);
  rf_sim_contract_end();
  expect("hipEventSynchronize inside launch", line);

  float h = 5.0f;
  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipMemcpy(buf, &h, 4, hipMemcpyHostToDevice);
  rf_sim_contract_end();
  expect("hipMemcpy (synchronous) inside launch", line);
  CHECK(host_from(buf, 1)[0] == 5.0f);

  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipMemset(buf, 0, 4);
  rf_sim_contract_end();
  expect("hipMemset (synchronous) inside launch", line);
  CHECK(host_from(buf, 1)[0] == 0.0f);

  /* Only the first breach of a launch is kept. */
  rf_sim_contract_begin(stream(0));
  line = __LINE__ + 1;
  hipDeviceSynchronize();
  hipLaunchKernelGGL(set_one, dim3(1), dim3(32), 0, 0, buf);
  rf_sim_contract_end();
  expect("hipDeviceSynchronize inside launch", line);
  expect(nullptr, 0);

  /* A call without the macros (through a pointer) has no site: named without a line. A site a
   * macro passed outside a window does not linger into the next call. */
  hipError_t (*sync)(void) = &hipDeviceSynchronize;
  hipMemset(buf, 0, 4);   /* outside: passes a site, which this call consumes */
  rf_sim_contract_begin(stream(0));
  sync();
  rf_sim_contract_end();
  expect("hipDeviceSynchronize inside launch (launch must not synchronise)", -1);

  /* After end, nothing is checked again. */
  hipDeviceSynchronize();
  hipLaunchKernelGGL(set_one, dim3(1), dim3(32), 0, stream(3), buf);
  expect(nullptr, 0);

  hipEventDestroy(ev);
  hipFree(buf);
  return rf_test_done();
}
