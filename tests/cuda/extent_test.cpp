// Buffers that do not hold the extent their descriptors claim: a CUDA handle checks, before any
// launch, that each array's bytes lie inside its allocation (cuda/pointer_check.hpp). Arrays are
// placed at the very end of an allocation: exactly there they are taken, one element further they
// are refused as INVALID_POINTER, outputs untouched. Virtual memory mapped from two physical
// allocations counts as one buffer; its unmapped rest does not. Pool allocations are exact.
#ifdef SDDMM_TESTS_HAVE_CUDA
#include <cuda.h>  // the driver's types; its functions come through the runtime's entry points
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "problem.hpp"

namespace sddmm::test {
namespace {

constexpr size_t kAllocationBytes = size_t{2} << 20;
const std::vector<float> kSddmmExpected{3, 6, 9, 12, 15};        // val[p] * dot(ones(3), ones(3))
const std::vector<float> kSpmmExpected{1, 1, 5, 5, 5, 5, 4, 4};  // row sums of A's values, twice

// A 2-MiB allocation whose last bytes hold a copy of `host`, `past` bytes short of the end's room:
// get() is where the array starts, so that its extent ends `past` bytes after the allocation.
class AtTheEnd {
 public:
  template <typename T>
  AtTheEnd(const std::vector<T>& host, size_t past) : buffer_(SDDMM_BACKEND_CUDA, kAllocationBytes) {
    const size_t bytes = host.size() * sizeof(T);
    at_ = static_cast<char*>(buffer_.get()) + kAllocationBytes - bytes + past;
    REQUIRE(cudaMemcpy(at_, host.data(), bytes - past, cudaMemcpyHostToDevice) == cudaSuccess);
  }
  void* get() const { return at_; }

 private:
  Buffer buffer_;
  char* at_ = nullptr;
};

std::string spans(const char* name, size_t bytes, size_t reached) {
  return std::string(name) + " spans " + std::to_string(bytes) + " bytes, but its allocation ends " +
         std::to_string(reached) + " bytes past it";
}

// Driver functions for virtual memory, through the runtime (the tests link no driver library).
template <typename Fn>
Fn driver(const char* symbol) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  REQUIRE(cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault, &found) == cudaSuccess);
  REQUIRE(found == cudaDriverEntryPointSuccess);
  return reinterpret_cast<Fn>(fn);
}

// A reservation of three granules of device 0, the first two mapped from two physical allocations
// of their own (read-write), the third left unmapped. The functions that undo it are looked up
// before anything is reserved, so that the destructor calls no REQUIRE (which throws) and a failed
// step of the constructor undoes the steps before it.
class TwoMappings {
 public:
  TwoMappings()
      : unmap_(driver<Unmap>("cuMemUnmap")),
        release_(driver<Release>("cuMemRelease")),
        free_(driver<Free>("cuMemAddressFree")) {
    prop_.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop_.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop_.location.id = 0;
    using Granularity = CUresult (*)(size_t*, const CUmemAllocationProp*, CUmemAllocationGranularity_flags);
    using Reserve = CUresult (*)(CUdeviceptr*, size_t, size_t, CUdeviceptr, unsigned long long);
    using Create = CUresult (*)(CUmemGenericAllocationHandle*, size_t, const CUmemAllocationProp*, unsigned long long);
    using Map = CUresult (*)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long);
    using SetAccess = CUresult (*)(CUdeviceptr, size_t, const CUmemAccessDesc*, size_t);
    try {
      REQUIRE(driver<Granularity>("cuMemGetAllocationGranularity")(&granule_, &prop_, CU_MEM_ALLOC_GRANULARITY_MINIMUM) ==
              CUDA_SUCCESS);
      REQUIRE(driver<Reserve>("cuMemAddressReserve")(&base_, 3 * granule_, 0, 0, 0) == CUDA_SUCCESS);
      for (int i = 0; i < 2; ++i) {
        REQUIRE(driver<Create>("cuMemCreate")(&physical_[i], granule_, &prop_, 0) == CUDA_SUCCESS);
        ++created_;
        REQUIRE(driver<Map>("cuMemMap")(base_ + i * granule_, granule_, 0, physical_[i], 0) == CUDA_SUCCESS);
        ++mapped_;
      }
      CUmemAccessDesc access{};
      access.location = prop_.location;
      access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
      REQUIRE(driver<SetAccess>("cuMemSetAccess")(base_, 2 * granule_, &access, 1) == CUDA_SUCCESS);
    } catch (...) {
      undo();
      throw;
    }
  }
  ~TwoMappings() { undo(); }
  TwoMappings(const TwoMappings&) = delete;
  TwoMappings& operator=(const TwoMappings&) = delete;

  size_t granule() const { return granule_; }
  // The address `offset` bytes into the reservation, with the first `bytes` of `host` copied there.
  template <typename T>
  void* place(size_t offset, const std::vector<T>& host, size_t bytes) {
    void* at = reinterpret_cast<void*>(base_ + offset);
    REQUIRE(cudaMemcpy(at, host.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
    return at;
  }

 private:
  using Unmap = CUresult (*)(CUdeviceptr, size_t);
  using Release = CUresult (*)(CUmemGenericAllocationHandle);
  using Free = CUresult (*)(CUdeviceptr, size_t);

  // Errors ignored: it runs in the destructor, and on the way out of a failed constructor.
  void undo() {
    (void)cudaDeviceSynchronize();
    for (int i = 0; i < mapped_; ++i) (void)unmap_(base_ + i * granule_, granule_);
    for (int i = 0; i < created_; ++i) (void)release_(physical_[i]);
    if (base_ != 0) (void)free_(base_, 3 * granule_);
    mapped_ = created_ = 0;
    base_ = 0;
  }

  Unmap unmap_;
  Release release_;
  Free free_;
  CUmemAllocationProp prop_{};
  size_t granule_ = 0;
  CUdeviceptr base_ = 0;
  CUmemGenericAllocationHandle physical_[2] = {};
  int created_ = 0;
  int mapped_ = 0;
};

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: arrays that run past the end of their allocation are rejected, and taken where they end at it") {
    Problem p(SDDMM_BACKEND_CUDA, 0);
    const sddmm_status_t rejected = SDDMM_STATUS_INVALID_POINTER;
    const sddmm_dtype_t f32 = SDDMM_DTYPE_FLOAT32;
    const std::vector<float> ones12(12, 1.0f), ones30(30, 1.0f), ones20(20, 1.0f);
    const std::vector<float> out5 = Problem::sentinel(5), y8 = Problem::sentinel(8);

    // One element past the end: every execute argument refused by name, outputs untouched.
    sddmm_dense_t x1 = p.x1(), x2 = p.x2(), x = p.x(), y = p.y();
    AtTheEnd x1_past(ones12, 4), x2_past(ones30, 4), out_past(out5, 4), x_past(ones20, 4), y_past(y8, 4);
    sddmm_dense_t x1_bad = x1, x2_bad = x2, x_bad = x, y_bad = y;
    x1_bad.data = x1_past.get();
    x2_bad.data = x2_past.get();
    x_bad.data = x_past.get();
    y_bad.data = y_past.get();
    expect_rejected(p, "x1", rejected, spans("x1.data", 48, 44),
                    [&] { return sddmm_execute(p.handle, &x1_bad, &x2, p.d_out.get(), f32, nullptr); });
    expect_rejected(p, "x2", rejected, spans("x2.data", 120, 116),
                    [&] { return sddmm_execute(p.handle, &x1, &x2_bad, p.d_out.get(), f32, nullptr); });
    expect_rejected(p, "out", rejected, spans("out", 20, 16),
                    [&] { return sddmm_execute(p.handle, &x1, &x2, out_past.get(), f32, nullptr); });
    expect_rejected(p, "x", rejected, spans("x.data", 80, 76),
                    [&] { return spmm_execute(p.handle, &x_bad, &y, SDDMM_OPERATION_NON_TRANSPOSE, nullptr); });
    expect_rejected(p, "y", rejected, spans("y.data", 32, 28),
                    [&] { return spmm_execute(p.handle, &x, &y_bad, SDDMM_OPERATION_NON_TRANSPOSE, nullptr); });

    // Creation's arrays, one element past: refused, the handle pointer left as it was.
    AtTheEnd rows_past(p.rows, 4), cols_past(p.cols, 4), vals_past(p.vals, 4), offsets_past(p.offsets, 4);
    auto* const untouched = reinterpret_cast<sddmm_matrix_t>(uintptr_t{0x5eed});
    auto coo = [&](const void* rows, const void* cols, const void* vals) {
      sddmm_matrix_t h = untouched;
      const sddmm_status_t s =
          sddmm_create_coo(&h, 4, 10, 5, rows, cols, SDDMM_INDEX_INT32, vals, f32, SDDMM_BACKEND_CUDA, 0, 0, nullptr);
      CHECK(h == untouched);
      return s;
    };
    const void* rows = p.d_rows.get();
    const void* cols = p.d_cols.get();
    const void* vals = p.d_vals.get();
    expect_rejected(p, "row_idx", rejected, spans("row_idx", 20, 16), [&] { return coo(rows_past.get(), cols, vals); });
    expect_rejected(p, "col_idx", rejected, spans("col_idx", 20, 16), [&] { return coo(rows, cols_past.get(), vals); });
    expect_rejected(p, "values", rejected, spans("values", 20, 16), [&] { return coo(rows, cols, vals_past.get()); });
    expect_rejected(p, "row_offsets", rejected, spans("row_offsets", 20, 16), [&] {
      sddmm_matrix_t h = untouched;
      const sddmm_status_t s = sddmm_create_csr(&h, 4, 10, 5, offsets_past.get(), cols, SDDMM_INDEX_INT32, vals, f32,
                                                SDDMM_BACKEND_CUDA, 0, 0, nullptr);
      CHECK(h == untouched);
      return s;
    });

    // Exactly at the end: every array taken, the results those of the arrays placed anywhere.
    AtTheEnd rows_end(p.rows, 0), cols_end(p.cols, 0), vals_end(p.vals, 0), x1_end(ones12, 0), x2_end(ones30, 0),
        out_end(out5, 0), x_end(ones20, 0), y_end(y8, 0);
    sddmm_matrix_t h = nullptr;
    REQUIRE(sddmm_create_coo(&h, 4, 10, 5, rows_end.get(), cols_end.get(), SDDMM_INDEX_INT32, vals_end.get(), f32,
                             SDDMM_BACKEND_CUDA, 0, 0, nullptr) == SDDMM_STATUS_SUCCESS);
    sddmm_dense_t x1_end_d = x1, x2_end_d = x2, x_end_d = x, y_end_d = y;
    x1_end_d.data = x1_end.get();
    x2_end_d.data = x2_end.get();
    x_end_d.data = x_end.get();
    y_end_d.data = y_end.get();
    CHECK(sddmm_execute(h, &x1_end_d, &x2_end_d, out_end.get(), f32, nullptr) == SDDMM_STATUS_SUCCESS);
    CHECK(spmm_execute(h, &x_end_d, &y_end_d, SDDMM_OPERATION_NON_TRANSPOSE, nullptr) == SDDMM_STATUS_SUCCESS);
    std::vector<float> out_host(5), y_host(8);
    REQUIRE(cudaMemcpy(out_host.data(), out_end.get(), 20, cudaMemcpyDeviceToHost) == cudaSuccess);
    REQUIRE(cudaMemcpy(y_host.data(), y_end.get(), 32, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(out_host == kSddmmExpected);
    CHECK(y_host == kSpmmExpected);
    sddmm_destroy(h);
  }

  TEST_CASE("gpu: virtual memory mapped from two physical allocations is one buffer; its unmapped rest is not") {
    Problem p(SDDMM_BACKEND_CUDA, 0);
    TwoMappings vm;
    const std::vector<float> ones12(12, 1.0f);
    sddmm_dense_t x1 = p.x1(), x2 = p.x2();
    const size_t g = vm.granule();

    // x1 (48 bytes), then out (20 bytes), straddle the seam of the two mappings: taken, computed.
    // (One at a time: the two placed across one seam would overlap, an aliasing the API refuses.)
    x1.data = vm.place(g - 24, ones12, 48);
    CHECK(sddmm_execute(p.handle, &x1, &x2, p.d_out.get(), SDDMM_DTYPE_FLOAT32, nullptr) == SDDMM_STATUS_SUCCESS);
    synchronize(SDDMM_BACKEND_CUDA);
    CHECK(p.d_out.to_host<float>(5) == kSddmmExpected);
    sddmm_dense_t x1_plain = p.x1();
    void* out = vm.place(g - 8, Problem::sentinel(5), 20);
    CHECK(sddmm_execute(p.handle, &x1_plain, &x2, out, SDDMM_DTYPE_FLOAT32, nullptr) == SDDMM_STATUS_SUCCESS);
    std::vector<float> out_host(5);
    REQUIRE(cudaMemcpy(out_host.data(), out, 20, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(out_host == kSddmmExpected);
    p.d_out.upload(Problem::sentinel(5).data(), 20);

    // The same across the end of the second mapping, into the reservation's unmapped rest: refused.
    sddmm_dense_t x1_far = p.x1();
    x1_far.data = vm.place(2 * g - 24, ones12, 24);
    CHECK(sddmm_execute(p.handle, &x1_far, &x2, p.d_out.get(), SDDMM_DTYPE_FLOAT32, nullptr) ==
          SDDMM_STATUS_INVALID_POINTER);
    CHECK(std::string(sddmm_last_error()).find("x1.data spans 48 bytes, but only 24 bytes past it are mapped") !=
          std::string::npos);
    void* out_far = vm.place(2 * g - 8, Problem::sentinel(5), 8);
    CHECK(sddmm_execute(p.handle, &x1_plain, &x2, out_far, SDDMM_DTYPE_FLOAT32, nullptr) ==
          SDDMM_STATUS_INVALID_POINTER);
    CHECK(std::string(sddmm_last_error()).find("out spans 20 bytes, but only 8 bytes past it are mapped") !=
          std::string::npos);
    CHECK(p.outputs_untouched());
    std::vector<float> far_host(2);
    REQUIRE(cudaMemcpy(far_host.data(), out_far, 8, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(far_host == Problem::sentinel(2));
  }

  TEST_CASE("gpu: stream-ordered pool allocations are checked to their exact size") {
    Problem p(SDDMM_BACKEND_CUDA, 0);
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
    void *exact = nullptr, *short_by_one = nullptr;
    REQUIRE(cudaMallocAsync(&exact, 48, stream) == cudaSuccess);
    REQUIRE(cudaMallocAsync(&short_by_one, 44, stream) == cudaSuccess);
    const std::vector<float> ones12(12, 1.0f);
    REQUIRE(cudaMemcpyAsync(exact, ones12.data(), 48, cudaMemcpyHostToDevice, stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    sddmm_dense_t x1 = p.x1(), x2 = p.x2();
    x1.data = short_by_one;
    CHECK(sddmm_execute(p.handle, &x1, &x2, p.d_out.get(), SDDMM_DTYPE_FLOAT32, stream) ==
          SDDMM_STATUS_INVALID_POINTER);
    CHECK(std::string(sddmm_last_error()).find(spans("x1.data", 48, 44)) != std::string::npos);
    x1.data = exact;
    CHECK(sddmm_execute(p.handle, &x1, &x2, p.d_out.get(), SDDMM_DTYPE_FLOAT32, stream) == SDDMM_STATUS_SUCCESS);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    CHECK(p.d_out.to_host<float>(5) == kSddmmExpected);
    REQUIRE(cudaFreeAsync(exact, stream) == cudaSuccess);
    REQUIRE(cudaFreeAsync(short_by_one, stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
  }
}

}  // namespace sddmm::test
#endif  // SDDMM_TESTS_HAVE_CUDA
